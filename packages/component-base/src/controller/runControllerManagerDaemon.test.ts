import { newFeatureGates } from '../featuregate/defaultFeatureGates';
import { Logger } from '../logs/logger';
import { controllerManagerFlagSets } from '../options/daemonFlagSets';
import { parseFlags } from '../options/parseFlags';
import type { ControllerManagerDeps } from './runControllerManagerDaemon';
import { runControllerManagerDaemon } from './runControllerManagerDaemon';

describe('runControllerManagerDaemon', () => {
  async function depsOf(featureGates?: ReturnType<typeof newFeatureGates>): Promise<ControllerManagerDeps> {
    const { flags } = parseFlags(['--leader-elect=false'], controllerManagerFlagSets());
    const logger = new Logger({}, { stderr: { write: () => true }, program: 'test' });
    let deps: ControllerManagerDeps | undefined;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const handle = runControllerManagerDaemon(
      { flags, logger, ...(featureGates ? { featureGates } : {}) },
      {
        name: 'test-controller-manager',
        // Nothing is requested: the client is never used.
        restConfig: { server: 'https://127.0.0.1:1' },
        eventComponent: (name) => name,
        create: (d) => {
          deps = d;
          return { start: async () => started(), stop: async () => {} };
        },
      },
    );
    await running;
    await handle.stop();
    return deps!;
  }

  test("the daemon's feature gates reach the manager", async () => {
    const gates = newFeatureGates({ TTLAfterFinished: true });
    expect((await depsOf(gates)).featureGates).toBe(gates);
  });

  test('without them the manager has none (its controllers read the defaults)', async () => {
    expect((await depsOf()).featureGates).toBeUndefined();
  });
});
