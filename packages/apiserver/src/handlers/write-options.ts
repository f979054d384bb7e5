import type { DeleteOptions } from '@orch/api';
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

export function parseFieldValidation(query: URLSearchParams): FieldValidation {
  const v = query.get('fieldValidation');
  if (v === null || v === '') return 'Warn';
  if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
  throw statusErrors.badRequest(`fieldValidation must be one of "Ignore", "Warn" or "Strict", got "${v}"`);
}

/** Delete options from the query and/or the body; the query wins where both say something. */
export function parseDeleteOptions(query: URLSearchParams, body: unknown): DeleteOptions {
  const options: DeleteOptions =
    body && typeof body === 'object' && !Array.isArray(body) ? { ...(body as DeleteOptions) } : {};
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
