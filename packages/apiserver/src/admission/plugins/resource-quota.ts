import {
  chargeQuota,
  evaluateQuotaRequest,
  formatResourceList,
  quotaEvaluatorFor,
  type QuotaLike,
  type ResourceList,
} from '@orch/api';
import { StatusError } from '../../errors/status-error';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../admission';
import { admissionForbidden } from '../forbidden';
import type { ObjectLookup } from '../object-lookup';
import type { ObjectWriter } from '../object-writer';

/** Thrown from a status transform: the quota no longer admits the request. */
class QuotaDenied extends Error {}

/**
 * ResourceQuota: a create (or an update that can grow usage: a claim's storage request, a
 * service's type) in a namespace with quotas is measured by its resource's evaluator and refused
 * (403) when it lacks what a quota requires of it or when the usage each governing quota has
 * recorded plus the request's would exceed what that quota enforces (its status.hard). Admitted,
 * the request's usage is added to each governing quota's status.used with a write conditional on
 * the quota's version, so that concurrent requests cannot both take the last of a quota. Requests
 * of one namespace are decided one at a time. Dry runs are checked and charge nothing.
 */
export class ResourceQuotaAdmission implements AdmissionPlugin {
  readonly name = 'ResourceQuota';
  private readonly pending = new Map<string, Promise<void>>();

  constructor(
    private readonly lookup: ObjectLookup,
    private readonly writer: ObjectWriter,
    private readonly now: () => number = Date.now,
  ) {}

  handles(operation: Operation): boolean {
    return operation === 'CREATE' || operation === 'UPDATE';
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.subresource || !a.namespace || !a.object) return;
    const evaluator = quotaEvaluatorFor(a.declaration.group, a.resource);
    if (!evaluator.handles(a.operation)) return;
    // the common case, a namespace without quotas, costs one read of the watch cache
    if (!(await this.lookup.list('', 'resourcequotas', a.namespace)).length) return;
    await this.serialized(a.namespace, async () => {
      let quotas = (await this.lookup.list('', 'resourcequotas', a.namespace)) as QuotaLike[];
      const request = {
        evaluator,
        operation: a.operation,
        object: a.object!,
        ...(a.oldObject ? { oldObject: a.oldObject } : {}),
        now: this.now(),
      };
      let decision = evaluateQuotaRequest({ ...request, quotas });
      if ('denied' in decision) {
        // the cache may be behind the quotas' latest status: refuse only on what storage holds
        quotas = await this.freshQuotas(a.namespace, quotas);
        decision = evaluateQuotaRequest({ ...request, quotas });
        if ('denied' in decision) throw admissionForbidden(a, decision.denied);
      }
      if (a.dryRun) return;
      for (const quota of decision.quotas) await this.charge(a, quota, decision.usage);
    });
  }

  /** Runs `fn` after the namespace's earlier requests are decided. */
  private async serialized(namespace: string, fn: () => Promise<void>): Promise<void> {
    const before = this.pending.get(namespace) ?? Promise.resolve();
    const mine = before.then(fn, fn);
    const settled = mine.catch(() => undefined);
    this.pending.set(namespace, settled);
    try {
      await mine;
    } finally {
      if (this.pending.get(namespace) === settled) this.pending.delete(namespace);
    }
  }

  private async freshQuotas(namespace: string, cached: readonly QuotaLike[]): Promise<QuotaLike[]> {
    const fresh = await Promise.all(
      cached.map((q) => this.writer.fresh('', 'resourcequotas', namespace, q.metadata?.name ?? '')),
    );
    return fresh.filter((q): q is NonNullable<typeof q> => q !== undefined) as QuotaLike[];
  }

  /** Adds `usage` to the quota's status.used, checking it again against the stored quota. */
  private async charge(a: AdmissionAttributes, quota: QuotaLike, usage: ResourceList): Promise<void> {
    const name = quota.metadata?.name ?? '';
    try {
      await this.writer.updateStatus('', 'resourcequotas', a.namespace, name, (current) => {
        const charged = chargeQuota(current as QuotaLike, usage);
        if ('denied' in charged) throw new QuotaDenied(charged.denied);
        const status = (current.status ?? {}) as Record<string, unknown>;
        return { ...current, status: { ...status, used: formatResourceList(charged.used) } };
      });
    } catch (e) {
      if (e instanceof QuotaDenied) throw admissionForbidden(a, e.message);
      // a quota deleted meanwhile limits nothing
      if (e instanceof StatusError && e.code === 404) return;
      throw e;
    }
  }
}
