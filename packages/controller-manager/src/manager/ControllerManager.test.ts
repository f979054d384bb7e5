import {
  FlagError,
  type ControllerContext,
  type ControllerDescriptor,
  MemoryEventRecorder,
  newFeatureGates,
  type FeatureGates,
} from '@orch/component-base';
import { SharedInformerFactory, type KubeObject, type RestClient } from '@orch/client';
import { RESOURCES } from '../controller/resources';
import { MemoryListerWatchers } from '../testing/MemoryListerWatchers';
import { ControllerManager } from './ControllerManager';
import { CONTROLLER_REGISTRY } from './controllerRegistry';

describe('--controllers', () => {
  test('* runs every built controller that is on by default', () => {
    const { run, notBuilt } = ControllerManager.enabled(['*']);
    expect(run).toEqual([
      'attachdetach',
      'clusterrole-aggregation',
      'cronjob',
      'csrapproving',
      'csrcleaner',
      'csrsigning',
      'daemonset',
      'deployment',
      'disruption',
      'endpoint',
      'garbagecollector',
      'horizontalpodautoscaling',
      'job',
      'namespace',
      'nodeipam',
      'nodelifecycle',
      'persistentvolume-binder',
      'persistentvolume-expander',
      'podgc',
      'pv-protection',
      'pvc-protection',
      'replicaset',
      'replicationcontroller',
      'resourcequota',
      'root-ca-cert-publisher',
      'serviceaccount',
      'serviceaccount-token',
      'statefulset',
      'ttl',
      'ttl-after-finished',
    ]);
    expect(notBuilt).toContain('route');
    expect(notBuilt).not.toContain('attachdetach');
    expect(notBuilt).not.toContain('horizontalpodautoscaling');
    expect(notBuilt).not.toContain('resourcequota');
    expect(notBuilt).not.toContain('statefulset');
    expect(notBuilt).not.toContain('disruption');
    expect(notBuilt).not.toContain('daemonset');
    expect(notBuilt).not.toContain('bootstrapsigner');
  });

  test('-name disables, name enables a disabled-by-default one', () => {
    expect(ControllerManager.enabled(['*', '-deployment']).run).not.toContain('deployment');
    expect(ControllerManager.enabled(['job']).run).toEqual(['job']);
    expect(ControllerManager.enabled(['*', 'tokencleaner']).run).toContain('tokencleaner');
  });

  test('an unknown name is an error naming it', () => {
    expect(() => ControllerManager.enabled(['*', 'nosuch'])).toThrow(FlagError);
    expect(() => ControllerManager.enabled(['*', '-nosuch'])).toThrow(
      '"nosuch" is not in the list of known controllers',
    );
  });
});

