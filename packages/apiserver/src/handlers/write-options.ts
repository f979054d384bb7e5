import { fieldErrors, invalidStatus, type DeleteOptions } from '@orch/api';
import { statusErrors, StatusError } from '../errors/status-error';
import type { FieldValidation } from '../registry/generic-store';

/** Kubernetes answers bad options with an Invalid status on the options kind (CreateOptions, ...). */
function invalidOptions(kind: string, field: string, message: string): StatusError {
  return statusErrors.invalid(
    kind,
    'meta.k8s.io',
    '',
    `${kind}.meta.k8s.io "" is invalid: ${field}: ${message}`,
    [{ reason: 'FieldValueInvalid', message, field }],
  );
}

export function parseDryRun(query: URLSearchParams, optionsKind: string): boolean {
  const values = query.getAll('dryRun');
  if (!values.length) return false;
  for (const v of values) {
    if (v !== 'All') {
      throw invalidOptions(optionsKind, 'dryRun', `Unsupported value: "${v}": supported values: "All"`);
    }
  }
  return true;
}

export function parseFieldManager(query: URLSearchParams, optionsKind: string): string | undefined {
  const m = query.get('fieldManager');
  if (m === null) return undefined;
  if (Buffer.byteLength(m) > 128)
    throw invalidOptions(optionsKind, 'fieldManager', 'Too long: may not be longer than 128');
  if (/[^\x20-\x7e]/.test(m)) {
    throw invalidOptions(
      optionsKind,
      'fieldManager',
      `Invalid value: "${m}": must only contain printable characters`,
    );
  }
  return m;
}

/** Apply requires a field manager (Kubernetes' 422 on PatchOptions). */
export function requireApplyManager(manager: string | undefined): string {
  if (manager) return manager;
  throw statusErrors.invalid(
    'PatchOptions',
    'meta.k8s.io',
    '',
    'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    [
      {
        reason: 'FieldValueRequired',
        message: 'Required value: is required for apply patch',
        field: 'fieldManager',
      },
    ],
  );
}

/** The force parameter of an apply (Go's strconv.ParseBool spellings). */
export function parseForce(query: URLSearchParams): boolean {
  const v = query.get('force');
  if (v === null || v === '') return false;
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(v)) return false;
  throw statusErrors.badRequest(`invalid value for force: ${v}`);
}

/**
 * The options kind Kubernetes validates a write's fieldValidation on: CreateOptions, UpdateOptions or
 * PatchOptions by the verb; other verbs (delete, a connect's get) have no fieldValidation to check.
 */
export function writeOptionsKind(verb: string): string | undefined {
  switch (verb) {
    case 'create':
      return 'CreateOptions';
    case 'update':
      return 'UpdateOptions';
    case 'patch':
      return 'PatchOptions';
    default:
      return undefined;
  }
}

/**
 * The fieldValidation parameter (empty means Warn); another value is Kubernetes' 422 on the write's
 * options kind (ValidateFieldValidation). Without an options kind the parameter is not looked at.
 */
export function parseFieldValidation(query: URLSearchParams, optionsKind?: string): FieldValidation {
  const v = query.get('fieldValidation');
  if (v === null || v === '') return 'Warn';
  if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
  if (optionsKind === undefined) return 'Warn';
  throw new StatusError(
    invalidStatus(optionsKind, 'meta.k8s.io', '', [
      fieldErrors.notSupported('fieldValidation', v, ['', 'Ignore', 'Strict', 'Warn']),
    ]),
  );
}

/** The versions a DeleteOptions body may name: meta's (Kubernetes' and orch's spellings) and core v1. */
const deleteOptionsVersions = new Set([
  'v1',
  'meta.k8s.io/v1',
  'meta.k8s.io/v1beta1',
  'meta.orch.io/v1',
  'meta.orch.io/v1beta1',
]);

/** The JSON kind of a value as Go's decoder names it in an UnmarshalTypeError. */
function jsonKindOf(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** Go's UnmarshalTypeError for a field of a struct (the innermost struct's name, the full path). */
function unmarshalError(value: unknown, struct: string, field: string, goType: string): StatusError {
  // a number that does not fit an integer field is named with its value
  const kind =
    typeof value === 'number' && goType === 'int64' ? `number ${String(value)}` : jsonKindOf(value);
  return statusErrors.badRequest(
    `json: cannot unmarshal ${kind} into Go struct field ${struct}.${field} of type ${goType}`,
  );
}

