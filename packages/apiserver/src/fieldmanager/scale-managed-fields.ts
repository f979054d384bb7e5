import { decodeManagedFields, encodeManagedFields, FieldPathSet } from '@orch/api';

/** One metadata.managedFields entry as it is stored. */
interface Entry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

/** The Scale's apiVersion: entries of the Scale view carry it. */
export const scaleAPIVersion = 'autoscaling/v1';

/** spec.replicas, the one field the scale subresource writes (the same path in the parent and the Scale). */
const replicasFields = { 'f:spec': { 'f:replicas': {} } };
const replicasSet = (): FieldPathSet => FieldPathSet.fromFieldsV1(replicasFields);

function entriesOf(value: unknown): Entry[] {
  return Array.isArray(value)
    ? value.filter((e): e is Entry => typeof e === 'object' && e !== null && !Array.isArray(e))
    : [];
}

function setOf(entry: Entry): FieldPathSet | undefined {
  try {
    return FieldPathSet.fromFieldsV1(entry.fieldsV1 ?? {});
  } catch {
    return undefined;
  }
}

function ownsReplicas(entry: Entry): boolean {
  const set = setOf(entry);
  return set !== undefined && !set.intersection(replicasSet()).empty();
}

/** The same writer on both sides: an entry's identity without its apiVersion (which the mapping changes). */
function writerKey(entry: Entry): string {
  return JSON.stringify([entry.manager ?? '', entry.operation ?? '', entry.subresource ?? '']);
}

/** Sorts entries in Kubernetes' order and drops empty ones, through the shared encoder. */
function normalized(entries: Entry[]): Entry[] {
  try {
    return encodeManagedFields(decodeManagedFields(entries));
  } catch {
    return entries;
  }
}

/**
 * The managedFields of the Scale view of a parent (Kubernetes' ScaleHandler.ToSubresource): every parent
 * entry owning spec.replicas becomes an entry of the same writer owning the Scale's spec.replicas, under
 * the Scale's apiVersion; entries that do not own it are left out.
 */
export function scaleManagedFields(parentEntries: unknown): Entry[] {
  return entriesOf(parentEntries)
    .filter(ownsReplicas)
    .map((e) => ({ ...e, apiVersion: scaleAPIVersion, fieldsType: 'FieldsV1', fieldsV1: replicasFields }));
}

/**
 * The parent's managedFields after a write through the scale subresource (Kubernetes'
 * ScaleHandler.ToParent): parent entries that do not own spec.replicas are kept; those that own it keep
 * it only when their writer still owns it in the Scale, otherwise it is taken from them (an entry left
 * empty is dropped); Scale writers owning spec.replicas that the parent does not list yet are added, owning
 * spec.replicas under `parentAPIVersion`.
 */
export function parentManagedFields(
  parentEntries: unknown,
  scaleEntries: unknown,
  parentAPIVersion: string,
): Entry[] {
  const owners = new Map<string, Entry>();
  for (const e of entriesOf(scaleEntries)) if (ownsReplicas(e)) owners.set(writerKey(e), e);
  const out: Entry[] = [];
  for (const e of entriesOf(parentEntries)) {
    const set = setOf(e);
    if (set === undefined || set.intersection(replicasSet()).empty()) {
      out.push(e);
      continue;
    }
    if (owners.delete(writerKey(e))) {
      out.push(e);
      continue;
    }
    const rest = set.difference(replicasSet());
    if (!rest.empty()) out.push({ ...e, fieldsV1: rest.toFieldsV1() });
  }
  for (const e of owners.values()) {
    const added: Entry = {
      manager: e.manager ?? '',
      operation: e.operation ?? '',
      apiVersion: parentAPIVersion,
      fieldsType: 'FieldsV1',
      fieldsV1: replicasFields,
    };
    if (e.time !== undefined) added.time = e.time;
    if (e.subresource) added.subresource = e.subresource;
    out.push(added);
  }
  return normalized(out);
}
