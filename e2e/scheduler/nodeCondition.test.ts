import { NodeKind, type Node } from '@orch/api';
import { clientFor } from '@orch/client';
import { bound, eventAbout, newPod, podScheduled, startSchedulerCluster } from './harness';
import type { SchedulerCluster } from './harness';

// With TaintNodesByCondition off no controller turns node conditions into taints: orch-scheduler
// checks them itself (Kubernetes' CheckNodeCondition and pressure predicates).

describe('orch-scheduler with TaintNodesByCondition off against a real apiserver', () => {
  let cluster: SchedulerCluster;

  beforeAll(async () => {
    cluster = await startSchedulerCluster({ featureGates: { TaintNodesByCondition: false } });
    await cluster.startScheduler(['--pod-initial-backoff-seconds=1', '--pod-max-backoff-seconds=1']);
  });

  afterAll(async () => {
    await cluster?.close();
  });

  const setConditions = async (
    name: string,
    conditions: { type: string; status: string }[],
  ): Promise<void> => {
    const nodes = clientFor(cluster.rest, NodeKind);
    const current = await nodes.get(name);
    await nodes.updateStatus({ ...current, status: { ...current.status, conditions } } as Node);
  };

  it('keeps pods off nodes not ready, under disk pressure or cordoned, and schedules once one recovers', async () => {
    await setConditions('node-1', [{ type: 'Ready', status: 'False' }]);
    await setConditions('node-2', [
      { type: 'Ready', status: 'True' },
      { type: 'DiskPressure', status: 'True' },
    ]);
    const nodes = clientFor(cluster.rest, NodeKind);
    // cordoned, with no taint: tolerating everything does not help
    await nodes.patch('node-3', 'merge', { spec: { unschedulable: true } });
    await cluster.pods.create(newPod('waiting', { cpu: '100m' }, { tolerations: [{ operator: 'Exists' }] }));
    expect(await podScheduled(cluster, 'waiting')).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
    });
    const failed = await eventAbout(cluster, 'FailedScheduling', 'waiting');
    expect(failed.message).toContain(
      '0/3 nodes are available: 1 node(s) had disk pressure, 1 node(s) were not ready, 1 node(s) were unschedulable.',
    );

    await setConditions('node-1', [{ type: 'Ready', status: 'True' }]);
    expect(await bound(cluster, ['waiting'])).toEqual(['node-1']);
  });
});
