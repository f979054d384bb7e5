import {
  isQualifiedName,
  isValidLabelValue,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  TOTAL_ANNOTATION_SIZE_LIMIT_BYTES,
  annotationsSize,
} from '../util/names';
import { child, forbidden, goStringSlice, invalid, required, tooLong, type FieldError } from './field-error';
import { FIELD_IMMUTABLE, semanticEqual } from './immutable';
import { memoizeCheck } from './memo-check';

/**
 * ObjectMeta rules as Kubernetes' ValidateObjectMeta / ValidateObjectMetaUpdate apply them, with
 * Kubernetes' paths and messages.
 */

/** Validates an object name (`prefix` true for generateName); Kubernetes' ValidateNameFunc. */
export type NameValidator = (name: string, prefix: boolean) => readonly string[];

export interface ObjectMetaOptions {
  /** Namespaced kinds require metadata.namespace; cluster-scoped kinds forbid it. */
  namespaced: boolean;
  /** Name rule of the kind; RFC 1123 subdomain (most kinds) when not given. */
  nameValidation?: NameValidator;
}

type Meta = Record<string, unknown>;

// Label keys and values, and annotation keys, recur across objects.
const qualifiedNameErrors = memoizeCheck(isQualifiedName);
const labelValueErrors = memoizeCheck(isValidLabelValue);

