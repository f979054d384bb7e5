import {
  isEnvVarName,
  type ConfigMapKind,
  type Container,
  type EnvVar,
  type ObjectOf,
  type Pod,
  type Secret,
  type Service,
} from '@orch/api';
import { expandEnv } from './expandEnv';
import { resourceFieldValue } from './resourceEnv';
import { serviceEnvVars } from './serviceEnv';

export type ConfigMap = ObjectOf<typeof ConfigMapKind>;

/** Reads the ConfigMaps and Secrets env refers to; undefined when the object does not exist. */
export interface EnvSources {
  configMap(namespace: string, name: string): Promise<ConfigMap | undefined>;
  secret(namespace: string, name: string): Promise<Secret | undefined>;
  /**
   * Every Service of the cluster, for the service link variables; none when absent. Throws
   * ContainerConfigError while the services have not been read yet.
   */
  services?(): Promise<readonly Service[]>;
}

/** Keys of an envFrom source that are not environment variable names, skipped. */
export interface InvalidEnvKeys {
  source: 'configMap' | 'secret';
  name: string;
  keys: string[];
}

export interface ContainerEnv {
  /** The container's variables, in the order the kubelet builds them. */
  env: Map<string, string>;
  invalid: InvalidEnvKeys[];
}

/** The pod's addresses as the agent assigned them (its status may not carry them yet). */
export interface PodAddresses {
  podIP: string;
  hostIP: string;
  /** The node's allocatable: the limits of containers that set none, for resourceFieldRef. */
  allocatable?: Record<string, string>;
}

/** A container whose environment cannot be built (state waiting, reason CreateContainerConfigError). */
export class ContainerConfigError extends Error {}

/** The message of Kubernetes' InvalidEnvironmentVariableNames event. */
export function invalidEnvKeysMessage(namespace: string, invalid: InvalidEnvKeys): string {
  return `Keys [${invalid.keys.join(', ')}] from the EnvFrom ${invalid.source} ${namespace}/${invalid.name} were skipped since they are considered invalid environment variable names.`;
}

function secretData(secret: Secret): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(secret.data ?? {}))
    out[k] = Buffer.from(String(v), 'base64').toString('utf8');
  return out;
}

const subscripted = /^metadata\.(labels|annotations)\['(.*)'\]$/;

/** The value of a downward API field of the pod (Kubernetes' podFieldSelectorRuntimeValue). */
export function podFieldValue(pod: Pod, fieldPath: string, addresses: PodAddresses): string {
  const sub = subscripted.exec(fieldPath);
  if (sub) {
    const map = sub[1] === 'labels' ? pod.metadata?.labels : pod.metadata?.annotations;
    return map?.[sub[2]!] ?? '';
  }
  switch (fieldPath) {
    case 'metadata.name':
      return pod.metadata?.name ?? '';
    case 'metadata.namespace':
      return pod.metadata?.namespace ?? '';
    case 'metadata.uid':
      return pod.metadata?.uid ?? '';
    case 'spec.nodeName':
      return pod.spec?.nodeName ?? '';
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? '';
    case 'spec.restartPolicy':
      return pod.spec?.restartPolicy ?? '';
    case 'spec.schedulerName':
      return pod.spec?.schedulerName ?? '';
    case 'status.phase':
      return pod.status?.phase ?? '';
    case 'status.hostIP':
    case 'status.hostIPs':
      return addresses.hostIP;
    case 'status.podIP':
    case 'status.podIPs':
      return addresses.podIP;
    default:
      throw new ContainerConfigError(`unsupported fieldPath: ${fieldPath}`);
  }
}

/**
 * A container's environment as the kubelet builds it: the envFrom sources in order (a prefix
 * prepended to each key; keys that are not environment variable names skipped and reported; a
 * later source wins a duplicate key), then `env` in order, beating the sources: a `value` has its
 * `$(VAR)` references to the variables defined so far and to the service variables expanded, a
 * `valueFrom` is read as is (a missing ConfigMap, Secret or key is an error unless the reference is
 * optional, which skips it); last the service link variables (serviceEnvVars) that neither defined.
 */
