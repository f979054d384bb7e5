import type { Static } from '@sinclair/typebox';
import { map, quantity, struct } from '../../schema/fields';
import type { FieldErrorLike } from '../../schema/fields';
import { tryParseQuantity } from '../../util/quantity';
import { child, invalid, key, required } from '../../validation/field-error';

export const ResourceRequirementsSchema = struct('io.k8s.api.core.v1.ResourceRequirements', {
  limits: map(quantity(), { proto: 1, description: 'Maximum amount of compute resources allowed.' }),
  requests: map(quantity(), {
    proto: 2,
    description: 'Minimum amount of compute resources required; defaults to the limits on pods.',
  }),
});
export type ResourceRequirements = Static<typeof ResourceRequirementsSchema>;
type QuantityValue = string | number;

const standardContainerResources = new Set(['cpu', 'memory', 'ephemeral-storage']);
const DEFAULT_NAMESPACE_PREFIX = 'kubernetes.io/';
const HUGE_PAGES_PREFIX = 'hugepages-';

/** Native resources have no domain or the kubernetes.io domain. */
function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes(DEFAULT_NAMESPACE_PREFIX);
}

/** Requests of native, non huge-page resources may be below their limits. */
function isOvercommitAllowed(name: string): boolean {
  return isNativeResource(name) && !name.startsWith(HUGE_PAGES_PREFIX);
}

/** The approximate numeric value of a quantity, for comparisons; undefined when it does not parse. */
export function quantityValue(q: QuantityValue): number | undefined {
  return tryParseQuantity(String(q))?.asApproximateFloat64();
}

/** Kubernetes' ValidateResourceRequirements for a container's resources (names, signs, requests ≤ limits). */
export function validateContainerResources(
  res: ResourceRequirements | undefined,
  path: string,
): FieldErrorLike[] {
  if (!res) return [];
  const errs: FieldErrorLike[] = [];
  const limPath = child(path, 'limits');
  const reqPath = child(path, 'requests');
  const limits = res.limits ?? {};
  const checkEntry = (name: string, value: QuantityValue, at: string): void => {
    if (!name.includes('/')) {
      if (!standardContainerResources.has(name) && !name.startsWith(HUGE_PAGES_PREFIX)) {
        errs.push(invalid(at, name, 'must be a standard resource for containers'));
      }
    }
    const q = tryParseQuantity(String(value));
    if (q !== undefined && q.sign() < 0)
      errs.push(invalid(at, q.toString(), 'must be greater than or equal to 0'));
  };
  for (const [name, value] of Object.entries(limits)) checkEntry(name, value, key(limPath, name));
  for (const [name, value] of Object.entries(res.requests ?? {})) {
    checkEntry(name, value, key(reqPath, name));
    const limit = limits[name];
    if (limit !== undefined) {
      const r = tryParseQuantity(String(value));
      const l = tryParseQuantity(String(limit));
      if (r === undefined || l === undefined) continue;
      const cmp = r.cmp(l);
      if (cmp !== 0 && !isOvercommitAllowed(name)) {
        errs.push(invalid(reqPath, r.toString(), `must be equal to ${name} limit`));
      } else if (cmp > 0) {
        errs.push(invalid(reqPath, r.toString(), `must be less than or equal to ${name} limit`));
      }
    } else if (!isOvercommitAllowed(name)) {
      errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
  }
  return errs;
}

/** Pod defaulting: a limit without a request gives the request the limit's value. */
export function defaultRequestsFromLimits(res: ResourceRequirements | undefined): void {
  if (!res?.limits) return;
  const limits = Object.entries(res.limits);
  if (limits.length === 0) return;
  res.requests ??= {};
  for (const [name, value] of limits) {
    if (res.requests[name] === undefined) res.requests[name] = value;
  }
}