/**
 * Decodes a DeleteOptions body as Kubernetes' decoder does: an object of kind DeleteOptions (or
 * none) in a meta version (or none), each field of its Go type (null being no value); anything else
 * is a 400 BadRequest, before anything is deleted.
 */
function decodeDeleteOptionsBody(body: unknown): DeleteOptions {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw statusErrors.badRequest(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKindOf(body)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  const b = body as Record<string, unknown>;
  for (const f of ['apiVersion', 'kind'] as const) {
    if (b[f] !== undefined && b[f] !== null && typeof b[f] !== 'string') {
      throw statusErrors.badRequest(
        `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKindOf(b[f])} into Go struct field .${f} of type string`,
      );
    }
  }
  const apiVersion = (b.apiVersion as string | null | undefined) || '';
  const kind = (b.kind as string | null | undefined) || 'DeleteOptions';
  if ((apiVersion && !deleteOptionsVersions.has(apiVersion)) || kind !== 'DeleteOptions') {
    throw statusErrors.badRequest(
      `no kind "${kind}" is registered for version "${apiVersion || 'meta.k8s.io/v1'}" in scheme "k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme/register.go:28"`,
    );
  }
  const present = (k: string): boolean => b[k] !== undefined && b[k] !== null;
  const field = (k: string, ok: (v: unknown) => boolean, goType: string): void => {
    if (present(k) && !ok(b[k])) throw unmarshalError(b[k], 'DeleteOptions', k, goType);
  };
  field('gracePeriodSeconds', Number.isSafeInteger, 'int64');
  field('orphanDependents', (v) => typeof v === 'boolean', 'bool');
  field('propagationPolicy', (v) => typeof v === 'string', 'v1.DeletionPropagation');
  field('dryRun', Array.isArray, '[]string');
  for (const v of present('dryRun') ? (b.dryRun as unknown[]) : []) {
    if (v !== null && typeof v !== 'string') throw unmarshalError(v, 'DeleteOptions', 'dryRun', 'string');
  }
  field('preconditions', (v) => typeof v === 'object' && !Array.isArray(v), 'v1.Preconditions');
  const pre = present('preconditions') ? (b.preconditions as Record<string, unknown>) : {};
  for (const [k, goType] of [
    ['uid', 'types.UID'],
    ['resourceVersion', 'string'],
  ] as const) {
    if (pre[k] !== undefined && pre[k] !== null && typeof pre[k] !== 'string')
      throw unmarshalError(pre[k], 'Preconditions', `preconditions.${k}`, goType);
  }
  // null is no value, as a nil pointer in Go
  const options: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(b)) if (v !== null) options[k] = v;
  if (options.dryRun) options.dryRun = (options.dryRun as unknown[]).filter((v) => v !== null);
  return options as DeleteOptions;
}

/** Delete options from the query and/or the body; the query wins where both say something. */
export function parseDeleteOptions(query: URLSearchParams, body: unknown): DeleteOptions {
  const options: DeleteOptions = decodeDeleteOptionsBody(body);
  const grace = query.get('gracePeriodSeconds');
  if (grace !== null && grace !== '') {
    if (!/^-?\d+$/.test(grace))
      throw statusErrors.badRequest(`invalid value for gracePeriodSeconds: ${grace}`);
    options.gracePeriodSeconds = Number(grace);
  }
  const orphan = query.get('orphanDependents');
  if (orphan !== null && orphan !== '') options.orphanDependents = orphan === 'true';
  const policy = query.get('propagationPolicy');
  if (policy) options.propagationPolicy = policy;
  if (query.getAll('dryRun').length) options.dryRun = query.getAll('dryRun');
  if (options.orphanDependents !== undefined && options.propagationPolicy) {
    throw invalidOptions(
      'DeleteOptions',
      'propagationPolicy',
      `Invalid value: "${options.propagationPolicy}": orphanDependents and deletionPropagation cannot be both set`,
    );
  }
  if (
    options.propagationPolicy &&
    !['Orphan', 'Background', 'Foreground'].includes(options.propagationPolicy)
  ) {
    throw invalidOptions(
      'DeleteOptions',
      'propagationPolicy',
      `Unsupported value: "${options.propagationPolicy}": supported values: "Foreground", "Background", "Orphan", "nil"`,
    );
  }
  if (options.gracePeriodSeconds !== undefined && options.gracePeriodSeconds < 0)
    options.gracePeriodSeconds = 1;
  for (const v of options.dryRun ?? []) {
    if (v !== 'All')
      throw invalidOptions('DeleteOptions', 'dryRun', `Unsupported value: "${v}": supported values: "All"`);
  }
  return options;
}
