import { LeaseKind, type Lease } from '@orch/api';
import type { RestClient } from '../rest/RestClient';
import { clientFor } from '../typed/clientFor';
import type { TypedClient } from '../typed/TypedClient';
import type { LeaderElectionRecord } from './LeaderElectionRecord';
import { formatMicroTime } from '../util/metaTime';
import type { LockConfig, LockState, ResourceLock } from './ResourceLock';

function toMicroTime(t: string): string | undefined {
  return t ? formatMicroTime(new Date(t)) : undefined;
}

function recordOf(lease: Lease): LeaderElectionRecord {
  const spec = lease.spec ?? {};
  return {
    holderIdentity: spec.holderIdentity ?? '',
    leaseDurationSeconds: spec.leaseDurationSeconds ?? 0,
    acquireTime: spec.acquireTime ?? '',
    renewTime: spec.renewTime ?? '',
    leaderTransitions: spec.leaseTransitions ?? 0,
  };
}

function specOf(r: LeaderElectionRecord): NonNullable<Lease['spec']> {
  return {
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    acquireTime: toMicroTime(r.acquireTime),
    renewTime: toMicroTime(r.renewTime),
    leaseTransitions: r.leaderTransitions,
  };
}

/** A coordination.k8s.io/v1 Lease as the lock. */
export class LeaseLock implements ResourceLock {
  private readonly leases: TypedClient<Lease>;
  private lease: Lease | undefined;

  constructor(
    rest: RestClient,
    private readonly config: LockConfig,
  ) {
    this.leases = clientFor(rest, LeaseKind, { namespace: config.namespace });
  }

  async get(signal?: AbortSignal): Promise<LockState> {
    this.lease = await this.leases.get(this.config.name, signal ? { signal } : {});
    const record = recordOf(this.lease);
    return { record, raw: JSON.stringify(record) };
  }

  async create(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void> {
    this.lease = await this.leases.create(
      { metadata: { name: this.config.name, namespace: this.config.namespace }, spec: specOf(record) },
      signal ? { signal } : {},
    );
  }

  async update(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void> {
    if (!this.lease) {
      throw new Error('lease not initialized, call get or create first');
    }
    this.lease = await this.leases.update({ ...this.lease, spec: specOf(record) }, signal ? { signal } : {});
  }

  identity(): string {
    return this.config.identity;
  }

  describe(): string {
    return `${this.config.namespace}/${this.config.name}`;
  }
}