// with the API server's own finalizer of CustomResourceDefinitions, which apiextensions' generic
// metadata validation accepts
const standardFinalizers = new Set([
  'kubernetes',
  'orphan',
  'foregroundDeletion',
  'customresourcecleanup.apiextensions.k8s.io',
]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Label keys must be qualified names and values label values: `metadata.labels: Invalid value: "x": ...`. */
export function validateLabels(labels: unknown, path: string, out: FieldError[] = []): FieldError[] {
  if (!isObject(labels)) return out;
  for (const k in labels) {
    for (const msg of qualifiedNameErrors(k)) out.push(invalid(path, k, msg));
    const v = labels[k];
    if (typeof v === 'string') for (const msg of labelValueErrors(v)) out.push(invalid(path, v, msg));
  }
  return out;
}

/** Annotation keys must be qualified names (checked lower-cased); all of them take at most 256 KiB. */
export function validateAnnotations(
  annotations: unknown,
  path: string,
  out: FieldError[] = [],
): FieldError[] {
  if (!isObject(annotations)) return out;
  let chars = 0;
  for (const k in annotations) {
    for (const msg of qualifiedNameErrors(k.toLowerCase())) out.push(invalid(path, k, msg));
    const v = annotations[k];
    chars += k.length + (typeof v === 'string' ? v.length : 0);
  }
  // A UTF-16 code unit takes at most 3 bytes in UTF-8: the exact size is needed only near the limit.
  if (
    chars * 3 > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES &&
    annotationsSize(annotations as Record<string, string>) > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES
  ) {
    out.push(tooLong(path, '', TOTAL_ANNOTATION_SIZE_LIMIT_BYTES));
  }
  return out;
}

function parseGroupVersion(apiVersion: string): { group: string; version: string } | undefined {
  if (apiVersion === '') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return undefined;
}

/** Owner references: apiVersion, kind, name and uid set, no Event owner, at most one controller. */
export function validateOwnerReferences(refs: unknown, path: string, out: FieldError[] = []): FieldError[] {
  if (!Array.isArray(refs)) return out;
  const controllers: string[] = [];
  refs.forEach((ref: unknown, i) => {
    if (!isObject(ref)) return;
    const p = child(path, i);
    const apiVersion = str(ref.apiVersion);
    const kind = str(ref.kind);
    const gv = parseGroupVersion(apiVersion);
    if (apiVersion === '' || gv === undefined || gv.version === '') {
      out.push(invalid(child(p, 'apiVersion'), apiVersion, 'version must not be empty'));
    }
    if (kind === '') out.push(invalid(child(p, 'kind'), kind, 'kind must not be empty'));
    if (str(ref.name) === '') out.push(invalid(child(p, 'name'), str(ref.name), 'name must not be empty'));
    if (str(ref.uid) === '') out.push(invalid(child(p, 'uid'), str(ref.uid), 'uid must not be empty'));
    if (gv !== undefined && gv.group === '' && gv.version === 'v1' && kind === 'Event') {
      out.push(invalid(p, ref, '/v1, Kind=Event is disallowed from being an owner'));
    }
    if (ref.controller === true) controllers.push(`${kind}/${str(ref.name)}`);
  });
  if (controllers.length > 1) {
    out.push(
      invalid(
        path,
        controllers,
        `Only one reference can have Controller set to true. Found "true" in references for ${controllers.join(' and ')}`,
      ),
    );
  }
  return out;
}

/**
 * Finalizers: qualified names, or one of the standard names without a prefix (kubernetes, orphan,
 * foregroundDeletion); orphan and foregroundDeletion not both.
 */
export function validateFinalizers(finalizers: unknown, path: string, out: FieldError[] = []): FieldError[] {
  if (!Array.isArray(finalizers)) return out;
  let orphan = false;
  let foreground = false;
  for (const f of finalizers) {
    if (typeof f !== 'string') continue;
    for (const msg of qualifiedNameErrors(f)) out.push(invalid(path, f, msg));
    if (!f.includes('/') && !standardFinalizers.has(f)) {
      out.push(invalid(path, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
    if (f === 'orphan') orphan = true;
    if (f === 'foregroundDeletion') foreground = true;
  }
  if (orphan && foreground) {
    out.push(invalid(path, finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return out;
}

/** Managed fields entries: fieldsType, when set, must be FieldsV1 (the operation enum is in the schema). */
export function validateManagedFields(entries: unknown, path: string, out: FieldError[] = []): FieldError[] {
  if (!Array.isArray(entries)) return out;
  entries.forEach((entry: unknown, i) => {
    if (!isObject(entry)) return;
    const at = child(path, i);
    const operation = str(entry.operation);
    if (operation !== 'Apply' && operation !== 'Update') {
      out.push(invalid(child(at, 'operation'), operation, 'must be `Apply` or `Update`'));
    }
    const fieldsType = str(entry.fieldsType);
    if (fieldsType !== '' && fieldsType !== 'FieldsV1') {
      out.push(invalid(child(at, 'fieldsType'), fieldsType, 'must be `FieldsV1`'));
    }
    const manager = str(entry.manager);
    if (Buffer.byteLength(manager) > 128) out.push(tooLong(child(at, 'manager'), manager, 128));
    else if (/\p{C}/u.test(manager))
      out.push(invalid(child(at, 'manager'), manager, 'must only contain printable characters'));
    if (str(entry.subresource).length > 256)
      out.push(tooLong(child(at, 'subresource'), entry.subresource, 256));
  });
  return out;
}

function nonNegative(value: unknown, path: string, out: FieldError[]): void {
  if (typeof value === 'number' && value < 0)
    out.push(invalid(path, value, 'must be greater than or equal to 0'));
}

/**
 * ValidateObjectMeta: name (or generateName) and its format, namespace required or forbidden by
 * scope, generation not negative, labels, annotations, owner references, finalizers and managed
 * fields.
 *
 * Kubernetes' registry turns generateName into a name before validating, so it requires the name
 * itself; here a generateName alone satisfies the rule, so objects can be validated before a name
 * is generated.
 */
export function validateObjectMeta(
  metadata: unknown,
  options: ObjectMetaOptions,
  path = 'metadata',
  out: FieldError[] = [],
): FieldError[] {
  const meta: Meta = isObject(metadata) ? metadata : {};
  const nameFn = options.nameValidation ?? nameIsDNSSubdomain;
  const name = str(meta.name);
  const generateName = str(meta.generateName);
  if (generateName !== '') {
    for (const msg of nameFn(generateName, true))
      out.push(invalid(child(path, 'generateName'), generateName, msg));
  }
  if (name === '') {
    if (generateName === '') out.push(required(child(path, 'name'), 'name or generateName is required'));
  } else {
    for (const msg of nameFn(name, false)) out.push(invalid(child(path, 'name'), name, msg));
  }
  const namespace = str(meta.namespace);
  if (options.namespaced) {
    if (namespace === '') out.push(required(child(path, 'namespace')));
    else
      for (const msg of nameIsDNSLabel(namespace, false))
        out.push(invalid(child(path, 'namespace'), namespace, msg));
  } else if (namespace !== '') {
    out.push(forbidden(child(path, 'namespace'), 'not allowed on this type'));
  }
  nonNegative(meta.generation, child(path, 'generation'), out);
  if (meta.labels !== undefined) validateLabels(meta.labels, child(path, 'labels'), out);
  if (meta.annotations !== undefined) validateAnnotations(meta.annotations, child(path, 'annotations'), out);
  if (meta.ownerReferences !== undefined)
    validateOwnerReferences(meta.ownerReferences, child(path, 'ownerReferences'), out);
  if (meta.finalizers !== undefined) validateFinalizers(meta.finalizers, child(path, 'finalizers'), out);
  if (meta.managedFields !== undefined)
    validateManagedFields(meta.managedFields, child(path, 'managedFields'), out);
  return out;
}

const immutableMeta = [
  'name',
  'namespace',
  'uid',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'clusterName',
] as const;

/**
 * ValidateObjectMetaUpdate: no new finalizers once deletion started, generation not decremented,
 * name, namespace, uid, creationTimestamp, deletionTimestamp, deletionGracePeriodSeconds and
 * clusterName unchanged (`field is immutable`). Whether a resourceVersion is required is the
 * registry's decision.
 */
export function validateObjectMetaUpdate(
  metadata: unknown,
  oldMetadata: unknown,
  path = 'metadata',
  out: FieldError[] = [],
): FieldError[] {
  const meta: Meta = isObject(metadata) ? metadata : {};
  const old: Meta = isObject(oldMetadata) ? oldMetadata : {};
  if (old.deletionTimestamp !== undefined) {
    const before = new Set(Array.isArray(old.finalizers) ? (old.finalizers as string[]) : []);
    const added = [...new Set(Array.isArray(meta.finalizers) ? (meta.finalizers as string[]) : [])]
      .filter((f) => !before.has(f))
      .sort();
    if (added.length > 0) {
      out.push(
        forbidden(
          child(path, 'finalizers'),
          `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(added)}`,
        ),
      );
    }
  }
  const generation = typeof meta.generation === 'number' ? meta.generation : 0;
  const oldGeneration = typeof old.generation === 'number' ? old.generation : 0;
  if (generation < oldGeneration)
    out.push(invalid(child(path, 'generation'), generation, 'must not be decremented'));
  for (const k of immutableMeta) {
    if (!semanticEqual(meta[k], old[k])) out.push(invalid(child(path, k), meta[k], FIELD_IMMUTABLE));
  }
  return out;
}
