import type { TSchema } from '@sinclair/typebox';
import { patchNodeOf, type PatchNode } from '../patch/patch-meta';
import { isMap, type JsonMap } from '../patch/json-value';
import { ApplyConflictError, type FieldConflict } from './apply-conflict-error';
import { compareObjects, type Comparison } from './compare';
import type { FieldPathSet } from './field-set';
import {
  capUpdateManagers,
  decodeManagedFields,
  encodeManagedFields,
  identityKey,
  ManagedFieldsError,
  rfc3339Seconds,
  type Managed,
  type ManagerIdentity,
} from './managed-fields';
import { TypedValueError } from './list-items';
import { ManagedSet } from './managed-set';
import { mergeApplied } from './merge';
import { fieldElement } from './path-element';
import { removeItems } from './remove-items';
import { toFieldSet } from './to-field-set';

/** An object in its JSON form, as the field manager reads and writes it. */
export type ManagedObject = JsonMap & { metadata?: JsonMap };

/** An apply request the field manager refuses (Kubernetes answers 400 Bad Request). */
export class ApplyRequestError extends Error {}

export interface FieldManagerOptions {
  /**
   * The kind has a status subresource: writes to the main resource never own status, writes to the
   * status subresource own nothing but status.
   */
  statusSubresource?: boolean;
}

/** Fields no manager owns: identity and system metadata. */
const strippedMetadata = [
  'name',
  'namespace',
  'creationTimestamp',
  'selfLink',
  'uid',
  'clusterName',
  'generation',
  'managedFields',
  'resourceVersion',
].map(fieldElement);

const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';
const apiVersionElement = fieldElement('apiVersion');
const kindElement = fieldElement('kind');
const metadataElement = fieldElement('metadata');
const statusElement = fieldElement('status');

/**
 * Tracks field ownership in metadata.managedFields for one kind and performs server-side apply
 * (Kubernetes' FieldManager over structured-merge-diff), driven by the kind's merge metadata.
 */
export class FieldManager {
  private readonly root: PatchNode;

  constructor(
    schema: TSchema,
    private readonly options: FieldManagerOptions = {},
  ) {
    this.root = patchNodeOf(schema);
  }

  /**
   * Records an Update operation by `manager`: the fields the write changes move to the manager's
   * Update entry. Sets `obj.metadata.managedFields` in place. A managedFields list holding one empty
   * entry clears ownership first; other managedFields sent with the write are taken as given.
   */
  update(
    live: ManagedObject | undefined,
    obj: ManagedObject,
    manager: string,
    apiVersion: string,
    subresource = '',
    now = new Date(),
  ): void {
    const meta = metadataOf(obj);
    let managed: Managed;
    try {
      managed = this.managedForUpdate(live, meta.managedFields, subresource);
    } catch (e) {
      if (!(e instanceof ManagedFieldsError)) throw e;
      // unreadable ownership is dropped rather than kept half-valid
      delete meta.managedFields;
      return;
    }
    let cmp: Comparison;
    try {
      cmp = this.compare(live, obj, subresource);
    } catch (e) {
      if (!(e instanceof TypedValueError)) throw e;
      // an object its declaration cannot describe (duplicate keys): validation refuses it later
      delete meta.managedFields;
      return;
    }
    const changed = changedFields(cmp);
    if (!changed.empty() || !cmp.removed.empty()) {
      const id: ManagerIdentity = { manager, operation: 'Update', apiVersion, subresource };
      const key = identityKey(id);
      // the manager's own entry takes the changed fields back: it only gives up the removed ones
      for (const [k, m] of managed) {
        if (k === key) m.release(cmp.removed);
        else m.release(changed, cmp.removed);
      }
      if (!changed.empty()) {
        const previous = managed.get(key);
        const time = rfc3339Seconds(now);
        if (previous) {
          previous.take(changed);
          previous.time = time;
        } else {
          managed.set(key, ManagedSet.of(id, changed, time));
        }
      }
    }
    writeManaged(meta, managed);
  }

