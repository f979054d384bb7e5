import type { RestClient } from '../rest/RestClient';
import { AnnotationLock } from './AnnotationLock';
import { LeaseLock } from './LeaseLock';
import { MultiLock } from './MultiLock';
import type { LockConfig, ResourceLock } from './ResourceLock';

/** The --leader-elect-resource-lock values. */
export const resourceLockTypes = [
  'leases',
  'endpoints',
  'configmaps',
  'endpointsleases',
  'configmapsleases',
] as const;
export type ResourceLockType = (typeof resourceLockTypes)[number];

/** Builds the lock named by --leader-elect-resource-lock. */
export function newResourceLock(type: ResourceLockType, rest: RestClient, config: LockConfig): ResourceLock {
  switch (type) {
    case 'leases':
      return new LeaseLock(rest, config);
    case 'endpoints':
    case 'configmaps':
      return new AnnotationLock(rest, type, config);
    case 'endpointsleases':
      return new MultiLock(new AnnotationLock(rest, 'endpoints', config), new LeaseLock(rest, config));
    case 'configmapsleases':
      return new MultiLock(new AnnotationLock(rest, 'configmaps', config), new LeaseLock(rest, config));
    default:
      throw new Error(`invalid lock-type ${String(type)}`);
  }
}
