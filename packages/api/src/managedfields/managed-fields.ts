import { FieldsV1Error, type FieldsV1 } from './field-set';
import { ManagedSet } from './managed-set';

export type ManagedFieldsOperation = 'Apply' | 'Update';

/** One entry of metadata.managedFields. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: FieldsV1;
  subresource?: string;
}

/** Who owns a set of fields: one entry per (manager, operation, apiVersion, subresource). */
export interface ManagerIdentity {
  manager: string;
  /** Apply or Update (entries written by clients are kept as given and left to validation). */
  operation: ManagedFieldsOperation | string;
  apiVersion: string;
  subresource: string;
}

/** The managed fields of an object, keyed by manager identity. */
export type Managed = Map<string, ManagedSet>;

/** The identity key of an entry (Kubernetes encodes it as JSON of the entry without time and fields). */
export function identityKey(id: ManagerIdentity): string {
  return JSON.stringify([id.manager, id.operation, id.apiVersion, id.subresource]);
}

/** A managedFields list that cannot be read. */
export class ManagedFieldsError extends Error {}

/** Reads metadata.managedFields; throws ManagedFieldsError when an entry is malformed. */
export function decodeManagedFields(entries: unknown): Managed {
  const out: Managed = new Map();
  if (entries === undefined || entries === null) return out;
  if (!Array.isArray(entries)) throw new ManagedFieldsError('managedFields must be a list');
  for (const raw of entries) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new ManagedFieldsError('managedFields entries must be objects');
    }
    const e = raw as ManagedFieldsEntry;
    if (e.fieldsType !== 'FieldsV1') {
      throw new ManagedFieldsError(`invalid fieldsType: ${JSON.stringify(e.fieldsType ?? '')}`);
    }
    const id: ManagerIdentity = {
      manager: e.manager ?? '',
      operation: e.operation ?? '',
      apiVersion: e.apiVersion ?? '',
      subresource: e.subresource ?? '',
    };
    let m: ManagedSet;
    try {
      m = ManagedSet.read(id, e.fieldsV1 ?? {}, e.time);
    } catch (err) {
      if (err instanceof FieldsV1Error)
        throw new ManagedFieldsError(`error decoding fieldsV1: ${err.message}`);
      throw err;
    }
    const key = identityKey(id);
    if (out.has(key)) throw new ManagedFieldsError(`duplicate managedFields entry for ${key}`);
    out.set(key, m);
  }
  return out;
}

function seconds(time: string | undefined): number {
  if (!time) return 0;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Writes managed fields in Kubernetes' order: Apply before Update, then by time, manager, apiVersion
 * and subresource. Empty sets are left out.
 */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] {
  const sets = [...managed.values()].filter((m) => !m.empty());
  sets.sort(
    (p, q) =>
      compare(p.operation, q.operation) ||
      seconds(p.time) - seconds(q.time) ||
      compare(p.manager, q.manager) ||
      compare(p.apiVersion, q.apiVersion) ||
      compare(p.subresource, q.subresource),
  );
  return sets.map((m) => {
    const entry: ManagedFieldsEntry = {
      manager: m.manager,
      operation: m.operation,
      apiVersion: m.apiVersion,
    };
    if (m.time !== undefined) entry.time = m.time;
    entry.fieldsType = 'FieldsV1';
    entry.fieldsV1 = m.toFieldsV1();
    if (m.subresource) entry.subresource = m.subresource;
    return entry;
  });
}

/** How a conflict names its manager (`"kubectl"`, `"kubectl-edit" using apps/v1`, with subresources). */
export function printManager(id: ManagerIdentity): string {
  let out = JSON.stringify(id.manager);
  if (id.subresource) out += ` with subresource ${JSON.stringify(id.subresource)}`;
  if (id.operation === 'Update') out += ` using ${id.apiVersion}`;
  return out;
}

/** RFC 3339 with second precision, as Kubernetes writes metav1.Time. */
export function rfc3339Seconds(now: Date): string {
  const second = Math.floor(now.getTime() / 1000);
  if (second !== lastSecond.second) {
    // toISOString always ends in `.sssZ`
    const iso = now.toISOString();
    lastSecond = { second, text: iso.slice(0, iso.length - 5) + 'Z' };
  }
  return lastSecond.text;
}

/** The last second {@link rfc3339Seconds} wrote: every write within it records the same time. */
let lastSecond = { second: NaN, text: '' };

/** At most this many Update entries are kept; older ones fold into `ancient-changes` per apiVersion. */
export const maxUpdateManagers = 10;
const ancientChanges = 'ancient-changes';

/**
 * Caps the Update entries as Kubernetes does: while there are more than ten, the oldest are merged,
 * per apiVersion, into an `ancient-changes` entry carrying the time of the newest one merged.
 */
export function capUpdateManagers(managed: Managed): void {
  const updaters = [...managed.entries()].filter(([, m]) => m.operation !== 'Apply');
  if (updaters.length <= maxUpdateManagers) return;
  updaters.sort(([, a], [, b]) => seconds(a.time) - seconds(b.time));
  const firstByVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > maxUpdateManagers; i++) {
    const [key, m] = updaters[i]!;
    const bucketId: ManagerIdentity = {
      manager: ancientChanges,
      operation: 'Update',
      apiVersion: m.apiVersion,
      subresource: '',
    };
    const bucketKey = identityKey(bucketId);
    const first = firstByVersion.get(m.apiVersion);
    if (first === undefined) {
      firstByVersion.set(m.apiVersion, key);
      continue;
    }
    let bucket = managed.get(bucketKey);
    if (bucket === undefined) {
      const firstSet = managed.get(first)!;
      managed.delete(first);
      bucket = ManagedSet.of(bucketId, firstSet.set, firstSet.time);
      managed.set(bucketKey, bucket);
    }
    bucket.replace(m.set.union(bucket.set));
    bucket.time = m.time;
    managed.delete(key);
    length--;
  }
}
