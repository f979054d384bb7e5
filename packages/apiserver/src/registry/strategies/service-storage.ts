import { invalidStatus, type FieldError } from '@orch/api';
import { StatusError, statusErrors } from '../../errors/status-error';
import type { KV, Storage } from '../../storage/storage';
import { ForwardingStorage } from '../../storage/forwarding-storage';
import { StorageError } from '../../storage/storage-error';
import { AllocationError, type ServiceIPAllocator } from './service-ip-allocator';

interface ServicePort {
  port?: number;
  protocol?: string;
  nodePort?: number;
}

interface ServiceSpec {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  ports?: ServicePort[];
  externalTrafficPolicy?: string;
  healthCheckNodePort?: number;
}

interface StoredService {
  metadata?: { name?: string };
  spec?: ServiceSpec;
}

/** What a stored service holds of the shared ranges. */
interface Held {
  ips: string[];
  ports: number[];
}

function usesNodePorts(spec: ServiceSpec): boolean {
  return spec.type === 'NodePort' || spec.type === 'LoadBalancer';
}

/** A LoadBalancer that keeps traffic local gets a node port for the load balancer's health checks. */
function needsHealthCheckPort(spec: ServiceSpec): boolean {
  return spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
}

function heldBy(svc: StoredService | undefined): Held {
  const spec = svc?.spec ?? {};
  if (spec.type === 'ExternalName') return { ips: [], ports: [] };
  const ips = (spec.clusterIPs?.length ? spec.clusterIPs : spec.clusterIP ? [spec.clusterIP] : []).filter(
    (ip) => ip && ip !== 'None',
  );
  const ports = usesNodePorts(spec)
    ? (spec.ports ?? []).map((p) => p.nodePort ?? 0).filter((p) => p > 0)
    : [];
  if (needsHealthCheckPort(spec) && spec.healthCheckNodePort) ports.push(spec.healthCheckNodePort);
  return { ips, ports };
}

function decode(value: Uint8Array): StoredService {
  return JSON.parse(Buffer.from(value).toString('utf8')) as StoredService;
}

/**
 * The services registry's storage: allocates cluster IPs and node ports as services are written and
 * releases them when a service gives them up or is deleted. Allocation happens only on the way to
 * storage, so dry runs allocate nothing.
 */
export class ServiceStorage extends ForwardingStorage {
  constructor(
    inner: Storage,
    private readonly allocator: ServiceIPAllocator,
  ) {
    super(inner);
  }

  override async create(key: string, value: Uint8Array): Promise<KV> {
    // an existing service is a 409 AlreadyExists, not a clash over its IP
    if (await this.inner.get(key)) throw StorageError.keyExists(key);
    const svc = decode(value);
    const taken = await this.allocate(svc, undefined);
    try {
      return await this.inner.create(key, Buffer.from(JSON.stringify(svc)));
    } catch (e) {
      await this.release(taken);
      throw e;
    }
  }

  override async update(key: string, value: Uint8Array, expectedModRevision?: number): Promise<KV> {
    const svc = decode(value);
    const current = await this.inner.get(key);
    const old = current ? decode(current.value) : undefined;
    const taken = await this.allocate(svc, old);
    let kv: KV;
    try {
      kv = await this.inner.update(key, Buffer.from(JSON.stringify(svc)), expectedModRevision);
    } catch (e) {
      await this.release(taken);
      throw e;
    }
    const now = heldBy(svc);
    const before = heldBy(old);
    await this.release({
      ips: before.ips.filter((ip) => !now.ips.includes(ip)),
      ports: before.ports.filter((p) => !now.ports.includes(p)),
    });
    return kv;
  }

  override async delete(key: string, expectedModRevision?: number): Promise<KV> {
    const kv = await this.inner.delete(key, expectedModRevision);
    await this.release(heldBy(decode(kv.value)));
    return kv;
  }

  /** The inner storage belongs to the apiserver, which closes it. */
  override async close(): Promise<void> {}

  /** Takes the IP and node ports `svc` needs and `old` does not hold yet; fills them in. */
  private async allocate(svc: StoredService, old: StoredService | undefined): Promise<Held> {
    const spec = (svc.spec ??= {});
    const before = heldBy(old);
    const taken: Held = { ips: [], ports: [] };
    const fail = async (field: string, badValue: unknown, e: unknown): Promise<never> => {
      await this.release(taken);
      if (e instanceof AllocationError && e.reason !== 'Full') {
        const error: FieldError = { type: 'FieldValueInvalid', field, badValue, detail: e.message };
        throw new StatusError(invalidStatus('Service', '', svc.metadata?.name ?? '', [error]));
      }
      if (e instanceof AllocationError) throw statusErrors.internal(e.message);
      throw e;
    };
    if (spec.type !== 'ExternalName' && spec.clusterIP !== 'None' && spec.clusterIPs?.[0] !== 'None') {
      const requested = spec.clusterIP || spec.clusterIPs?.[0] || undefined;
      let ip = requested;
      if (!requested || !before.ips.includes(requested)) {
        try {
          ip = await this.allocator.allocateIP(requested);
          taken.ips.push(ip);
        } catch (e) {
          await fail('spec.clusterIPs', [requested], e);
        }
      }
      spec.clusterIP = ip;
      spec.clusterIPs = [ip!];
      spec.ipFamilies = ['IPv4'];
      spec.ipFamilyPolicy ??= 'SingleStack';
    }
    if (usesNodePorts(spec)) {
      const ports = spec.ports ?? [];
      for (let i = 0; i < ports.length; i++) {
        const p = ports[i]!;
        const requested = p.nodePort || undefined;
        // a port kept from before, or shared by two protocols of this service, is held already
        if (requested && (before.ports.includes(requested) || taken.ports.includes(requested))) continue;
        try {
          p.nodePort = await this.allocator.allocateNodePort(requested);
          taken.ports.push(p.nodePort);
        } catch (e) {
          await fail(`spec.ports[${i}].nodePort`, requested, e);
        }
      }
    }
    if (needsHealthCheckPort(spec)) {
      const requested = spec.healthCheckNodePort || undefined;
      if (!requested || !(before.ports.includes(requested) || taken.ports.includes(requested))) {
        try {
          spec.healthCheckNodePort = await this.allocator.allocateNodePort(requested);
          taken.ports.push(spec.healthCheckNodePort);
        } catch (e) {
          await fail('spec.healthCheckNodePort', requested, e);
        }
      }
    }
    return taken;
  }

  private async release(held: Held): Promise<void> {
    for (const ip of held.ips) await this.allocator.releaseIP(ip);
    for (const port of held.ports) await this.allocator.releaseNodePort(port);
  }
}
