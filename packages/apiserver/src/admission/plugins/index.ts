import type { AdmissionPlugin } from '../admission';
import type { ObjectLookup } from '../object-lookup';
import { CertificateSubjectRestriction } from './certificate-subject-restriction';
import { DefaultTolerationSeconds } from './default-toleration-seconds';
import { LimitRanger } from './limit-ranger';
import { NamespaceLifecycle } from './namespace-lifecycle';
import { PriorityAdmission } from './priority';
import { ServiceAccountAdmission } from './service-account';

export { immortalNamespaces } from './namespace-lifecycle';
export { systemPriorityClasses } from './priority';

/** Every admission plugin by name, in the order Kubernetes runs them. */
export const admissionPlugins: Record<string, (lookup: ObjectLookup) => AdmissionPlugin> = {
  NamespaceLifecycle: (l) => new NamespaceLifecycle(l),
  LimitRanger: (l) => new LimitRanger(l),
  ServiceAccount: (l) => new ServiceAccountAdmission(l),
  DefaultTolerationSeconds: () => new DefaultTolerationSeconds(),
  Priority: (l) => new PriorityAdmission(l),
  CertificateSubjectRestriction: () => new CertificateSubjectRestriction(),
};

/** The plugins on by default. */
export const defaultAdmissionPlugins = [
  'NamespaceLifecycle',
  'LimitRanger',
  'ServiceAccount',
  'DefaultTolerationSeconds',
  'Priority',
  'CertificateSubjectRestriction',
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
