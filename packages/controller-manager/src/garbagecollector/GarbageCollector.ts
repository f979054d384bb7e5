import {
  clientFor,
  DiscoveryClient,
  isGroupDiscoveryFailed,
  isNotFound,
  isUnsupportedMediaType,
  type DiscoveredResource,
  type HandlerRegistration,
  type KubeObject,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { type ControllerContext, deletedObject, QueueController } from '@orch/component-base';
import {
  deletableResources,
  discoverResources,
  resourceForKind,
  type ResourceDiscovery,
} from '../controller/discovery';
import { decideDependent, type OwnerLookup } from './ownerClassification';
import { removeOwnerReferencesMergePatch, removeOwnerReferencesPatch } from './removeOwnerReferencesPatch';

type OwnerReference = NonNullable<NonNullable<KubeObject['metadata']>['ownerReferences']>[number];

const OWNER_UID_INDEX = 'ownerUID';
const ORPHAN = 'orphan';
const FOREGROUND = 'foregroundDeletion';

/** The verbs a resource needs for the garbage collector to follow it (Kubernetes' GetDeletableResources). */
const MONITORED_VERBS = ['delete', 'list', 'watch'];
/** Resources never monitored (Kubernetes' default ignored resources of the garbage collector). */
const IGNORED = new Set(['/events', 'events.k8s.io/events']);
/** How often discovery is read again to add and remove monitors (Kubernetes' garbage collector syncs every 30 s). */
export const GC_DISCOVERY_RESYNC_MS = 30_000;
/** How soon a key is looked at again while a monitor added since is still listing. */
const MONITOR_SYNC_RETRY_MS = 100;

export interface GarbageCollectorOptions {
  /** Where resources are discovered; the API server's discovery documents by default. */
  discovery?: ResourceDiscovery;
  /** How often discovery is read again; GC_DISCOVERY_RESYNC_MS by default. */
  discoveryResyncMs?: number;
}

interface Monitor {
  resource: DiscoveredResource;
  informer: SharedIndexInformer<KubeObject>;
  client: TypedClient<KubeObject>;
  registration: HandlerRegistration;
  /** Until when workers wait for the monitor's first list before deciding without it. */
  waitUntil: number;
}

/** An owner reference whose kind neither discovery nor the static mapper knows yet: retried. */
class UnknownOwnerKindError extends Error {
  constructor(ref: OwnerReference) {
    super(`unable to get REST mapping for ${ref.apiVersion}/${ref.kind}`);
  }
}

/**
 * Deletes objects whose owners are gone, following ownerReferences across every resource the API
 * serves: Background (dependents of deleted owners), Foreground (an owner with the
 * foregroundDeletion finalizer waits for its blocking dependents) and Orphan (dependents lose the
 * reference, then the owner its orphan finalizer). The resources monitored are the server's
 * deletable ones, read from discovery at start and every resync period (custom resources come and
 * go with their definitions); the declared kinds are monitored until discovery first answers.
 * Queue keys are `<group>/<resource>|<ns>/<name>`.
 */
export class GarbageCollector extends QueueController {
  private readonly monitors = new Map<string, Monitor>();
  private readonly discovery: ResourceDiscovery;
  /** Every resource discovery reported last (owner kinds resolve through it). */
  private discovered: DiscoveredResource[] = [];
  private resyncing: Promise<void> | undefined;
  private stopped = false;

  constructor(ctx: ControllerContext, opts: GarbageCollectorOptions = {}) {
    super('garbagecollector', ctx);
    this.discovery = opts.discovery ?? new DiscoveryClient(ctx.client);
    for (const resource of deletableResources()) this.addMonitor(resource, 0);
    this.run([...this.monitors.values()].map((m) => m.informer));
    void this.resyncMonitors();
    this.every(opts.discoveryResyncMs ?? GC_DISCOVERY_RESYNC_MS, () => void this.resyncMonitors());
  }

  /**
   * Reads discovery and makes the monitors match it: monitors for new resources, none for resources
   * gone. Monitors of group/versions discovery failed for are kept, as Kubernetes does.
   */
  resyncMonitors(): Promise<void> {
    this.resyncing ??= (async () => {
      const { all, matching, error } = await discoverResources(this.discovery, MONITORED_VERBS);
      if (this.stopped) return;
      if (error) this.ctx.logger.warning(`garbagecollector: ${error.message}`);
      if (matching.length === 0) return;
      this.discovered = all;
      const wanted = new Map(
        matching.filter((r) => !IGNORED.has(`${r.group}/${r.resource}`)).map((r) => [resourceId(r), r]),
      );
      const failed = failedGroupVersions(error);
      for (const [id, m] of this.monitors) {
        const next = wanted.get(id);
        if (next?.version === m.resource.version) continue;
        if (!next && failed.has(groupVersionOf(m.resource))) continue;
        this.removeMonitor(id);
      }
      const waitUntil = this.ctx.now() + GC_DISCOVERY_RESYNC_MS;
      for (const [id, r] of wanted) if (!this.monitors.has(id)) this.addMonitor(r, waitUntil);
      this.ctx.informers.start();
    })().finally(() => {
      this.resyncing = undefined;
    });
    return this.resyncing;
  }

  override async stop(): Promise<void> {
    this.stopped = true;
    await super.stop();
  }

  private addMonitor(resource: DiscoveredResource, waitUntil: number): void {
    const informer = this.ctx.informers.informerFor<KubeObject>(resource);
    if (!informer.indexer.getIndexers()[OWNER_UID_INDEX]) {
      informer.addIndexers({
        [OWNER_UID_INDEX]: (o) => (o.metadata?.ownerReferences ?? []).map((r) => r.uid),
      });
    }
    const id = resourceId(resource);
    const registration = informer.addEventHandler({
      onAdd: (o) => this.changed(id, o),
      onUpdate: (_old, o) => this.changed(id, o),
      onDelete: (obj) => {
        const gone = deletedObject(obj);
        this.enqueueDependents(gone);
        this.enqueueOwners(gone);
      },
    });
    const client = clientFor(this.ctx.client, resource);
    this.monitors.set(id, { resource, informer, client, registration, waitUntil });
  }

  /** Stops following a resource (its informer is shared and stays with the factory). */
  private removeMonitor(id: string): void {
    this.monitors.get(id)?.registration.remove();
    this.monitors.delete(id);
  }

  private changed(id: string, obj: KubeObject): void {
    const meta = obj.metadata ?? {};
    const interesting =
      (meta.ownerReferences?.length ?? 0) > 0 ||
      (meta.deletionTimestamp && (meta.finalizers ?? []).some((f) => f === ORPHAN || f === FOREGROUND));
    if (interesting) this.queue.add(`${id}|${objectKey(obj)}`);
    if (meta.deletionTimestamp) {
      this.enqueueDependents(obj);
      this.enqueueOwners(obj);
    }
  }

  private resourceFor(ref: OwnerReference): DiscoveredResource | undefined {
    return resourceForKind(ref.apiVersion ?? '', ref.kind ?? '', this.discovered);
  }

  /** Owners waiting in the foreground for their dependents look again when one goes. */
  private enqueueOwners(obj: KubeObject): void {
    for (const ref of obj.metadata?.ownerReferences ?? []) {
      const resource = this.resourceFor(ref);
      if (!resource) continue;
      const namespace = resource.namespaced ? (obj.metadata?.namespace ?? '') : '';
      this.queue.add(`${resourceId(resource)}|${namespace ? `${namespace}/${ref.name}` : ref.name}`);
    }
  }

  /** Every object naming `owner` in its ownerReferences. */
  private dependentsOf(uid: string): { id: string; obj: KubeObject }[] {
    const out: { id: string; obj: KubeObject }[] = [];
    for (const [id, m] of this.monitors) {
      for (const obj of m.informer.indexer.byIndex(OWNER_UID_INDEX, uid)) out.push({ id, obj });
    }
    return out;
  }

  private enqueueDependents(owner: KubeObject): void {
    const uid = owner.metadata?.uid;
    if (!uid) return;
    for (const { id, obj } of this.dependentsOf(uid)) this.queue.add(`${id}|${objectKey(obj)}`);
  }

  /** Whether every monitor has listed once (or was given up waiting for). */
  private monitorsSynced(): boolean {
    const now = this.ctx.now();
    return [...this.monitors.values()].every((m) => m.informer.hasSynced() || now >= m.waitUntil);
  }

  protected async sync(key: string): Promise<void> {
    if (!this.monitorsSynced()) {
      this.enqueueAfter(key, MONITOR_SYNC_RETRY_MS);
      return;
    }
    const bar = key.indexOf('|');
    const monitor = this.monitors.get(key.slice(0, bar));
    if (!monitor) return;
    const obj = monitor.informer.indexer.getByKey(key.slice(bar + 1));
    if (!obj) return;
    const meta = obj.metadata ?? {};
    const finalizers = meta.finalizers ?? [];
    if (meta.deletionTimestamp && finalizers.includes(ORPHAN)) {
      await this.orphanDependents(monitor, obj);
      return;
    }
    if (meta.deletionTimestamp && finalizers.includes(FOREGROUND)) {
      await this.processDeletingDependents(monitor, obj);
      return;
    }
    await this.attemptToDelete(monitor, obj);
  }

  /**
   * Drops owner references by uid: a strategic merge patch, or where the resource refuses it (415,
   * custom resources) a JSON merge patch of the remaining references at the current resourceVersion.
   */
  private async removeOwnerReferences(
    monitor: Monitor,
    obj: KubeObject,
    uids: readonly string[],
  ): Promise<void> {
    const name = obj.metadata?.name ?? '';
    const namespace = obj.metadata?.namespace;
    try {
      await monitor.client.patch(name, 'strategic', removeOwnerReferencesPatch(obj, uids), { namespace });
    } catch (err) {
      if (!isUnsupportedMediaType(err)) throw err;
      const live = await monitor.client.get(name, { namespace });
      if (live.metadata?.uid !== obj.metadata?.uid) return;
      await monitor.client.patch(name, 'merge', removeOwnerReferencesMergePatch(live, uids), { namespace });
    }
  }

  /** Orphan propagation: drop the owner from its dependents, then the orphan finalizer. */
  private async orphanDependents(monitor: Monitor, owner: KubeObject): Promise<void> {
    const uid = owner.metadata?.uid ?? '';
    for (const { id, obj } of this.dependentsOf(uid)) {
      try {
        await this.removeOwnerReferences(this.monitors.get(id)!, obj, [uid]);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    await this.removeFinalizer(monitor, owner, ORPHAN);
  }

  /** Foreground propagation: once no blocking dependent is left, the owner may go. */
  private async processDeletingDependents(monitor: Monitor, owner: KubeObject): Promise<void> {
    const uid = owner.metadata?.uid ?? '';
    const dependents = this.dependentsOf(uid);
    const blocking = dependents.filter(({ obj }) =>
      (obj.metadata?.ownerReferences ?? []).some((r) => r.uid === uid && r.blockOwnerDeletion === true),
    );
    if (blocking.length === 0) {
      await this.removeFinalizer(monitor, owner, FOREGROUND);
      return;
    }
    for (const { id, obj } of dependents) this.queue.add(`${id}|${objectKey(obj)}`);
  }

  private async removeFinalizer(monitor: Monitor, obj: KubeObject, finalizer: string): Promise<void> {
    const finalizers = (obj.metadata?.finalizers ?? []).filter((f) => f !== finalizer);
    try {
      await monitor.client.patch(
        obj.metadata?.name ?? '',
        'merge',
        {
          metadata: {
            finalizers: finalizers.length ? finalizers : null,
            resourceVersion: obj.metadata?.resourceVersion,
          },
        },
        { namespace: obj.metadata?.namespace },
      );
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /**
   * The state of one owner: from the cache when there, else from a live read. An owner of a kind not
   * known (yet: a custom resource discovery has not reported) fails the sync, which is retried.
   */
  private async ownerState(obj: KubeObject, ref: OwnerReference): Promise<OwnerLookup> {
    const resource = this.resourceFor(ref);
    if (!resource) throw new UnknownOwnerKindError(ref);
    const namespace = resource.namespaced ? (obj.metadata?.namespace ?? '') : '';
    const monitor = this.monitors.get(resourceId(resource));
    let owner = monitor?.informer.indexer.getByKey(namespace ? `${namespace}/${ref.name}` : ref.name);
    if (!owner || owner.metadata?.uid !== ref.uid) {
      try {
        owner = await (monitor?.client ?? clientFor(this.ctx.client, resource)).get(ref.name, { namespace });
      } catch (err) {
        if (isNotFound(err)) return { uid: ref.uid, state: 'dangling' };
        throw err;
      }
    }
    if (owner.metadata?.uid !== ref.uid) return { uid: ref.uid, state: 'dangling' };
    if (owner.metadata?.deletionTimestamp && (owner.metadata.finalizers ?? []).includes(FOREGROUND)) {
      return { uid: ref.uid, state: 'waitingForDependentsDeletion' };
    }
    return { uid: ref.uid, state: 'solid' };
  }

  /** The dependent side: delete an object whose owners are all gone (attemptToDeleteItem). */
  private async attemptToDelete(monitor: Monitor, obj: KubeObject): Promise<void> {
    const refs = obj.metadata?.ownerReferences ?? [];
    if (refs.length === 0 || obj.metadata?.deletionTimestamp) return;
    const owners: OwnerLookup[] = [];
    for (const ref of refs) owners.push(await this.ownerState(obj, ref));
    const hasDependents = this.dependentsOf(obj.metadata?.uid ?? '').length > 0;
    const decision = decideDependent(owners, obj.metadata?.finalizers ?? [], hasDependents);
    const name = obj.metadata?.name ?? '';
    const namespace = obj.metadata?.namespace;
    try {
      if (decision.action === 'removeOwnerRefs') {
        await this.removeOwnerReferences(monitor, obj, decision.uids);
      } else if (decision.action === 'delete') {
        await monitor.client.delete(name, {
          namespace,
          propagationPolicy: decision.propagationPolicy,
          preconditions: { uid: obj.metadata?.uid },
        });
      }
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

const resourceId = (r: { group: string; resource: string }): string => `${r.group}/${r.resource}`;
const groupVersionOf = (r: DiscoveredResource): string => (r.group ? `${r.group}/${r.version}` : r.version);
const objectKey = (o: KubeObject): string =>
  o.metadata?.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : (o.metadata?.name ?? '');

/** The group/versions a partial discovery failed for. */
function failedGroupVersions(error: Error | undefined): Set<string> {
  return new Set(isGroupDiscoveryFailed(error) ? error.groups.keys() : []);
}
