import {
  calculateQuotaUsage,
  nextQuotaStatus,
  parseResourceList,
  quotaEvaluatorFor,
  quotaEvaluatorsFor,
  resourceListsEqual,
  ResourceQuotaKind,
  type QuotaEvaluator,
  type QuotaObject,
  type ResourceQuota,
} from '@orch/api';
import {
  clientFor,
  defaultRESTMapper,
  splitMetaNamespaceKey,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { deletedObject, QueueController, type ControllerContext } from '@orch/component-base';
import { descriptorOf } from '../controller/discovery';
import { quotaNeedsSync, quotaTracks } from './quotaSync';

/** The resources whose objects are watched from the start: those with evaluators of their own. */
const WATCHED_FROM_START = [
  'pods',
  'services',
  'persistentvolumeclaims',
  'configmaps',
  'secrets',
  'replicationcontrollers',
  'resourcequotas',
];

/** How soon a quota is looked at again while the objects it counts are still being listed. */
const UNSYNCED_RETRY_MS = 500;

/**
 * The resource quota controller (Kubernetes' resourcequota): keeps each ResourceQuota's status.hard
 * equal to spec.hard and status.used equal to the usage of the objects of its namespace within its
 * scopes, measured by the evaluators quota admission uses. A quota is synced when it is created or
 * its limits change, when an object it counts is deleted or its usage changes (a pod finishing
 * frees its compute resources), and every resync period (--resource-quota-sync-period). Objects
 * counted by `count/<resource>.<group>` of other kinds are watched once a quota names them.
 */
export class ResourceQuotaController extends QueueController {
  private readonly quotaLister: Lister<ResourceQuota>;
  private readonly quotas: TypedClient<ResourceQuota>;
  /** The informers of counted resources by `<group>/<resource>` (undefined: not a served resource). */
  private readonly counted = new Map<string, SharedIndexInformer<KubeObject> | undefined>();

  constructor(ctx: ControllerContext) {
    super('resourcequota', ctx);
    const quotaInformer = ctx.informers.informerFor<ResourceQuota>(ResourceQuotaKind);
    this.quotaLister = quotaInformer.lister();
    this.quotas = clientFor(ctx.client, ResourceQuotaKind);
    quotaInformer.addEventHandler({
      onAdd: (q) => this.enqueue(q),
      onUpdate: (old, q) => {
        if (quotaNeedsSync(q) || !resourceListsEqual(parseHard(old), parseHard(q))) this.enqueue(q);
      },
    });
    const informers = WATCHED_FROM_START.map((r) => this.informerOf('', r)).filter(
      (i): i is SharedIndexInformer<KubeObject> => i !== undefined,
    );
    if (ctx.syncPeriodMs) {
      this.every(ctx.syncPeriodMs, () => {
        for (const q of this.quotaLister.list()) this.enqueue(q);
      });
    }
    this.run([quotaInformer as unknown as SharedIndexInformer<KubeObject>, ...informers]);
  }

  /** The informer of a counted resource, made (with its replenishment handlers) on first use. */
  private informerOf(group: string, resource: string): SharedIndexInformer<KubeObject> | undefined {
    const key = `${group}/${resource}`;
    if (this.counted.has(key)) return this.counted.get(key);
    const mapping = defaultRESTMapper()
      .all()
      .find((m) => m.preferred && m.gvr.group === group && m.gvr.resource === resource && m.namespaced);
    if (!mapping || mapping.declaration.virtual) {
      this.counted.set(key, undefined);
      return undefined;
    }
    const informer = this.ctx.informers.informerFor<KubeObject>(descriptorOf(mapping));
    const evaluator = quotaEvaluatorFor(group, resource);
    informer.addEventHandler({
      onUpdate: (old, cur) => {
        const now = this.ctx.now();
        const before = evaluator.usage(old as QuotaObject, now);
        if (!resourceListsEqual(before, evaluator.usage(cur as QuotaObject, now)))
          this.replenish(cur, evaluator);
      },
      onDelete: (obj) => this.replenish(deletedObject(obj), evaluator),
    });
    this.counted.set(key, informer);
    // an informer asked for after the manager started its informers is started here
    this.ctx.informers.start();
    return informer;
  }

  /** Syncs the quotas of the object's namespace that count what the evaluator measures. */
  private replenish(obj: KubeObject, evaluator: QuotaEvaluator): void {
    const namespace = obj.metadata?.namespace ?? '';
    for (const q of this.quotaLister.namespace(namespace).list()) {
      if (quotaTracks(q, evaluator)) this.enqueue(q);
    }
  }

  protected async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const quota = this.quotaLister.namespace(namespace).get(name);
    if (!quota) return;
    let listing = false;
    const observed = calculateQuotaUsage(
      quota,
      quotaEvaluatorsFor(Object.keys(quota.spec?.hard ?? {})),
      (evaluator) => {
        const informer = this.informerOf(evaluator.group, evaluator.resource);
        if (!informer) return undefined;
        if (!informer.hasSynced()) {
          listing = true;
          return undefined;
        }
        return informer.lister().namespace(namespace).list() as QuotaObject[];
      },
      this.ctx.now(),
    );
    const { status, changed } = nextQuotaStatus(quota, observed);
    if (changed) await this.quotas.updateStatus({ ...quota, status } as ResourceQuota, { namespace });
    if (listing) this.enqueueAfter(key, UNSYNCED_RETRY_MS);
  }
}

const parseHard = (q: ResourceQuota) => parseResourceList(q.spec?.hard);
