import { objectCountEvaluator, parseObjectCountResourceName } from './object-count-evaluator';
import { podEvaluator } from './pod-evaluator';
import { pvcEvaluator } from './pvc-evaluator';
import type { QuotaEvaluator } from './quota-evaluator';
import { serviceEvaluator } from './service-evaluator';

/** Core kinds also counted under their plain plural (the resource names quota had before count/). */
const legacyCountAliases = ['configmaps', 'resourcequotas', 'replicationcontrollers', 'secrets'];

/** The evaluators of resources quota measures beyond counting objects. */
const builtIn: readonly QuotaEvaluator[] = [
  podEvaluator,
  serviceEvaluator,
  pvcEvaluator,
  ...legacyCountAliases.map((r) => objectCountEvaluator('', r, r)),
];

const made = new Map<string, QuotaEvaluator>(builtIn.map((e) => [`${e.group}/${e.resource}`, e]));

/** The evaluator of a resource: its own, or one counting its objects (`count/<resource>.<group>`). */
export function quotaEvaluatorFor(group: string, resource: string): QuotaEvaluator {
  const key = `${group}/${resource}`;
  let evaluator = made.get(key);
  if (!evaluator) {
    evaluator = objectCountEvaluator(group, resource);
    made.set(key, evaluator);
  }
  return evaluator;
}

/**
 * The evaluators measuring the given quota resources: the built-in ones, and one counting objects
 * for each `count/<resource>.<group>` name of another resource.
 */
export function quotaEvaluatorsFor(names: readonly string[]): QuotaEvaluator[] {
  const out = new Set<QuotaEvaluator>(builtIn);
  for (const name of names) {
    const counted = parseObjectCountResourceName(name);
    if (counted) out.add(quotaEvaluatorFor(counted.group, counted.resource));
  }
  return [...out];
}
