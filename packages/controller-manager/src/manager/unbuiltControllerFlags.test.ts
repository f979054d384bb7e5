import { controllerManagerFlagSets } from '@orch/component-base';
import { CONTROLLER_REGISTRY } from './controllerRegistry';
import { ignoredFlags, UNBUILT_CONTROLLER_FLAGS } from './unbuiltControllerFlags';

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
    const given = new Set(['root-ca-file', 'resource-quota-sync-period', 'kubeconfig']);
    expect(
      ignoredFlags(
        ['serviceaccount-token', 'root-ca-cert-publisher', 'resourcequota', 'horizontalpodautoscaling'],
        (f) => given.has(f),
      ),
    ).toEqual([
      { flag: 'root-ca-file', controllers: ['serviceaccount-token', 'root-ca-cert-publisher'] },
      { flag: 'resource-quota-sync-period', controllers: ['resourcequota'] },
    ]);
    expect(ignoredFlags(['horizontalpodautoscaling'], () => false)).toEqual([]);
  });
});
