import type { Service } from '@orch/api';
import { waitForCacheSync, type SharedIndexInformer } from '@orch/client';
import { ContainerConfigError } from './buildEnv';

/** The kubelet's error while it has not listed the services yet. */
export const SERVICES_NOT_SYNCED = 'services have not yet been read at least once, cannot construct envvars';

/**
 * The cluster's Services for the service link variables, from an informer made and started on the
 * first call (only agents whose containers need the variables watch Services). A call waits up to
 * `syncWaitMs` for the first list and fails as the kubelet does if it has not come by then.
 */
export function lazyServices(
  informerFor: () => SharedIndexInformer<Service>,
  syncWaitMs = 10_000,
): () => Promise<readonly Service[]> {
  let informer: SharedIndexInformer<Service> | undefined;
  return async () => {
    if (!informer) {
      informer = informerFor();
      informer.run();
    }
    const inf = informer;
    if (!inf.hasSynced() && !(await waitForCacheSync([() => inf.hasSynced()], { timeoutMs: syncWaitMs })))
      throw new ContainerConfigError(SERVICES_NOT_SYNCED);
    return inf.lister().list();
  };
}
