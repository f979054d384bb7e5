import { FlagError } from './flagError';

/** Every controller the controller manager knows (names as accepted by --controllers). */
export const CONTROLLER_MANAGER_CONTROLLERS: readonly string[] = [
  'attachdetach',
  'bootstrapsigner',
  'cloud-node-lifecycle',
  'clusterrole-aggregation',
  'cronjob',
  'csrapproving',
  'csrcleaner',
  'csrsigning',
  'daemonset',
  'deployment',
  'disruption',
  'endpoint',
  'endpointslice',
  'garbagecollector',
  'horizontalpodautoscaling',
  'job',
  'namespace',
  'nodeipam',
  'nodelifecycle',
  'persistentvolume-binder',
  'persistentvolume-expander',
  'podgc',
  'pv-protection',
  'pvc-protection',
  'replicaset',
  'replicationcontroller',
  'resourcequota',
  'root-ca-cert-publisher',
  'route',
  'service',
  'serviceaccount',
  'serviceaccount-token',
  'statefulset',
  'tokencleaner',
  'ttl',
  'ttl-after-finished',
];

/** Controllers the controller manager leaves off unless named. */
export const CONTROLLER_MANAGER_DISABLED_BY_DEFAULT: readonly string[] = [
  'bootstrapsigner',
  'endpointslice',
  'tokencleaner',
];

/** The cloud controller manager's controllers. */
export const CLOUD_CONTROLLER_MANAGER_CONTROLLERS: readonly string[] = [
  'cloud-node',
  'cloud-node-lifecycle',
  'route',
  'service',
];

/** The cloud controller manager has no controller off by default. */
export const CLOUD_CONTROLLER_MANAGER_DISABLED_BY_DEFAULT: readonly string[] = [];

/** Checks a --controllers list: every entry is `*`, a known name or `-name`. */
export function validateControllers(list: readonly string[], known: readonly string[]): string[] {
  const errors: string[] = [];
  for (const entry of list) {
    if (entry === '*') continue;
    const name = entry.startsWith('-') ? entry.slice(1) : entry;
    if (!known.includes(name)) errors.push(`"${name}" is not in the list of known controllers`);
  }
  return errors;
}

/**
 * Whether `name` is enabled by a --controllers list: `-name` disables, `name` enables, and `*`
 * enables every controller not disabled by default. Later entries do not override earlier ones:
 * an explicit mention of the name wins over `*`.
 */
export function isControllerEnabled(
  name: string,
  list: readonly string[],
  disabledByDefault: readonly string[],
): boolean {
  let hasStar = false;
  for (const entry of list) {
    if (entry === name) return true;
    if (entry === `-${name}`) return false;
    if (entry === '*') hasStar = true;
  }
  return hasStar && !disabledByDefault.includes(name);
}

/** The sorted controllers enabled by a --controllers list; unknown names throw a FlagError naming them. */
export function resolveControllers(
  list: readonly string[],
  known: readonly string[],
  disabledByDefault: readonly string[],
): string[] {
  const errors = validateControllers(list, known);
  if (errors.length > 0) throw new FlagError(`--controllers: ${errors.join(', ')}`);
  return known.filter((name) => isControllerEnabled(name, list, disabledByDefault)).sort();
}
