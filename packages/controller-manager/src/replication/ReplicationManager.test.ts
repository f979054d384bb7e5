import { RestClient, SharedInformerFactory } from '@orch/client';
import { MemoryEventRecorder } from '@orch/component-base';
import { ControllerManager } from '../manager/ControllerManager';
import { CONTROLLER_REGISTRY } from '../manager/controllerRegistry';
import { MemoryListerWatchers } from '../testing/MemoryListerWatchers';
import { ReplicationManager } from './ReplicationManager';

test('"replicationcontroller" runs the ReplicationManager with --concurrent_rc_syncs workers, named as Kubernetes names it', async () => {
  const descriptor = CONTROLLER_REGISTRY.replicationcontroller!;
  expect(descriptor).toMatchObject({
    concurrencyFlag: 'concurrent_rc_syncs',
    eventComponent: 'replication-controller',
    serviceAccount: 'replication-controller',
  });
  let workers = 0;
  const memory = new MemoryListerWatchers();
  const client = new RestClient({ server: 'https://127.0.0.1:1' });
  const manager = new ControllerManager({
    controllers: ['replicationcontroller'],
    informers: new SharedInformerFactory(undefined, { listerWatcherFor: memory.listerWatcherFor }),
    clientFor: async () => client,
    recorderFor: () => new MemoryEventRecorder(),
    workers: (flag) => (flag === 'concurrent_rc_syncs' ? 3 : undefined),
    logger: { info: () => {}, warning: () => {}, error: () => {} },
    registry: {
      replicationcontroller: {
        ...descriptor,
        start: (ctx) => {
          workers = ctx.workers;
          return descriptor.start(ctx);
        },
      },
    },
  });
  expect(await manager.start()).toEqual(['replicationcontroller']);
  expect(workers).toBe(3);
  expect(manager.controller('replicationcontroller')).toBeInstanceOf(ReplicationManager);
  await manager.stop();
  client.close();
});
