import { newQuantity } from '../util/quantity';
import { intersectResourceNames, matchesNoScope, type QuotaEvaluator } from './quota-evaluator';
import type { ResourceList } from './resource-list';

/** `count/<resource>` for the core group, `count/<resource>.<group>` otherwise. */
export function objectCountResourceName(group: string, resource: string): string {
  return group ? `count/${resource}.${group}` : `count/${resource}`;
}

/** The group and resource a `count/...` name counts, or undefined for other names. */
export function parseObjectCountResourceName(name: string): { group: string; resource: string } | undefined {
  if (!name.startsWith('count/')) return undefined;
  const rest = name.slice('count/'.length);
  const dot = rest.indexOf('.');
  if (!rest || dot === 0) return undefined;
  return dot < 0
    ? { group: '', resource: rest }
    : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
}

/**
 * Counts the objects of a resource: 1 each under `count/<resource>.<group>` and the legacy `alias`
 * (configmaps, secrets, ...) if it has one. Only creates change the count; no scope applies.
 */
export function objectCountEvaluator(group: string, resource: string, alias?: string): QuotaEvaluator {
  const names = [objectCountResourceName(group, resource), ...(alias ? [alias] : [])];
  const known = new Set(names);
  return {
    group,
    resource,
    handles: (operation) => operation === 'CREATE',
    matchingResources: (input) => intersectResourceNames(input, known),
    matchesScope: matchesNoScope,
    constraints: () => undefined,
    usage: () => {
      const out: ResourceList = {};
      for (const name of names) out[name] = newQuantity(1, 'DecimalSI');
      return out;
    },
  };
}
