import type { KindDeclaration } from '../../schema/kind';
import { BindingKind } from './binding';
import { ConfigMapKind } from './configmap';
import { EndpointsKind } from './endpoints';
import { EventKind } from './event';
import { LimitRangeKind } from './limit-range';
import { NamespaceKind } from './namespace';
import { NodeKind } from './node';
import { PersistentVolumeClaimKind } from './persistent-volume-claim';
import { PersistentVolumeKind } from './persistent-volume';
import { podFamilyKinds } from './pod-family';
import { ResourceQuotaKind } from './resource-quota';
import { SecretKind } from './secret';
import { ServiceAccountKind } from './service-account';
import { ServiceKind } from './service';

export * from './configmap';
export * from './object-reference';
export * from './affinity';
export * from './env';
export * from './probe';
export * from './resources';
export * from './security-context';
export * from './toleration';
export * from './volume';
export * from './container';
export * from './container-status';
export * from './pod-spec';
export * from './pod-status';
export * from './pod';
export * from './pod-template';
export * from './replication-controller';
export * from './pod-family';
export * from './namespace';
export * from './node';
export * from './service';
export * from './endpoints';
export * from './secret';
export * from './bootstrap-token';
export * from './service-account';
export * from './event';
export * from './binding';
export * from './resource-quota';
export * from './limit-range';
export * from './persistent-volume';
export * from './persistent-volume-claim';
export * from './volume-util';

/** The kinds of the core group (v1). */
export const coreKinds: readonly KindDeclaration<any>[] = [
  ConfigMapKind,
  ...podFamilyKinds,
  NamespaceKind,
  NodeKind,
  ServiceKind,
  EndpointsKind,
  SecretKind,
  ServiceAccountKind,
  EventKind,
  BindingKind,
  ResourceQuotaKind,
  LimitRangeKind,
  PersistentVolumeKind,
  PersistentVolumeClaimKind,
];
