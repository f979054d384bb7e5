import { createHash, randomBytes } from 'node:crypto';
import type { NodeInfo } from '../../framework/nodeInfo';

/** Kubernetes' ErrReasonMaxVolumeCountExceeded, of every volume limit plugin. */
export const ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED = 'node(s) exceed max volume count';
/** The prefix of the node allocatable resources that hold attach limits. */
export const ATTACHABLE_VOLUMES_PREFIX = 'attachable-volumes-';
/** The prefix of a CSI driver's attach limit key. */
export const CSI_ATTACH_LIMIT_PREFIX = `${ATTACHABLE_VOLUMES_PREFIX}csi-`;
/** Longest resource name. */
const RESOURCE_NAME_LENGTH_LIMIT = 63;

/**
 * The allocatable resource holding a CSI driver's attach limit (Kubernetes' GetCSIAttachLimitKey):
 * `attachable-volumes-csi-<driver>`, or for long names the driver's first 23 characters followed by
 * 16 hex digits of its SHA-1.
 */
export function csiAttachLimitKey(driverName: string): string {
  if (CSI_ATTACH_LIMIT_PREFIX.length + driverName.length < RESOURCE_NAME_LENGTH_LIMIT)
    return CSI_ATTACH_LIMIT_PREFIX + driverName;
  const hashed = createHash('sha1').update(driverName).digest('hex').slice(0, 16);
  return CSI_ATTACH_LIMIT_PREFIX + driverName.slice(0, 23) + hashed;
}

/** The attach limits of a node's allocatable resources (`attachable-volumes-*`), by resource name. */
export function nodeVolumeLimits(nodeInfo: NodeInfo): Map<string, number> {
  const limits = new Map<string, number>();
  for (const [name, value] of nodeInfo.allocatable.scalar ?? [])
    if (name.startsWith(ATTACHABLE_VOLUMES_PREFIX)) limits.set(name, value);
  return limits;
}

/**
 * A random prefix for the IDs a plugin gives volumes it does not know yet (claims not bound), so
 * they never equal a real volume ID.
 */
export function randomVolumeIDPrefix(): string {
  return randomBytes(16).toString('hex');
}
