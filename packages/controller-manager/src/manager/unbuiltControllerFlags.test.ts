import { controllerManagerFlagSets } from '@orch/component-base';
import { CONTROLLER_REGISTRY } from './controllerRegistry';
import {
  FLAGS_SHARED_WITH_BUILT_CONTROLLERS,
  ignoredFlags,
  UNBUILT_CONTROLLER_FLAGS,
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

  test('a given flag is reported once, with every unbuilt controller that reads it', () => {
    const given = new Set([
      'root-ca-file',
      'horizontal-pod-autoscaler-sync-period',
      'concurrent-service-syncs',
      'kubeconfig',
    ]);
    expect(
      ignoredFlags(['serviceaccount-token', 'horizontalpodautoscaling', 'service'], (f) => given.has(f)),
    ).toEqual([
      { flag: 'root-ca-file', controllers: ['serviceaccount-token'] },
      { flag: 'horizontal-pod-autoscaler-sync-period', controllers: ['horizontalpodautoscaling'] },
      { flag: 'concurrent-service-syncs', controllers: ['service'] },
    ]);
    expect(ignoredFlags(['horizontalpodautoscaling'], () => false)).toEqual([]);
  });

  test('a flag a running built controller reads too has an effect', () => {
    expect(
      ignoredFlags(['serviceaccount-token'], (f) => f === 'root-ca-file', ['root-ca-cert-publisher']),
    ).toEqual([]);
    for (const [flag, readers] of Object.entries(FLAGS_SHARED_WITH_BUILT_CONTROLLERS)) {
      expect(Object.values(UNBUILT_CONTROLLER_FLAGS).flat()).toContain(flag);
      for (const name of readers)
        expect({ name, built: name in CONTROLLER_REGISTRY }).toEqual({ name, built: true });
    }
  });
});
