import {
  isPodPhaseTerminal,
  isConditionTrue,
  labelSelectorAsSelector,
  type ConditionLike,
  type DeleteOptions,
} from '@orch/api';
import { StatusError, statusErrors } from '../../errors/status-error';
import { StorageError } from '../../storage/storage-error';
import type { SubresourceHandler } from '../custom-handlers';
import type { GenericStore } from '../generic-store';
import { collectionPrefix } from '../keys';
import { nowTime, type ApiObject } from '../object';

interface DisruptionBudget {
  metadata: { name?: string; generation?: number };
  spec?: {
    selector?: { matchLabels?: Record<string, string>; matchExpressions?: never[] };
    unhealthyPodEvictionPolicy?: string;
  };
  status?: {
    observedGeneration?: number;
    disruptionsAllowed?: number;
    currentHealthy?: number;
    desiredHealthy?: number;
    disruptedPods?: Record<string, string>;
  };
}

/** Kubernetes' cap on evictions a budget may have pending before its controller catches up. */
const maxDisruptedPods = 2000;

const violation = "Cannot evict pod as it would violate the pod's disruption budget.";

/** 429 TooManyRequests with the DisruptionBudget cause, as Kubernetes' eviction REST answers. */
function tooManyRequests(cause: string): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: violation,
    reason: 'TooManyRequests',
    details: { causes: [{ reason: 'DisruptionBudget', message: cause }] },
    code: 429,
  });
}

const forbidden = (message: string): StatusError => statusErrors.forbidden(message);

/** A pod that is not running (or already going) may be evicted whatever its budgets say. */
function ignoresBudgets(pod: ApiObject): boolean {
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  return Boolean(pod.metadata.deletionTimestamp) || isPodPhaseTerminal(phase) || phase === 'Pending';
}

/** Whether the pod counts as healthy for its budget: its Ready condition is True. */
function isReady(pod: ApiObject): boolean {
  return isConditionTrue((pod.status as { conditions?: ConditionLike[] } | undefined)?.conditions, 'Ready');
}

/**
 * Takes one disruption from the budget covering the pod (recording the pod in disruptedPods) or throws
 * the 429/403 Kubernetes answers; does nothing when no budget covers the pod. A pod that is not ready
 * takes nothing from its budget: it is evicted when the budget's unhealthyPodEvictionPolicy is
 * AlwaysAllow, or (IfHealthyBudget, the default) while the budget has the healthy pods it needs. The
 * answer is then 'unready': the pod may be deleted only as it was read, still not ready.
 */
async function takeDisruption(
  store: GenericStore,
  pod: ApiObject,
  dryRun: boolean,
): Promise<'taken' | 'unready' | 'uncovered'> {
  const prefix = collectionPrefix('policy', 'poddisruptionbudgets', pod.metadata.namespace ?? '');
  for (let attempt = 0; attempt < 8; attempt++) {
    const page = await store.storage.list(prefix);
    const covering = page.items
      .map((kv) => ({ kv, pdb: JSON.parse(kv.value.toString('utf8')) as DisruptionBudget }))
      .filter(({ pdb }) => {
        const selector = pdb.spec?.selector;
        // a budget with a nil or empty selector selects nothing here, in either version, as in Kubernetes
        if (
          !selector ||
          (!Object.keys(selector.matchLabels ?? {}).length && !selector.matchExpressions?.length)
        )
          return false;
        try {
          return labelSelectorAsSelector(selector).matches(pod.metadata.labels ?? {});
        } catch {
          return false;
        }
      });
    if (!covering.length) return 'uncovered';
    if (covering.length > 1) {
      throw statusErrors.internal(
        'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      );
    }
    const { kv, pdb } = covering[0]!;
    const name = pdb.metadata.name ?? '';
    const status = pdb.status ?? {};
    if (!isReady(pod)) {
      if (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow') return 'unready';
      const desired = status.desiredHealthy ?? 0;
      if (desired > 0 && (status.currentHealthy ?? 0) >= desired) return 'unready';
    }
    if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0))
      throw tooManyRequests(`The disruption budget ${name} is still being processed by the server.`);
    const allowed = status.disruptionsAllowed ?? 0;
    if (allowed < 0) throw forbidden('pdb disruptions allowed is negative');
    if (Object.keys(status.disruptedPods ?? {}).length > maxDisruptedPods)
      throw forbidden('DisruptedPods map too big - too many evictions not confirmed by PDB controller');
    if (allowed === 0) {
      throw tooManyRequests(
        `The disruption budget ${name} needs ${status.desiredHealthy ?? 0} healthy pods and has ${status.currentHealthy ?? 0} currently`,
      );
    }
    if (dryRun) return 'taken';
    status.disruptionsAllowed = allowed - 1;
    status.disruptedPods = { ...(status.disruptedPods ?? {}), [pod.metadata.name ?? '']: nowTime() };
    pdb.status = status;
    try {
      await store.storage.update(kv.key, Buffer.from(JSON.stringify(pdb)), kv.modRevision);
      return 'taken';
    } catch (e) {
      if (!(e instanceof StorageError && e.code === 'Conflict')) throw e;
    }
  }
  throw tooManyRequests('The disruption budget is being updated too often; try again.');
}

/**
 * pods/eviction: POST a policy/v1 (or v1beta1) Eviction; the pod is deleted (with the eviction's
 * deleteOptions) unless its PodDisruptionBudget allows no further disruption. 201 with a Success Status.
 */
export const evictPod: SubresourceHandler = async (store, request) => {
  if (request.verb !== 'create')
    throw statusErrors.methodNotAllowed('the server does not allow this method on the requested resource');
  const eviction = request.body ?? ({ metadata: {} } as ApiObject);
  const evictionName = eviction.metadata?.name;
  if (evictionName && evictionName !== request.name)
    throw statusErrors.badRequest('name in URL does not match name in Eviction object');
  if (eviction.kind !== undefined && eviction.kind !== 'Eviction')
    throw statusErrors.badRequest(
      `the kind in the data (${String(eviction.kind)}) does not match the expected kind (Eviction)`,
    );
  let options = (eviction.deleteOptions ?? {}) as DeleteOptions;
  const pod = await store.get(request.scope, request.name);
  const taken = ignoresBudgets(pod) ? 'uncovered' : await takeDisruption(store, pod, request.scope.dryRun);
  if (taken === 'unready' && !options.preconditions?.resourceVersion) {
    // the pod was evicted for not being ready: a pod that became ready meanwhile is not deleted
    options = {
      ...options,
      preconditions: { ...options.preconditions, resourceVersion: pod.metadata.resourceVersion },
    };
  }
  await store.delete(request.scope, request.name, options);
  return {
    code: 201,
    object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 },
  };
};
