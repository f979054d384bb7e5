import {
  everythingFields,
  everythingLabels,
  parseFieldSelector,
  parseLabelSelector,
  type FieldsSelector,
  type LabelsSelector,
} from '@orch/api';
import { statusErrors } from '../errors/status-error';

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
      throw statusErrors.badRequest(`unable to parse requirement: ${(e as Error).message}`);
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
  if (rv !== undefined && rv !== '' && !/^\d+$/.test(rv)) {
    throw statusErrors.badRequest(`invalid resource version: ${JSON.stringify(rv)}`);
  }
  const rvm = query.get('resourceVersionMatch') ?? undefined;
  if (rvm !== undefined && rvm !== '' && rvm !== 'NotOlderThan' && rvm !== 'Exact') {
    throw statusErrors.badRequest(
      `resourceVersionMatch: Unsupported value: "${rvm}": supported values: "Exact", "NotOlderThan"`,
    );
  }
  const watch = queryBool(query.get('watch'));
  const limit = nonNegativeInt('limit', query.get('limit')) ?? 0;
  const cont = query.get('continue') || undefined;
  if (rvm && !rv)
    throw statusErrors.badRequest('resourceVersionMatch is forbidden unless resourceVersion is provided');
  if (rvm && cont)
    throw statusErrors.badRequest('resourceVersionMatch is forbidden when continue is provided');
  if (rvm === 'Exact' && rv === '0')
    throw statusErrors.badRequest('resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
  if (cont && rv && rv !== '0')
    throw statusErrors.badRequest('specifying resource version is not allowed when using continue');
  if (watch && rvm) throw statusErrors.badRequest('resourceVersionMatch is forbidden for watch');
  return {
    labelSelector,
    fieldSelector,
    resourceVersion: rv || undefined,
    resourceVersionMatch: (rvm || undefined) as ListOptions['resourceVersionMatch'],
    limit,
    continue: cont,
    timeoutSeconds: nonNegativeInt('timeoutSeconds', query.get('timeoutSeconds')),
    allowWatchBookmarks: queryBool(query.get('allowWatchBookmarks')),
    watch,
  };
}