  /**
   * Server-side apply: merges the applied configuration into the live object (or an empty one),
   * removes what the manager applied before and now omits unless another manager owns it, records the
   * manager's Apply entry and returns the new object. Throws ApplyConflictError when the apply changes
   * fields other managers own, unless forced (ownership then moves to the applier).
   */
  apply(
    live: ManagedObject | undefined,
    applied: ManagedObject,
    manager: string,
    apiVersion: string,
    force: boolean,
    subresource = '',
    now = new Date(),
  ): ManagedObject {
    if (isMap(applied.metadata) && applied.metadata.managedFields !== undefined) {
      throw new ApplyRequestError('metadata.managedFields must be nil');
    }
    if (applied.apiVersion !== apiVersion) {
      throw new ApplyRequestError(
        `Incorrect version specified in apply patch. Specified patch version: ${String(applied.apiVersion ?? '')}, expected: ${apiVersion}`,
      );
    }
    let managed: Managed;
    try {
      managed = decodeManagedFields(live?.metadata?.managedFields);
    } catch (e) {
      if (!(e instanceof ManagedFieldsError)) throw e;
      managed = new Map();
    }
    const liveObj = withoutManagedFields(live) ?? {};
    const config = this.configFor(applied, subresource);
    let merged = mergeApplied(liveObj, config, this.root) as ManagedObject;
    const id: ManagerIdentity = { manager, operation: 'Apply', apiVersion, subresource };
    const key = identityKey(id);
    const last = managed.get(key);
    const configSet = this.strip(toFieldSet(config, this.root, true), subresource);
    // an unchanged set keeps its entry (written back as it was read)
    const unchangedSet = last !== undefined && last.sameAs(configSet);
    const applying = unchangedSet ? last : ManagedSet.of(id, configSet, last?.time);
    managed.set(key, applying);
    // pruning removes what the manager applied before and omits now: nothing when it omits nothing
    if (last && !unchangedSet && !last.empty() && !last.within(configSet))
      merged = this.prune(merged, managed, last.set);

    const cmp = this.compareStripped(liveObj, merged, subresource);
    const changed = changedFields(cmp);
    const conflicts: FieldConflict[] = [];
    const others = [...managed.entries()].filter(([k]) => k !== key).map(([, m]) => m);
    if (!changed.empty()) {
      for (const m of others) {
        if (!m.intersects(changed)) continue;
        const overlap = m.set.intersection(changed);
        if (!overlap.empty()) for (const path of overlap.paths()) conflicts.push({ manager: m, path });
      }
    }
    if (conflicts.length && !force && manager === 'kubectl') {
      // kubectl moving from client-side to server-side apply takes over what it applied before
      const allowed = this.unchangedSinceLastApplied(liveObj, apiVersion);
      if (allowed) {
        const remaining = conflicts.filter((c) => !allowed.has(c.path));
        conflicts.length = 0;
        conflicts.push(...remaining);
      }
    }
    if (conflicts.length && !force) {
      conflicts.sort((a, b) => (identityKey(a.manager) < identityKey(b.manager) ? -1 : 1));
      throw new ApplyConflictError(
        conflicts.map((c) => ({
          manager: {
            manager: c.manager.manager,
            operation: c.manager.operation,
            apiVersion: c.manager.apiVersion,
            subresource: c.manager.subresource,
          },
          path: c.path,
        })),
      );
    }
    if (!changed.empty() || !cmp.removed.empty()) {
      for (const m of others) m.release(changed, cmp.removed);
    }
    if (applying.time === undefined || !changed.empty() || !cmp.removed.empty()) {
      applying.time = rfc3339Seconds(now);
    }
    const meta = { ...metadataOf(merged) };
    merged = { ...merged, metadata: meta };
    writeManaged(meta, managed);
    if (manager === 'kubectl') syncLastApplied(meta, applied);
    return merged;
  }

  /**
   * The fields of the client-side apply annotation whose live values are still the applied ones
   * (Kubernetes' last-applied manager); undefined when there is no usable annotation.
   */
  private unchangedSinceLastApplied(live: ManagedObject, apiVersion: string): FieldPathSet | undefined {
    const annotations = live.metadata?.annotations;
    const text = isMap(annotations) ? annotations[lastAppliedAnnotation] : undefined;
    if (typeof text !== 'string' || text === '') return undefined;
    try {
      const lastApplied = JSON.parse(text) as unknown;
      if (!isMap(lastApplied) || lastApplied.apiVersion !== apiVersion) return undefined;
      const cmp = compareObjects(lastApplied, live, this.root);
      return toFieldSet(lastApplied, this.root)
        .difference(cmp.modified)
        .difference(cmp.added)
        .difference(cmp.removed);
    } catch {
      return undefined;
    }
  }

  private managedForUpdate(live: ManagedObject | undefined, given: unknown, subresource: string): Managed {
    if (isResetRequest(given)) return new Map();
    if (!subresource) {
      try {
        const decoded = decodeManagedFields(given);
        if (decoded.size) return decoded;
      } catch (e) {
        if (!(e instanceof ManagedFieldsError)) throw e;
      }
    }
    return decodeManagedFields(live?.metadata?.managedFields);
  }

