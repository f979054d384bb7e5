import { ReplicaSetKind, type Pod, type ReplicaSet } from '@orch/api';
import { clientFor } from '@orch/client';
import { bound, newPod, startSchedulerCluster, type SchedulerCluster } from './harness';

// SelectorSpread with a real apiserver and orch-scheduler: pods of one ReplicaSet go to different
// nodes. No controller manager runs: the pods are created as the ReplicaSet's, with its owner reference.

async function createReplicaSet(cluster: SchedulerCluster, name: string): Promise<ReplicaSet> {
  const labels = { app: name };
  return clientFor(cluster.rest, ReplicaSetKind, { namespace: 'default' }).create({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas: 3,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
    },
  } as ReplicaSet);
}

/** A pod of the ReplicaSet, requesting nothing. */
function podOf(rs: ReplicaSet, name: string): Pod {
  const pod = newPod(name, {}, {}, { app: rs.metadata!.name! });
  pod.metadata!.ownerReferences = [
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      name: rs.metadata!.name!,
      uid: rs.metadata!.uid!,
      controller: true,
      blockOwnerDeletion: true,
    },
  ];
  return pod;
}

describe('orch-scheduler SelectorSpread against a real apiserver', () => {
  let cluster: SchedulerCluster;

  beforeAll(async () => {
    cluster = await startSchedulerCluster();
    await cluster.startScheduler();
  });

  afterAll(async () => {
    await cluster?.close();
  });

  it('puts the three pods of a ReplicaSet on three different nodes', async () => {
    const rs = await createReplicaSet(cluster, 'web');
    const names = ['web-a', 'web-b', 'web-c'];
    for (const name of names) {
      await cluster.pods.create(podOf(rs, name));
      await bound(cluster, [name]);
    }
    expect(new Set(await bound(cluster, names)).size).toBe(3);
  });

  it('spreads them even where resource scoring prefers one node', async () => {
    // node-2 and node-3 are busy with other work (every node runs one web pod from the test
    // before), so the resource plugins alone would put every pod of the ReplicaSet on node-1
    await cluster.pods.create(newPod('busy-2', { cpu: '1' }, { nodeName: 'node-2' }, { app: 'batch' }));
    await cluster.pods.create(newPod('busy-3', { cpu: '1' }, { nodeName: 'node-3' }, { app: 'batch' }));
    const rs = await createReplicaSet(cluster, 'api');
    const names = ['api-a', 'api-b', 'api-c'];
    for (const name of names) {
      await cluster.pods.create(podOf(rs, name));
      // each is placed before the next comes, so the counts it sees are the final ones
      await bound(cluster, [name]);
    }
    const nodes = await bound(cluster, names);
    expect(nodes[0]).toBe('node-1');
    expect([...nodes].sort()).toEqual(['node-1', 'node-2', 'node-3']);
  });
});
