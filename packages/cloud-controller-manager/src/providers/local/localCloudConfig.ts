import { parse as parseYAML } from 'yaml';
import type { NodeAddress } from '../../cloudprovider/CloudProvider';
import { parseCIDR } from '../../net/cidr';

/** The state of a listed instance. */
export type InstanceState = 'running' | 'shutdown';

/** One instance of the inventory. */
export interface LocalInstance {
  name: string;
  providerID: string;
  instanceType: string;
  zone: string;
  region: string;
  state: InstanceState;
  /** Empty: the node keeps the addresses it reports itself. */
  addresses: NodeAddress[];
}

/**
 * The `local` provider's --cloud-config (YAML or JSON), every field optional:
 *
 *   zone: local-a                 # default zone of instances (default "local")
 *   region: local                 # default region of instances (default "local")
 *   unlistedInstances: running    # nodes not in `instances`: running (default) or absent
 *   loadBalancerPool: 127.0.1.0/24  # loopback range load balancer IPs come from
 *   routesFile: routes.json       # where the route table is kept, relative to the config file
 *   instances:
 *     - name: node-a              # the node's name (required)
 *       providerID: local://node-a  # default local://<name>
 *       instanceType: local.large   # default "local"
 *       zone: local-b               # default the top-level zone
 *       region: local               # default the top-level region
 *       state: running              # running (default) or shutdown
 *       addresses:                  # default: the addresses the node reports
 *         - {type: InternalIP, address: 127.0.0.1}
 */
export interface LocalCloudConfig {
  zone: string;
  region: string;
  unlistedInstances: 'running' | 'absent';
  loadBalancerPool: string;
  /** Empty when the route table is kept in memory only. */
  routesFile: string;
  instances: LocalInstance[];
}

export const DEFAULT_LOAD_BALANCER_POOL = '127.0.1.0/24';
export const DEFAULT_ZONE = 'local';
export const DEFAULT_REGION = 'local';
export const DEFAULT_INSTANCE_TYPE = 'local';
/** The routes file next to a config file that does not name one. */
export const DEFAULT_ROUTES_FILE = 'local-cloud-routes.json';

const TOP_LEVEL = ['zone', 'region', 'unlistedInstances', 'loadBalancerPool', 'routesFile', 'instances'];
const INSTANCE_FIELDS = ['name', 'providerID', 'instanceType', 'zone', 'region', 'state', 'addresses'];
const ADDRESS_TYPES = ['Hostname', 'InternalIP', 'ExternalIP', 'InternalDNS', 'ExternalDNS'];

/** The provider ID of the instance called `name`. */
export function localProviderID(name: string): string {
  return `local://${name}`;
}

function isIPv4CIDR(text: string): boolean {
  try {
    return parseCIDR(text).family === 'ipv4';
  } catch {
    return false;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function optionalString(obj: Record<string, unknown>, field: string, path: string, def: string): string {
  const v = obj[field];
  if (v === undefined || v === null) return def;
  if (typeof v !== 'string') throw new Error(`${path}${field}: must be a string`);
  return v;
}

function unknownFields(obj: Record<string, unknown>, known: readonly string[], path: string): void {
  const extra = Object.keys(obj).filter((k) => !known.includes(k));
  if (extra.length) throw new Error(`${path}${extra[0]}: unknown field`);
}

function parseAddresses(v: unknown, path: string): NodeAddress[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new Error(`${path}: must be a list`);
  return v.map((a, i) => {
    if (!isRecord(a)) throw new Error(`${path}[${i}]: must be an object`);
    const type = optionalString(a, 'type', `${path}[${i}].`, '');
    const address = optionalString(a, 'address', `${path}[${i}].`, '');
    if (!ADDRESS_TYPES.includes(type))
      throw new Error(`${path}[${i}].type: must be one of ${ADDRESS_TYPES.join(', ')}`);
    if (!address) throw new Error(`${path}[${i}].address: required`);
    return { type, address };
  });
}

/** Parses and checks a config document (YAML, of which JSON is a subset); errors name the field. */
export function parseLocalCloudConfig(text: string): LocalCloudConfig {
  const doc: unknown = text.trim() === '' ? {} : parseYAML(text);
  const root = doc ?? {};
  if (!isRecord(root)) throw new Error('the local cloud config must be a mapping');
  unknownFields(root, TOP_LEVEL, '');
  const zone = optionalString(root, 'zone', '', DEFAULT_ZONE);
  const region = optionalString(root, 'region', '', DEFAULT_REGION);
  const unlisted = optionalString(root, 'unlistedInstances', '', 'running');
  if (unlisted !== 'running' && unlisted !== 'absent')
    throw new Error('unlistedInstances: must be running or absent');
  const pool = optionalString(root, 'loadBalancerPool', '', DEFAULT_LOAD_BALANCER_POOL);
  if (!isIPv4CIDR(pool)) throw new Error(`loadBalancerPool: must be an IPv4 CIDR, got "${pool}"`);
  const rawInstances = root.instances ?? [];
  if (!Array.isArray(rawInstances)) throw new Error('instances: must be a list');
  const seen = new Set<string>();
  const instances = rawInstances.map((raw: unknown, i): LocalInstance => {
    const path = `instances[${i}].`;
    if (!isRecord(raw)) throw new Error(`instances[${i}]: must be an object`);
    unknownFields(raw, INSTANCE_FIELDS, path);
    const name = optionalString(raw, 'name', path, '');
    if (!name) throw new Error(`${path}name: required`);
    if (seen.has(name)) throw new Error(`${path}name: duplicate instance "${name}"`);
    seen.add(name);
    const state = optionalString(raw, 'state', path, 'running');
    if (state !== 'running' && state !== 'shutdown')
      throw new Error(`${path}state: must be running or shutdown`);
    return {
      name,
      providerID: optionalString(raw, 'providerID', path, localProviderID(name)),
      instanceType: optionalString(raw, 'instanceType', path, DEFAULT_INSTANCE_TYPE),
      zone: optionalString(raw, 'zone', path, zone),
      region: optionalString(raw, 'region', path, region),
      state,
      addresses: parseAddresses(raw.addresses, `${path}addresses`),
    };
  });
  return {
    zone,
    region,
    unlistedInstances: unlisted,
    loadBalancerPool: pool,
    routesFile: optionalString(root, 'routesFile', '', ''),
    instances,
  };
}
