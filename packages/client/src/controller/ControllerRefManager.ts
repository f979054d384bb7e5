import { isInvalid, isNotFound } from '../rest/StatusError';
import type { TypedClient } from '../typed/TypedClient';
import type { KubeObject } from '../types';
import type { LabelsSelector, OwnerReference } from '@orch/api';

/** The owner reference with controller=true, if any. */
export function getControllerOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller === true);
}

/** The controller reference a controller sets on what it owns. */
export function newControllerRef(
  owner: KubeObject,
  gvk: { apiVersion: string; kind: string },
): OwnerReference {
  return {
    apiVersion: gvk.apiVersion,
    kind: gvk.kind,
    name: owner.metadata?.name ?? '',
    uid: owner.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * A check run once before the first adoption: re-reads the controller from the API server (not a
 * cache) and refuses when it was replaced (other UID) or is being deleted.
 */
export function recheckDeletionTimestamp(
  getFresh: () => Promise<KubeObject>,
  uid: string,
): () => Promise<void> {
  return async () => {
    const fresh = await getFresh();
    if (fresh.metadata?.uid !== uid) {
      throw new Error(
        `original ${fresh.metadata?.namespace}/${fresh.metadata?.name} is gone: got uid ${fresh.metadata?.uid}, wanted ${uid}`,
      );
    }
    if (fresh.metadata?.deletionTimestamp) {
      throw new Error(
        `${fresh.metadata.namespace}/${fresh.metadata.name} has just been deleted at ${fresh.metadata.deletionTimestamp}`,
      );
    }
  };
}

export interface ControllerRefManagerOptions<T extends KubeObject> {
  /** The controller (ReplicaSet, Job, ...): name, namespace and uid are used. */
  controller: KubeObject;
  /** apiVersion and kind of the controller, written into the owner references. */
  controllerKind: { apiVersion: string; kind: string };
  /** The controller's selector: matching objects are claimed, others released. */
  selector: LabelsSelector;
  /** Client of the owned kind, used to patch owner references. */
  client: TypedClient<T>;
  /** Checked once before the first adoption (see recheckDeletionTimestamp). */
  canAdopt?: () => Promise<void>;
}

/**
 * Claims objects for a controller as kube-controller-manager's ControllerRefManager does: keeps
 * owned objects that match, adopts matching orphans, releases owned objects that no longer match;
 * objects controlled by others are left alone. Owner references are changed with JSON patches that
 * test the object's UID (and, on release, the reference's position), so a replaced object or a
 * concurrent change makes the patch fail rather than write the wrong thing.
 */
export class ControllerRefManager<T extends KubeObject> {
  private adoptCheck: Promise<void> | undefined;

  constructor(private readonly opts: ControllerRefManagerOptions<T>) {}

  private get controllerUID(): string {
    return this.opts.controller.metadata?.uid ?? '';
  }

  /** The objects the controller owns after claiming; rejects with an AggregateError when some patches failed. */
  async claim(objects: T[], ...filters: ((obj: T) => boolean)[]): Promise<T[]> {
    const match = (obj: T): boolean =>
      this.opts.selector.matches(obj.metadata?.labels ?? {}) && filters.every((f) => f(obj));
    const claimed: T[] = [];
    const errors: unknown[] = [];
    for (const obj of objects) {
      try {
        if (await this.claimObject(obj, match)) {
          claimed.push(obj);
        }
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length > 0) {
      throw new AggregateError(
        errors,
        errors.map((e) => (e instanceof Error ? e.message : String(e))).join(', '),
      );
    }
    return claimed;
  }

  private async claimObject(obj: T, match: (obj: T) => boolean): Promise<boolean> {
    const controller = this.opts.controller;
    const ref = getControllerOf(obj);
    if (ref) {
      if (ref.uid !== this.controllerUID) {
        return false;
      }
      if (match(obj)) {
        return true;
      }
      if (controller.metadata?.deletionTimestamp) {
        return false;
      }
      await this.release(obj);
      return false;
    }
    if (controller.metadata?.deletionTimestamp || !match(obj) || obj.metadata?.deletionTimestamp) {
      return false;
    }
    const ns = controller.metadata?.namespace;
    if (ns && ns !== obj.metadata?.namespace) {
      return false;
    }
    try {
      await this.adopt(obj);
    } catch (err) {
      if (isNotFound(err)) {
        return false;
      }
      throw err;
    }
    return true;
  }

  /** Makes the controller the controlling owner of an orphan. */
  async adopt(obj: T): Promise<void> {
    if (this.opts.canAdopt) {
      this.adoptCheck ??= this.opts.canAdopt();
      try {
        await this.adoptCheck;
      } catch (err) {
        throw new Error(
          `can't adopt ${this.opts.client.declaration?.kind ?? 'object'} ${obj.metadata?.namespace}/${obj.metadata?.name} (${obj.metadata?.uid}): ${(err as Error).message}`,
          { cause: err },
        );
      }
    }
    const ref = newControllerRef(this.opts.controller, this.opts.controllerKind);
    const refs = obj.metadata?.ownerReferences;
    const patch = [
      { op: 'test', path: '/metadata/uid', value: obj.metadata?.uid },
      refs
        ? { op: 'add', path: '/metadata/ownerReferences/-', value: ref }
        : { op: 'add', path: '/metadata/ownerReferences', value: [ref] },
    ];
    await this.opts.client.patch(obj.metadata?.name ?? '', 'json', patch, {
      namespace: obj.metadata?.namespace,
    });
  }

  /** Removes the controller's owner reference; a vanished or already changed object is ignored. */
  async release(obj: T): Promise<void> {
    const index = (obj.metadata?.ownerReferences ?? []).findIndex((r) => r.uid === this.controllerUID);
    if (index < 0) {
      return;
    }
    const patch = [
      { op: 'test', path: '/metadata/uid', value: obj.metadata?.uid },
      { op: 'test', path: `/metadata/ownerReferences/${index}/uid`, value: this.controllerUID },
      { op: 'remove', path: `/metadata/ownerReferences/${index}` },
    ];
    try {
      await this.opts.client.patch(obj.metadata?.name ?? '', 'json', patch, {
        namespace: obj.metadata?.namespace,
      });
    } catch (err) {
      // Gone, or no longer carrying the reference where we saw it: nothing to release.
      if (isNotFound(err) || isInvalid(err)) {
        return;
      }
      throw err;
    }
  }
}
