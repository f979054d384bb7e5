import {
  everythingFields,
  everythingLabels,
  fieldErrors,
  invalidStatus,
  parseFieldSelector,
  parseLabelSelector,
  type FieldError,
  type FieldsSelector,
  type LabelsSelector,
} from '@orch/api';
import { statusErrors, StatusError } from '../errors/status-error';

/** The query parameters of list and watch, parsed and checked. */
export interface ListOptions {
  labelSelector: LabelsSelector;
  fieldSelector: FieldsSelector;
  /** Unset, '0' or a revision. */
  resourceVersion?: string;
  resourceVersionMatch?: 'NotOlderThan' | 'Exact';
  limit: number;
  continue?: string;
  timeoutSeconds?: number;
  allowWatchBookmarks: boolean;
  watch: boolean;
}

/** A boolean query parameter: given, and not empty, 0 or false. */
export function queryBool(v: string | null): boolean {
  return v !== null && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

function nonNegativeInt(name: string, v: string | null): number | undefined {
  if (v === null || v === '') return undefined;
  if (!/^-?\d+$/.test(v))
    throw statusErrors.badRequest(`invalid value for ${name}: ${JSON.stringify(v)}: must be an integer`);
  const n = Number(v);
  if (!Number.isSafeInteger(n))
    throw statusErrors.badRequest(`invalid value for ${name}: ${v}: out of range`);
  if (n < 0) throw statusErrors.badRequest(`invalid value for ${name}: ${n}: must be non-negative`);
  return n;
}

export function parseListOptions(query: URLSearchParams): ListOptions {
  let labelSelector = everythingLabels();
  let fieldSelector = everythingFields();
  const ls = query.get('labelSelector');
  if (ls) {
    try {
      labelSelector = parseLabelSelector(ls);
    } catch (e) {
      // the parser's message already reads `unable to parse requirement: ...`, as Kubernetes' does
      throw statusErrors.badRequest((e as Error).message);
    }
  }
  const fs = query.get('fieldSelector');
  if (fs) {
    try {
      fieldSelector = parseFieldSelector(fs);
    } catch (e) {
      throw statusErrors.badRequest((e as Error).message);
    }
  }
  const rv = query.get('resourceVersion') ?? undefined;
  const rvm = query.get('resourceVersionMatch') ?? undefined;
  const watch = queryBool(query.get('watch'));
  const limit = nonNegativeInt('limit', query.get('limit')) ?? 0;
  const timeoutSeconds = nonNegativeInt('timeoutSeconds', query.get('timeoutSeconds'));
  const cont = query.get('continue') || undefined;
  // options that decode are checked as a whole (a 422) before storage reads the resource version
  const errors = validateListOptions({
    watch,
    resourceVersion: rv ?? '',
    resourceVersionMatch: rvm ?? '',
    continue: cont ?? '',
    sendInitialEvents: query.has('sendInitialEvents'),
    watchListEnabled: false,
  });
  if (errors.length) throw new StatusError(invalidStatus('ListOptions', 'meta.k8s.io', '', errors));
  if (rv !== undefined && rv !== '' && !/^\d+$/.test(rv)) {
    throw statusErrors.badRequest(`invalid resource version: ${JSON.stringify(rv)}`);
  }
  if (cont && rv && rv !== '0')
    throw statusErrors.badRequest('specifying resource version is not allowed when using continue');
  return {
    labelSelector,
    fieldSelector,
    resourceVersion: rv || undefined,
    resourceVersionMatch: (rvm || undefined) as ListOptions['resourceVersionMatch'],
    limit,
    continue: cont,
    timeoutSeconds,
    allowWatchBookmarks: queryBool(query.get('allowWatchBookmarks')),
    watch,
  };
}

/** The list and watch options Kubernetes' ValidateListOptions looks at, as they were given. */
interface CheckedOptions {
  watch: boolean;
  resourceVersion: string;
  resourceVersionMatch: string;
  continue: string;
  /** The sendInitialEvents parameter was given (whatever its value: Kubernetes' *bool is then set). */
  sendInitialEvents: boolean;
  /**
   * The WatchList feature gate: off by default in Kubernetes 1.29, and orch does not implement the
   * streamed initial list, so its watches answer as Kubernetes' do with the gate off.
   */
  watchListEnabled: boolean;
}

/**
 * Kubernetes' ValidateListOptions (apimachinery's meta/internalversion/validation, 1.29): the errors
 * that make a list or watch a 422 Invalid on ListOptions.meta.k8s.io.
 */
function validateListOptions(o: CheckedOptions): FieldError[] {
  const errs: FieldError[] = [];
  const forbid = (field: string, detail: string) => errs.push(fieldErrors.forbidden(field, detail));
  const match = o.resourceVersionMatch;
  if (o.watch) {
    if (o.sendInitialEvents) {
      if (match !== 'NotOlderThan')
        forbid(
          'resourceVersionMatch',
          'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
        );
      if (!o.watchListEnabled)
        forbid(
          'sendInitialEvents',
          'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
        );
    }
    if (match) {
      if (!o.sendInitialEvents)
        forbid(
          'resourceVersionMatch',
          'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
        );
      if (match !== 'NotOlderThan')
        errs.push(fieldErrors.notSupported('resourceVersionMatch', match, ['NotOlderThan']));
      if (o.continue)
        forbid('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided');
    }
    return errs;
  }
  if (match) {
    if (!o.resourceVersion)
      forbid('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided');
    if (o.continue)
      forbid('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided');
    if (match !== 'Exact' && match !== 'NotOlderThan')
      errs.push(fieldErrors.notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && o.resourceVersion === '0')
      forbid('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
  }
  if (o.sendInitialEvents) forbid('sendInitialEvents', 'sendInitialEvents is forbidden for list');
  return errs;
}
