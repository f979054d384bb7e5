import type { Pod, TopologySpreadConstraint } from '@orch/api';
import { bound, eventAbout, HOSTNAME, newPod, podScheduled, startSchedulerCluster } from './harness';
import type { SchedulerCluster } from './harness';

// PodTopologySpread with a real apiserver and orch-scheduler, the EvenPodsSpread gate on for both
// (alpha, off by default: the apiserver would drop topologySpreadConstraints).

function spreadPod(name: string, constraint: TopologySpreadConstraint): Pod {
  return newPod(name, { cpu: '100m' }, { topologySpreadConstraints: [constraint] }, { app: 'web' });
}

const perNode = (maxSkew: number, topologyKey = HOSTNAME): TopologySpreadConstraint => ({
  maxSkew,
  topologyKey,
  whenUnsatisfiable: 'DoNotSchedule',
  labelSelector: { matchLabels: { app: 'web' } },
});

describe('orch-scheduler PodTopologySpread against a real apiserver', () => {
  let cluster: SchedulerCluster;

  beforeAll(async () => {
    cluster = await startSchedulerCluster({ featureGates: { EvenPodsSpread: true } });
    await cluster.startScheduler(['--pod-initial-backoff-seconds=1', '--pod-max-backoff-seconds=1']);
  });

  afterAll(async () => {
    await cluster?.close();
  });

  it('spreads pods within maxSkew, against what resource scoring prefers', async () => {
    // node-1 runs two web pods and is otherwise idle; node-2 and node-3 are busy with other work,
    // so the resource plugins alone would put every new pod on node-1
    await cluster.pods.create(newPod('web-old-1', { cpu: '100m' }, { nodeName: 'node-1' }, { app: 'web' }));
    await cluster.pods.create(newPod('web-old-2', { cpu: '100m' }, { nodeName: 'node-1' }, { app: 'web' }));
    await cluster.pods.create(newPod('busy-2', { cpu: '3' }, { nodeName: 'node-2' }, { app: 'batch' }));
    await cluster.pods.create(newPod('busy-3', { cpu: '3' }, { nodeName: 'node-3' }, { app: 'batch' }));
    const names = ['web-1', 'web-2', 'web-3', 'web-4'];
    for (const name of names) {
      await cluster.pods.create(spreadPod(name, perNode(1)));
      // each is placed before the next comes, so the counts it sees are the final ones
      await bound(cluster, [name]);
    }
    // 2 / 0 / 0 web pods become 2 / 2 / 2: none of the new ones may go to node-1
    const nodes = await bound(cluster, names);
    expect(nodes.filter((n) => n === 'node-1')).toEqual([]);
    expect(nodes.filter((n) => n === 'node-2')).toHaveLength(2);
    // a fifth would make any node 3 against 2: node-1 is as good as the others again
    await cluster.pods.create(spreadPod('web-5', perNode(1)));
    expect(await bound(cluster, ['web-5'])).toEqual(['node-1']);
  });

  it('leaves a pod whose topology key no node has Pending, saying why', async () => {
    await cluster.pods.create(spreadPod('nowhere', perNode(1, 'topology.kubernetes.io/zone')));
    const scheduled = await podScheduled(cluster, 'nowhere');
    expect(scheduled).toMatchObject({ status: 'False', reason: 'Unschedulable' });
    const failed = await eventAbout(cluster, 'FailedScheduling', 'nowhere');
    expect(failed.message).toContain(
      "0/3 nodes are available: 3 node(s) didn't match pod topology spread constraints (missing required label)",
    );
  });
});