describe('starting controllers', () => {
  test('workers come from the concurrency flag, informers are shared and started, unbuilt ones are noted', async () => {
    const memory = new MemoryListerWatchers();
    memory.put(RESOURCES.pods, { metadata: { name: 'p', namespace: 'ns' } });
    const informers = new SharedInformerFactory(undefined, { listerWatcherFor: memory.listerWatcherFor });
    const seen: {
      name: string;
      workers: number;
      syncPeriodMs?: number;
      batchPeriodMs?: number;
      synced: boolean;
    }[] = [];
    const fake = (
      name: string,
      flag?: string,
      syncPeriodFlag?: string,
      batchPeriodFlag?: string,
    ): ControllerDescriptor => ({
      concurrencyFlag: flag,
      syncPeriodFlag,
      batchPeriodFlag,
      start(ctx: ControllerContext) {
        const informer = ctx.informers.informerFor<KubeObject>(RESOURCES.pods);
        const entry = {
          name,
          workers: ctx.workers,
          syncPeriodMs: ctx.syncPeriodMs,
          batchPeriodMs: ctx.batchPeriodMs,
          synced: false,
        };
        seen.push(entry);
        const timer = setInterval(() => {
          if (informer.hasSynced()) entry.synced = true;
        }, 5);
        return { stop: async () => clearInterval(timer) };
      },
    });
    const notices: string[] = [];
    const warnings: string[] = [];
    const manager = new ControllerManager({
      controllers: ['deployment', 'replicaset', 'route', 'garbagecollector'],
      informers,
      clientFor: async () => ({}) as RestClient,
      recorderFor: () => new MemoryEventRecorder(),
      workers: (flag) => (flag === 'concurrent-deployment-syncs' ? 7 : undefined),
      bool: (flag) => (flag === 'enable-collecting' ? false : undefined),
      duration: (flag) =>
        flag === 'deployment-controller-sync-period'
          ? 30_000
          : flag === 'endpoint-updates-batch-period'
            ? 500
            : undefined,
      flagGiven: (flag) =>
        ['route-reconciliation-period', 'root-ca-file', 'concurrent-deployment-syncs'].includes(flag),
      logger: { info: (m) => notices.push(m), warning: (m) => warnings.push(m), error: () => {} },
      registry: {
        deployment: fake('deployment', 'concurrent-deployment-syncs', 'deployment-controller-sync-period'),
        replicaset: fake(
          'replicaset',
          'concurrent-replicaset-syncs',
          undefined,
          'endpoint-updates-batch-period',
        ),
        // enabled, but its enabledFlag is given as false
        garbagecollector: { ...fake('garbagecollector'), enabledFlag: 'enable-collecting' },
      },
    });
    expect(await manager.start()).toEqual(['deployment', 'replicaset']);
    expect(notices).toContain('"route" is enabled but not built into this controller manager yet; skipping');
    // a given flag of an enabled but unbuilt controller is named; one of a running controller, or of
    // controllers not enabled, is not
    expect(warnings).toEqual([
      '--route-reconciliation-period has no effect: it configures "route", not built into this controller manager yet',
      '"garbagecollector" is disabled by --enable-collecting=false',
    ]);
    expect(seen.map((s) => [s.name, s.workers, s.syncPeriodMs, s.batchPeriodMs])).toEqual([
      ['deployment', 7, 30_000, 0],
      ['replicaset', 1, 0, 500],
    ]);
    const deadline = Date.now() + 5000;
    while (!seen.every((s) => s.synced) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(seen.every((s) => s.synced)).toBe(true);
    expect(informers.informerFor(RESOURCES.pods).lister().namespace('ns').get('p')).toBeDefined();
    await manager.stop();
  });

  test('a controller reads its numeric flags through ctx.flags', async () => {
    const read: (number | undefined)[] = [];
    const manager = new ControllerManager({
      controllers: ['podgc'],
      informers: new SharedInformerFactory(undefined, {
        listerWatcherFor: new MemoryListerWatchers().listerWatcherFor,
      }),
      clientFor: async () => ({}) as RestClient,
      recorderFor: () => new MemoryEventRecorder(),
      workers: () => undefined,
      number: (flag) => (flag === 'terminated-pod-gc-threshold' ? 100 : undefined),
      logger: { info: () => {}, warning: () => {}, error: () => {} },
      registry: {
        podgc: {
          start(ctx) {
            read.push(ctx.flags?.number('terminated-pod-gc-threshold'), ctx.flags?.number('other'));
            return { stop: async () => {} };
          },
        },
      },
    });
    expect(await manager.start()).toEqual(['podgc']);
    expect(read).toEqual([100, undefined]);
    await manager.stop();
  });

  describe('feature gates', () => {
    async function start(featureGates?: FeatureGates) {
      const warnings: string[] = [];
      const seen: (FeatureGates | undefined)[] = [];
      const manager = new ControllerManager({
        controllers: ['ttl-after-finished', 'podgc'],
        informers: new SharedInformerFactory(undefined, {
          listerWatcherFor: new MemoryListerWatchers().listerWatcherFor,
        }),
        clientFor: async () => ({}) as RestClient,
        recorderFor: () => new MemoryEventRecorder(),
        workers: () => undefined,
        featureGates,
        logger: { info: () => {}, warning: (m) => warnings.push(m), error: () => {} },
        registry: {
          'ttl-after-finished': {
            featureGate: 'TTLAfterFinished',
            start: () => ({ stop: async () => {} }),
          },
          podgc: {
            start(ctx) {
              seen.push(ctx.featureGates);
              return { stop: async () => {} };
            },
          },
        },
      });
      const running = await manager.start();
      await manager.stop();
      return { running, warnings, seen };
    }

    test('a controller of an alpha gate is skipped while the gate keeps its default (off)', async () => {
      const { running, warnings } = await start();
      expect(running).toEqual(['podgc']);
      expect(warnings).toEqual(['Skipping "ttl-after-finished": the TTLAfterFinished feature gate is off']);
    });

    test('it runs with its gate on, and the gates reach every controller', async () => {
      const gates = newFeatureGates({ TTLAfterFinished: true });
      const { running, warnings, seen } = await start(gates);
      expect(running).toEqual(['podgc', 'ttl-after-finished']);
      expect(warnings).toEqual([]);
      expect(seen).toEqual([gates]);
    });

    test('the registry ties ttl-after-finished to TTLAfterFinished', () => {
      expect(CONTROLLER_REGISTRY['ttl-after-finished']?.featureGate).toBe('TTLAfterFinished');
    });

    test('the registry ties persistentvolume-expander to ExpandPersistentVolumes', () => {
      expect(CONTROLLER_REGISTRY['persistentvolume-expander']).toMatchObject({
        featureGate: 'ExpandPersistentVolumes',
        serviceAccount: 'expand-controller',
        eventComponent: 'volume_expand',
      });
    });
  });
});