export async function buildEnv(
  pod: Pod,
  container: Container,
  sources: EnvSources,
  addresses: PodAddresses,
): Promise<ContainerEnv> {
  const namespace = pod.metadata?.namespace ?? '';
  const services = sources.services
    ? serviceEnvVars(await sources.services(), namespace, pod.spec?.enableServiceLinks !== false)
    : new Map<string, string>();
  const env = new Map<string, string>();
  const invalid: InvalidEnvKeys[] = [];
  for (const from of container.envFrom ?? []) {
    let data: Record<string, string>;
    let source: InvalidEnvKeys['source'];
    let name: string;
    if (from.configMapRef) {
      source = 'configMap';
      name = from.configMapRef.name ?? '';
      const cm = await sources.configMap(namespace, name);
      if (!cm) {
        if (from.configMapRef.optional) continue;
        throw new ContainerConfigError(`configmap "${name}" not found`);
      }
      data = { ...(cm.data ?? {}) };
    } else if (from.secretRef) {
      source = 'secret';
      name = from.secretRef.name ?? '';
      const secret = await sources.secret(namespace, name);
      if (!secret) {
        if (from.secretRef.optional) continue;
        throw new ContainerConfigError(`secret "${name}" not found`);
      }
      data = secretData(secret);
    } else continue;
    const bad: string[] = [];
    for (const [key, value] of Object.entries(data)) {
      const k = (from.prefix ?? '') + key;
      if (isEnvVarName(k).length > 0) bad.push(k);
      else env.set(k, value);
    }
    if (bad.length > 0) invalid.push({ source, name, keys: bad.sort() });
  }
  const lookup = (name: string) => env.get(name) ?? services.get(name);
  for (const ev of container.env ?? []) {
    const value = await envVarValue(pod, container, ev, lookup, sources, addresses);
    if (value !== undefined) env.set(ev.name, value);
  }
  for (const [name, value] of services) if (!env.has(name)) env.set(name, value);
  return { env, invalid };
}

async function envVarValue(
  pod: Pod,
  container: Container,
  ev: EnvVar,
  lookup: (name: string) => string | undefined,
  sources: EnvSources,
  addresses: PodAddresses,
): Promise<string | undefined> {
  const namespace = pod.metadata?.namespace ?? '';
  const from = ev.valueFrom;
  if (!from) return expandEnv(ev.value ?? '', lookup);
  if (from.fieldRef) return podFieldValue(pod, from.fieldRef.fieldPath ?? '', addresses);
  if (from.configMapKeyRef) {
    const { name = '', key, optional } = from.configMapKeyRef;
    const cm = await sources.configMap(namespace, name);
    if (!cm) {
      if (optional) return undefined;
      throw new ContainerConfigError(`configmap "${name}" not found`);
    }
    const value = cm.data?.[key];
    if (value === undefined) {
      if (optional) return undefined;
      throw new ContainerConfigError(`couldn't find key ${key} in ConfigMap ${namespace}/${name}`);
    }
    return value;
  }
  if (from.secretKeyRef) {
    const { name = '', key, optional } = from.secretKeyRef;
    const secret = await sources.secret(namespace, name);
    if (!secret) {
      if (optional) return undefined;
      throw new ContainerConfigError(`secret "${name}" not found`);
    }
    const value = secretData(secret)[key];
    if (value === undefined) {
      if (optional) return undefined;
      throw new ContainerConfigError(`couldn't find key ${key} in Secret ${namespace}/${name}`);
    }
    return value;
  }
  if (from.resourceFieldRef)
    return resourceFieldValue(pod, container, from.resourceFieldRef, addresses.allocatable ?? {});
  return '';
}