  /** The applied configuration without the fields this write path does not own (reset fields). */
  private configFor(applied: ManagedObject, subresource: string): ManagedObject {
    if (!this.options.statusSubresource) return applied;
    if (subresource === 'status') {
      const config: ManagedObject = { apiVersion: applied.apiVersion, kind: applied.kind };
      if (applied.metadata !== undefined) config.metadata = applied.metadata;
      if (applied.status !== undefined) config.status = applied.status;
      return config;
    }
    if (subresource === '' && applied.status !== undefined) {
      const { status: _status, ...rest } = applied;
      return rest;
    }
    return applied;
  }

  private compare(live: ManagedObject | undefined, obj: ManagedObject, subresource: string): Comparison {
    return this.compareStripped(withoutManagedFields(live) ?? {}, withoutManagedFields(obj)!, subresource);
  }

  private compareStripped(live: ManagedObject, obj: ManagedObject, subresource: string): Comparison {
    const cmp = compareObjects(live, obj, this.root);
    this.strip(cmp.added, subresource);
    this.strip(cmp.modified, subresource);
    this.strip(cmp.removed, subresource);
    return cmp;
  }

  /** Removes the fields no manager owns through this write path. */
  private strip(set: FieldPathSet, subresource: string): FieldPathSet {
    set.removeElement(apiVersionElement);
    set.removeElement(kindElement);
    set.deleteMember(metadataElement);
    const meta = set.childIfAny(metadataElement);
    if (meta) for (const pe of strippedMetadata) meta.removeElement(pe);
    if (this.options.statusSubresource) {
      if (subresource === 'status') {
        for (const path of set.paths()) if (path[0] !== statusElement) set.removeElement(path[0]!);
      } else if (subresource === '') {
        set.removeElement(statusElement);
      }
    }
    return set;
  }

  /**
   * Removes the list items and map entries the manager applied before and omits now, keeping those
   * another manager (or the new configuration) owns and those the manager never owned.
   */
  private prune(merged: ManagedObject, managed: Managed, last: FieldPathSet): ManagedObject {
    const root = this.root;
    const firstPass = removeItems(merged, last, root);
    let owned: FieldPathSet | undefined;
    for (const m of managed.values()) owned = owned ? owned.union(m.set) : m.set.copy();
    const mergedSet = toFieldSet(merged, root);
    const ownedBack = removeItems(
      merged,
      mergedSet.difference(toFieldSet(firstPass, root).union(owned!)),
      root,
    );
    const dangling = mergedSet.difference(toFieldSet(ownedBack, root)).intersection(last);
    return removeItems(merged, dangling, root) as ManagedObject;
  }
}

/** The fields a write sets (modified or added); one of the comparison's own sets when the other is empty. */
function changedFields(cmp: Comparison): FieldPathSet {
  if (cmp.modified.empty()) return cmp.added;
  if (cmp.added.empty()) return cmp.modified;
  return cmp.modified.union(cmp.added);
}

function metadataOf(obj: ManagedObject): JsonMap {
  if (!isMap(obj.metadata)) obj.metadata = {};
  return obj.metadata;
}

function withoutManagedFields(obj: ManagedObject | undefined): ManagedObject | undefined {
  if (obj === undefined) return undefined;
  if (!isMap(obj.metadata) || obj.metadata.managedFields === undefined) return obj;
  const { managedFields: _mf, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/** A managedFields list holding a single empty entry: a request to clear ownership. */
function isResetRequest(given: unknown): boolean {
  if (!Array.isArray(given) || given.length !== 1) return false;
  const entry: unknown = given[0];
  if (!isMap(entry)) return false;
  for (const k in entry) {
    const v = entry[k];
    if (v !== undefined && v !== null && v !== '') return false;
  }
  return true;
}

/**
 * kubectl's server-side apply keeps an existing client-side apply annotation in step with what it
 * applied, so a later client-side apply diffs against it (Kubernetes' last-applied updater).
 */
function syncLastApplied(meta: JsonMap, applied: ManagedObject): void {
  const annotations = meta.annotations;
  if (!isMap(annotations) || typeof annotations[lastAppliedAnnotation] !== 'string') return;
  const config: JsonMap = { ...applied };
  if (isMap(applied.metadata) && isMap(applied.metadata.annotations)) {
    const { [lastAppliedAnnotation]: _own, ...rest } = applied.metadata.annotations;
    config.metadata = { ...applied.metadata, annotations: rest };
  }
  meta.annotations = { ...annotations, [lastAppliedAnnotation]: JSON.stringify(config) };
}

function writeManaged(meta: JsonMap, managed: Managed): void {
  capUpdateManagers(managed);
  const entries = encodeManagedFields(managed);
  if (entries.length) meta.managedFields = entries;
  else delete meta.managedFields;
}
