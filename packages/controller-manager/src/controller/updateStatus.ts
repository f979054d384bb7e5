import { isConflict, type KubeObject, type TypedClient } from '@orch/client';

/**
 * Writes an object's status with its cached resourceVersion; on a conflict reads the object once
 * more and writes the same status onto the fresh copy (Kubernetes' statusUpdateRetries = 1). Only
 * for statuses computed wholly from other objects (a ReplicaSet's pod counts): a status that
 * accumulates (a Job's) must be recomputed instead.
 */
export async function updateStatusWithRetry<T extends KubeObject & { status?: unknown }>(
  client: TypedClient<T>,
  obj: T,
  status: T['status'],
): Promise<T> {
  try {
    return await client.updateStatus({ ...obj, status });
  } catch (err) {
    if (!isConflict(err)) throw err;
    const fresh = await client.get(obj.metadata?.name ?? '', { namespace: obj.metadata?.namespace });
    return client.updateStatus({ ...fresh, status });
  }
}
