import type { RESTMapping } from '@orch/api';
import {
  clientFor,
  isNotFound,
  type KubeObject,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { type ControllerContext, deletedObject, QueueController } from '@orch/component-base';
import { deletableResources, descriptorOf, mappingForKind } from '../controller/discovery';
import { decideDependent, type OwnerLookup } from './ownerClassification';
import { removeOwnerReferencesPatch } from './removeOwnerReferencesPatch';

type OwnerReference = NonNullable<NonNullable<KubeObject['metadata']>['ownerReferences']>[number];

const OWNER_UID_INDEX = 'ownerUID';
const ORPHAN = 'orphan';
const FOREGROUND = 'foregroundDeletion';

interface Monitor {
  mapping: RESTMapping;
  informer: SharedIndexInformer<KubeObject>;
  client: TypedClient<KubeObject>;
}

/**
 * Deletes objects whose owners are gone, following ownerReferences across every resource the API
 * serves: Background (dependents of deleted owners), Foreground (an owner with the
 * foregroundDeletion finalizer waits for its blocking dependents) and Orphan (dependents lose the
 * reference, then the owner its orphan finalizer). Queue keys are `<group>/<resource>|<ns>/<name>`.
 */
export class GarbageCollector extends QueueController {
  private readonly monitors = new Map<string, Monitor>();

  constructor(ctx: ControllerContext) {
    super('garbagecollector', ctx);
    for (const mapping of deletableResources()) {
      const informer = ctx.informers.informerFor<KubeObject>(descriptorOf(mapping));
      informer.addIndexers({
        [OWNER_UID_INDEX]: (o) => (o.metadata?.ownerReferences ?? []).map((r) => r.uid),
      });
      const id = monitorId(mapping);
      this.monitors.set(id, { mapping, informer, client: clientFor(ctx.client, mapping) });
      informer.addEventHandler({
        onAdd: (o) => this.changed(id, o),
        onUpdate: (_old, o) => this.changed(id, o),
        onDelete: (obj) => {
          const gone = deletedObject(obj);
          this.enqueueDependents(gone);
          this.enqueueOwners(gone);
        },
      });
    }
    this.run([...this.monitors.values()].map((m) => m.informer));
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

  /** Owners waiting in the foreground for their dependents look again when one goes. */
  private enqueueOwners(obj: KubeObject): void {
    for (const ref of obj.metadata?.ownerReferences ?? []) {
      const mapping = mappingForKind(ref.apiVersion ?? '', ref.kind ?? '');
      if (!mapping) continue;
      const namespace = mapping.namespaced ? (obj.metadata?.namespace ?? '') : '';
      this.queue.add(`${monitorId(mapping)}|${namespace ? `${namespace}/${ref.name}` : ref.name}`);
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

  protected async sync(key: string): Promise<void> {
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

  /** Orphan propagation: drop the owner from its dependents, then the orphan finalizer. */
  private async orphanDependents(monitor: Monitor, owner: KubeObject): Promise<void> {
    const uid = owner.metadata?.uid ?? '';
    for (const { id, obj } of this.dependentsOf(uid)) {
      try {
        await this.monitors
          .get(id)!
          .client.patch(obj.metadata?.name ?? '', 'strategic', removeOwnerReferencesPatch(obj, [uid]), {
            namespace: obj.metadata?.namespace,
          });
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

  /** The state of one owner: from the cache when there, else from a live read. */
  private async ownerState(obj: KubeObject, ref: OwnerReference): Promise<OwnerLookup> {
    const mapping = mappingForKind(ref.apiVersion, ref.kind);
    if (!mapping) return { uid: ref.uid, state: 'solid' };
    const namespace = mapping.namespaced ? (obj.metadata?.namespace ?? '') : '';
    const monitor = this.monitors.get(monitorId(mapping));
    let owner = monitor?.informer.indexer.getByKey(namespace ? `${namespace}/${ref.name}` : ref.name);
    if (!owner || owner.metadata?.uid !== ref.uid) {
      try {
        owner = await (monitor?.client ?? clientFor(this.ctx.client, mapping)).get(ref.name, { namespace });
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
        await monitor.client.patch(name, 'strategic', removeOwnerReferencesPatch(obj, decision.uids), {
          namespace,
        });
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

const monitorId = (m: RESTMapping): string => `${m.gvr.group}/${m.gvr.resource}`;
const objectKey = (o: KubeObject): string =>
  o.metadata?.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : (o.metadata?.name ?? '');
