import { formatTime, NamespaceKind, type Namespace } from '@orch/api';
import {
  clientFor,
  DiscoveryClient,
  isNotFound,
  type Lister,
  type TypedClient,
  type KubeObject,
  type SharedIndexInformer,
} from '@orch/client';
import { errorMessage, type ControllerContext, QueueController } from '@orch/component-base';
import { discoverResources, type ResourceDiscovery } from '../controller/discovery';
import { RESOURCES } from '../controller/resources';
import {
  contentRemainingMessage,
  discoveryFailureMessage,
  finalizersRemainingMessage,
  namespaceDeletionOrder,
} from './deletionOrder';

/** The finalizer the namespace controller owns. */
export const KUBERNETES_FINALIZER = 'kubernetes';

/** How long to wait before checking a namespace whose content is still going away. */
export const CONTENT_REMAINING_RECHECK_MS = 2_000;

/** The verbs a resource needs for its objects to be deleted with their namespace. */
const DELETED_VERBS = ['list', 'delete'];

type NamespaceCondition = NonNullable<NonNullable<Namespace['status']>['conditions']>[number];

export interface NamespaceControllerOptions {
  /** Where resources are discovered; the API server's discovery documents by default. */
  discovery?: ResourceDiscovery;
}

/**
 * Empties terminating namespaces of every namespaced resource discovery reports (read again on each
 * sync, custom resources included), then removes their `kubernetes` finalizer through /finalize.
 */
export class NamespaceController extends QueueController {
  private readonly nsLister: Lister<Namespace>;
  private readonly namespaces: TypedClient<Namespace>;
  private readonly discovery: ResourceDiscovery;

  constructor(ctx: ControllerContext, opts: NamespaceControllerOptions = {}) {
    super('namespace', ctx);
    this.discovery = opts.discovery ?? new DiscoveryClient(ctx.client);
    const informer = ctx.informers.informerFor<Namespace>(RESOURCES.namespaces);
    this.nsLister = informer.lister();
    this.namespaces = clientFor(ctx.client, NamespaceKind);
    informer.addEventHandler(
      {
        onAdd: (ns) => this.enqueue(ns),
        onUpdate: (_o, ns) => this.enqueue(ns),
      },
      ctx.syncPeriodMs || undefined,
    );
    this.run([informer] as SharedIndexInformer<KubeObject>[]);
  }

  protected async sync(name: string): Promise<void> {
    const ns = this.nsLister.get(name);
    if (!ns?.metadata?.deletionTimestamp) return;
    if (!(ns.spec?.finalizers ?? []).includes(KUBERNETES_FINALIZER)) return;
    const remaining = new Map<string, number>();
    const finalizers = new Map<string, number>();
    const failures: string[] = [];
    // Discovery failing for some groups is not fatal: what was discovered is deleted all the same.
    const { matching, error: discoveryError } = await discoverResources(this.discovery, DELETED_VERBS);
    for (const resource of namespaceDeletionOrder(matching)) {
      const client = clientFor(this.ctx.client, resource);
      const gr = `${resource.resource}.${resource.group}`;
      try {
        if (resource.verbs.includes('deletecollection')) {
          await client.deleteCollection({ namespace: name });
        } else {
          const list = await client.list({ namespace: name });
          for (const item of list.items)
            await client.delete(item.metadata?.name ?? '', { namespace: name }).catch(ignoreNotFound);
        }
        const left = (await client.list({ namespace: name })).items as KubeObject[];
        if (left.length > 0) {
          remaining.set(gr, left.length);
          for (const obj of left) {
            for (const f of obj.metadata?.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
          }
        }
      } catch (err) {
        if (isNotFound(err)) continue;
        failures.push(`${gr}: ${errorMessage(err)}`);
      }
    }
    const now = this.ctx.now();
    const conditions = [
      discoveryError
        ? condition(
            'NamespaceDeletionDiscoveryFailure',
            true,
            'DiscoveryFailed',
            discoveryFailureMessage(discoveryError),
            now,
          )
        : condition(
            'NamespaceDeletionDiscoveryFailure',
            false,
            'ResourcesDiscovered',
            'All resources successfully discovered',
            now,
          ),
      condition(
        'NamespaceDeletionGroupVersionParsingFailure',
        false,
        'ParsedGroupVersions',
        'All legacy kube types successfully parsed',
        now,
      ),
      failures.length
        ? condition(
            'NamespaceDeletionContentFailure',
            true,
            'ContentDeletionFailed',
            `Failed to delete all resource types, ${failures.length} remaining: ${failures.join(', ')}`,
            now,
          )
        : condition(
            'NamespaceDeletionContentFailure',
            false,
            'ContentDeleted',
            'All content successfully deleted, may be waiting on finalization',
            now,
          ),
      remaining.size
        ? condition(
            'NamespaceContentRemaining',
            true,
            'SomeResourcesRemain',
            contentRemainingMessage(remaining),
            now,
          )
        : condition(
            'NamespaceContentRemaining',
            false,
            'ContentRemoved',
            'All content successfully removed',
            now,
          ),
      finalizers.size
        ? condition(
            'NamespaceFinalizersRemaining',
            true,
            'SomeFinalizersRemain',
            finalizersRemainingMessage(finalizers),
            now,
          )
        : condition(
            'NamespaceFinalizersRemaining',
            false,
            'ContentHasNoFinalizers',
            'All content-preserving finalizers finished',
            now,
          ),
    ];
    await this.updateConditions(ns, conditions);
    const errors = [...(discoveryError ? [discoveryError.message] : []), ...failures];
    if (errors.length) throw new Error(`namespace ${name}: ${errors.join('; ')}`);
    if (remaining.size) {
      this.enqueueAfter(name, CONTENT_REMAINING_RECHECK_MS);
      return;
    }
    const spec = {
      ...ns.spec,
      finalizers: (ns.spec?.finalizers ?? []).filter((f) => f !== KUBERNETES_FINALIZER),
    };
    try {
      await this.ctx.client
        .put()
        .version('v1')
        .resource('namespaces')
        .name(name)
        .subresource('finalize')
        .body({ ...ns, apiVersion: 'v1', kind: 'Namespace', spec })
        .do();
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  private async updateConditions(ns: Namespace, conditions: NamespaceCondition[]): Promise<void> {
    const old = ns.status?.conditions ?? [];
    const merged = conditions.map((c) => {
      const prev = old.find((o) => o.type === c.type);
      return prev && prev.status === c.status ? { ...c, lastTransitionTime: prev.lastTransitionTime } : c;
    });
    if (JSON.stringify(merged) === JSON.stringify(old)) return;
    try {
      await this.namespaces.updateStatus({ ...ns, status: { ...ns.status, conditions: merged } });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

function condition(
  type: string,
  status: boolean,
  reason: string,
  message: string,
  now: number,
): NamespaceCondition {
  return { type, status: status ? 'True' : 'False', lastTransitionTime: formatTime(now), reason, message };
}

function ignoreNotFound(err: unknown): void {
  if (!isNotFound(err)) throw err;
}
