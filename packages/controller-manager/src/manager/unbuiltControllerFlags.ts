/**
 * The flags that configure controllers not built into this controller manager yet, by controller
 * (doc 3's controller manager options). Given while such a controller is enabled, they have no
 * effect, and the manager says so, naming them.
 */
export const UNBUILT_CONTROLLER_FLAGS: Readonly<Record<string, readonly string[]>> = {
  attachdetach: ['attach-detach-reconcile-sync-period', 'disable-attach-detach-reconcile-sync'],
  endpointslice: ['concurrent-service-endpoint-syncs', 'max-endpoints-per-slice'],
  horizontalpodautoscaling: [
    'horizontal-pod-autoscaler-cpu-initialization-period',
    'horizontal-pod-autoscaler-downscale-stabilization',
    'horizontal-pod-autoscaler-initial-readiness-delay',
    'horizontal-pod-autoscaler-sync-period',
    'horizontal-pod-autoscaler-tolerance',
  ],
  nodeipam: [
    'allocate-node-cidrs',
    'cidr-allocator-type',
    'cluster-cidr',
    'service-cluster-ip-range',
    'node-cidr-mask-size',
  ],
  'persistentvolume-binder': [
    'pvclaimbinder-sync-period',
    'enable-dynamic-provisioning',
    'enable-hostpath-provisioner',
    'flex-volume-plugin-dir',
    'pv-recycler-increment-timeout-nfs',
    'pv-recycler-minimum-timeout-nfs',
    'pv-recycler-minimum-timeout-hostpath',
    'pv-recycler-timeout-increment-hostpath',
    'pv-recycler-pod-template-filepath-nfs',
    'pv-recycler-pod-template-filepath-hostpath',
  ],
  route: ['configure-cloud-routes', 'route-reconciliation-period'],
  service: ['concurrent-service-syncs'],
  'serviceaccount-token': [
    'concurrent-serviceaccount-token-syncs',
    'service-account-private-key-file',
    'root-ca-file',
  ],
};

/** Flags of the unbuilt controllers that built controllers read too, with those controllers. */
export const FLAGS_SHARED_WITH_BUILT_CONTROLLERS: Readonly<Record<string, readonly string[]>> = {
  'root-ca-file': ['root-ca-cert-publisher'],
};

/**
 * The given flags (`given(flag)`) that only the `notBuilt` controllers read, with those controllers:
 * what a manager running without them ignores (a flag one of the `running` controllers reads too is
 * not).
 */
export function ignoredFlags(
  notBuilt: readonly string[],
  given: (flag: string) => boolean,
  running: readonly string[] = [],
): { flag: string; controllers: string[] }[] {
  const byFlag = new Map<string, string[]>();
  const readByRunning = (flag: string): boolean =>
    (FLAGS_SHARED_WITH_BUILT_CONTROLLERS[flag] ?? []).some((name) => running.includes(name));
  for (const name of notBuilt) {
    for (const flag of UNBUILT_CONTROLLER_FLAGS[name] ?? []) {
      if (given(flag) && !readByRunning(flag)) byFlag.set(flag, [...(byFlag.get(flag) ?? []), name]);
    }
  }
  return [...byFlag].map(([flag, controllers]) => ({ flag, controllers }));
}
