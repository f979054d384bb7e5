import type { GateEnabled } from '@orch/api';
import type { AdmissionPlugin } from '../admission';
import type { ObjectLookup } from '../object-lookup';
import type { ObjectWriter } from '../object-writer';
import type { Authorize } from './signer-authorization';
import { CertificateApproval } from './certificate-approval';
import { CertificateSigning } from './certificate-signing';
import { CertificateSubjectRestriction } from './certificate-subject-restriction';
import { DefaultIngressClass } from './default-ingress-class';
import { DefaultStorageClass } from './default-storage-class';
import { DefaultTolerationSeconds } from './default-toleration-seconds';
import { LimitRanger } from './limit-ranger';
import { NamespaceLifecycle } from './namespace-lifecycle';
import { PersistentVolumeClaimResize } from './persistent-volume-claim-resize';
import { PriorityAdmission } from './priority';
import { ResourceQuotaAdmission } from './resource-quota';
import { ServiceAccountAdmission } from './service-account';
import { StorageObjectInUseProtection } from './storage-object-in-use-protection';

export { immortalNamespaces } from './namespace-lifecycle';

/**
 * What a plugin is made with: lookups of stored objects, status writes, the server's authorizer and
 * its feature gates.
 */
export interface AdmissionPluginContext {
  lookup: ObjectLookup;
  writer: ObjectWriter;
  authorize: Authorize;
  featureEnabled: GateEnabled;
}

/** Every admission plugin by name, in the order Kubernetes runs them. */
export const admissionPlugins: Record<string, (ctx: AdmissionPluginContext) => AdmissionPlugin> = {
  NamespaceLifecycle: ({ lookup }) => new NamespaceLifecycle(lookup),
  LimitRanger: ({ lookup }) => new LimitRanger(lookup),
  ServiceAccount: ({ lookup }) => new ServiceAccountAdmission(lookup),
  DefaultTolerationSeconds: () => new DefaultTolerationSeconds(),
  Priority: ({ lookup, featureEnabled }) =>
    new PriorityAdmission(lookup, featureEnabled('NonPreemptingPriority')),
  DefaultStorageClass: ({ lookup }) => new DefaultStorageClass(lookup),
  StorageObjectInUseProtection: () => new StorageObjectInUseProtection(),
  PersistentVolumeClaimResize: ({ lookup }) => new PersistentVolumeClaimResize(lookup),
  CertificateApproval: ({ authorize }) => new CertificateApproval(authorize),
  CertificateSigning: ({ authorize }) => new CertificateSigning(authorize),
  CertificateSubjectRestriction: () => new CertificateSubjectRestriction(),
  DefaultIngressClass: ({ lookup }) => new DefaultIngressClass(lookup),
  ResourceQuota: ({ lookup, writer }) => new ResourceQuotaAdmission(lookup, writer),
};

/** The plugins on by default. */
export const defaultAdmissionPlugins = [
  'NamespaceLifecycle',
  'LimitRanger',
  'ServiceAccount',
  'DefaultTolerationSeconds',
  'Priority',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'PersistentVolumeClaimResize',
  'CertificateApproval',
  'CertificateSigning',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'ResourceQuota',
];

/** The plugins to run given --enable-admission-plugins and --disable-admission-plugins; unknown names are errors. */
export function selectAdmissionPlugins(enable: readonly string[], disable: readonly string[]): string[] {
  for (const n of [...enable, ...disable]) {
    if (!admissionPlugins[n])
      throw new Error(`plugins [${n}] in runtime admission plugins list is not registered`);
  }
  const on = new Set([...defaultAdmissionPlugins, ...enable]);
  for (const n of disable) on.delete(n);
  return Object.keys(admissionPlugins).filter((n) => on.has(n));
}
