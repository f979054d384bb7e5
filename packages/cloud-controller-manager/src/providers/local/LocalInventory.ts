import { readFileSync, statSync } from 'node:fs';
import { providedNodeIP, type Node } from '@orch/api';
import {
  InstanceNotFoundError,
  type InstanceMetadata,
  type Instances,
  type NodeAddress,
} from '../../cloudprovider/CloudProvider';
import {
  DEFAULT_INSTANCE_TYPE,
  localProviderID,
  parseLocalCloudConfig,
  type LocalCloudConfig,
  type LocalInstance,
} from './localCloudConfig';

/** The addresses an unlisted node without any gets: it runs on this machine. */
const LOOPBACK = '127.0.0.1';

/**
 * The local provider's instances: the inventory of its config file, re-read whenever the file
 * changes (size or modification time), so that editing it shuts down or removes instances.
 * Nodes the inventory does not list are running instances named after the node unless the
 * config says `unlistedInstances: absent`.
 */
export class LocalInventory implements Instances {
  private config: LocalCloudConfig;
  private stamp = '';

  constructor(
    private readonly path: string,
    initial: LocalCloudConfig,
  ) {
    this.config = initial;
    if (path) this.stamp = this.currentStamp();
  }

  private currentStamp(): string {
    try {
      const s = statSync(this.path);
      return `${s.mtimeMs}/${s.size}/${s.ino}`;
    } catch {
      return 'missing';
    }
  }

  /** The config, re-read first if its file changed; a file that does not parse keeps the last good one. */
  current(): LocalCloudConfig {
    if (!this.path) return this.config;
    const stamp = this.currentStamp();
    if (stamp !== this.stamp) {
      try {
        this.config = parseLocalCloudConfig(readFileSync(this.path, 'utf8'));
        this.stamp = stamp;
      } catch {
        // A half-written file: keep the last good inventory and try again on the next call.
      }
    }
    return this.config;
  }

  /** The node's instance: by provider ID when the node has one, else by name; undefined when absent. */
  instanceFor(node: Node): LocalInstance | undefined {
    const config = this.current();
    const name = node.metadata?.name ?? '';
    const providerID = node.spec?.providerID;
    const listed = config.instances.find((i) => (providerID ? i.providerID === providerID : i.name === name));
    if (listed) return listed;
    if (config.unlistedInstances === 'absent') return undefined;
    if (providerID && providerID !== localProviderID(name)) return undefined;
    return {
      name,
      providerID: localProviderID(name),
      instanceType: DEFAULT_INSTANCE_TYPE,
      zone: config.zone,
      region: config.region,
      state: 'running',
      addresses: [],
    };
  }

  async instanceExists(node: Node): Promise<boolean> {
    return this.instanceFor(node) !== undefined;
  }

  async instanceShutdown(node: Node): Promise<boolean> {
    return this.instanceFor(node)?.state === 'shutdown';
  }

  async instanceMetadata(node: Node): Promise<InstanceMetadata> {
    const instance = this.instanceFor(node);
    if (!instance) throw new InstanceNotFoundError(node.metadata?.name ?? '');
    return {
      providerID: instance.providerID,
      instanceType: instance.instanceType,
      nodeAddresses: instance.addresses.length ? instance.addresses : reportedAddresses(node),
      zone: instance.zone,
      region: instance.region,
    };
  }
}

/**
 * The addresses of an instance the inventory does not list: where its node agent says it is (the
 * provided-node-ip annotation) with its name, else those the node reports itself, else loopback and
 * its name.
 */
function reportedAddresses(node: Node): NodeAddress[] {
  const name = { type: 'Hostname', address: node.metadata?.name ?? '' };
  const nodeIP = providedNodeIP(node);
  if (nodeIP) return [{ type: 'InternalIP', address: nodeIP }, name];
  const own = (node.status?.addresses ?? []).map((a) => ({ type: a.type ?? '', address: a.address ?? '' }));
  if (own.length) return own;
  return [{ type: 'InternalIP', address: LOOPBACK }, name];
}
