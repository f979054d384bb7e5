/**
 * The flags that configure controllers not built into this controller manager yet, by controller
 * (doc 3's controller manager options). Given while such a controller is enabled, they have no
 * effect, and the manager says so, naming them.
 */
export const UNBUILT_CONTROLLER_FLAGS: Readonly<Record<string, readonly string[]>> = {
  route: ['configure-cloud-routes', 'route-reconciliation-period'],
  service: ['concurrent-service-syncs'],
};

/**
 * The flags that configure parts of built controllers not built yet, by controller: given while
 * such a controller runs, they have no effect, and the manager says so, naming them.
 */
export const UNBUILT_PART_FLAGS: Readonly<Record<string, { part: string; flags: readonly string[] }>> = {
  'persistentvolume-binder': {
    part: 'volume recycling and flex volume plugins',
    flags: [
      'flex-volume-plugin-dir',
      'pv-recycler-increment-timeout-nfs',
      'pv-recycler-minimum-timeout-nfs',
      'pv-recycler-minimum-timeout-hostpath',
      'pv-recycler-timeout-increment-hostpath',
      'pv-recycler-pod-template-filepath-nfs',
      'pv-recycler-pod-template-filepath-hostpath',
    ],
  },
};

/** The given flags (`given(flag)`) of unbuilt parts of the `running` controllers. */
export function ignoredPartFlags(
  running: readonly string[],
  given: (flag: string) => boolean,
): { flag: string; controller: string; part: string }[] {
  return running.flatMap((controller) => {
    const unbuilt = UNBUILT_PART_FLAGS[controller];
    if (!unbuilt) return [];
    return unbuilt.flags.filter(given).map((flag) => ({ flag, controller, part: unbuilt.part }));
  });
}

/** Flags of the unbuilt controllers that built controllers read too, with those controllers. */
export const FLAGS_SHARED_WITH_BUILT_CONTROLLERS: Readonly<Record<string, readonly string[]>> = {};

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
