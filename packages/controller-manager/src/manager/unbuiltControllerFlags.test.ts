import { controllerManagerFlagSets } from '@orch/component-base';
import { CONTROLLER_REGISTRY } from './controllerRegistry';
import {
  FLAGS_SHARED_WITH_BUILT_CONTROLLERS,
  ignoredFlags,
  ignoredPartFlags,
  UNBUILT_CONTROLLER_FLAGS,
  UNBUILT_PART_FLAGS,
} from './unbuiltControllerFlags';

describe('flags of controllers not built yet', () => {
  test('name declared controller manager flags, of controllers that are not built', () => {
    const declared = new Set(controllerManagerFlagSets().flatMap((set) => set.flags.map((f) => f.name)));
    for (const [controller, flags] of Object.entries(UNBUILT_CONTROLLER_FLAGS)) {
      expect({ controller, built: controller in CONTROLLER_REGISTRY }).toEqual({ controller, built: false });
      for (const flag of flags)
        expect({ flag, declared: declared.has(flag) }).toEqual({ flag, declared: true });
    }
  });

  test('name declared flags of unbuilt parts of built controllers, reported while those run', () => {
    const declared = new Set(controllerManagerFlagSets().flatMap((set) => set.flags.map((f) => f.name)));
    for (const [controller, { flags }] of Object.entries(UNBUILT_PART_FLAGS)) {
      expect({ controller, built: controller in CONTROLLER_REGISTRY }).toEqual({ controller, built: true });
      for (const flag of flags)
        expect({ flag, declared: declared.has(flag) }).toEqual({ flag, declared: true });
    }
    const given = (f: string) => f === 'pv-recycler-minimum-timeout-nfs' || f === 'pvclaimbinder-sync-period';
    expect(ignoredPartFlags(['persistentvolume-binder'], given)).toEqual([
      {
        flag: 'pv-recycler-minimum-timeout-nfs',
        controller: 'persistentvolume-binder',
        part: 'volume recycling and flex volume plugins',
      },
    ]);
    expect(ignoredPartFlags(['deployment'], given)).toEqual([]);
  });

  test('a given flag is reported once, with every unbuilt controller that reads it', () => {
    const given = new Set([
      'configure-cloud-routes',
      'route-reconciliation-period',
      'concurrent-service-syncs',
      'kubeconfig',
    ]);
    expect(ignoredFlags(['route', 'service'], (f) => given.has(f))).toEqual([
      { flag: 'configure-cloud-routes', controllers: ['route'] },
      { flag: 'route-reconciliation-period', controllers: ['route'] },
      { flag: 'concurrent-service-syncs', controllers: ['service'] },
    ]);
    expect(ignoredFlags(['route'], () => false)).toEqual([]);
  });

  test('the flags of the built serviceaccount-token and nodeipam controllers are never reported', () => {
    const theirs = [
      'concurrent-serviceaccount-token-syncs',
      'service-account-private-key-file',
      'root-ca-file',
      'allocate-node-cidrs',
      'cidr-allocator-type',
      'cluster-cidr',
      'service-cluster-ip-range',
      'node-cidr-mask-size',
    ];
    expect(ignoredFlags(Object.keys(UNBUILT_CONTROLLER_FLAGS), (f) => theirs.includes(f))).toEqual([]);
  });

  test('a flag a running built controller reads too has an effect', () => {
    for (const [flag, readers] of Object.entries(FLAGS_SHARED_WITH_BUILT_CONTROLLERS)) {
      expect(Object.values(UNBUILT_CONTROLLER_FLAGS).flat()).toContain(flag);
      for (const name of readers)
        expect({ name, built: name in CONTROLLER_REGISTRY }).toEqual({ name, built: true });
    }
  });
});
