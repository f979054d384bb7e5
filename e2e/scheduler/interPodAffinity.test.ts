import type { Pod, PodAffinityTerm } from '@orch/api';
import { eventually } from '@orch/apiserver';
import { sleep } from '@orch/client';
import { bound, HOSTNAME, newPod, nodeOf, podScheduled, startSchedulerCluster } from './harness';
import type { SchedulerCluster } from './harness';

function pod(
  name: string,
  labels: Record<string, string>,
  spec: Partial<NonNullable<Pod['spec']>> = {},
): Pod {
  return newPod(name, { cpu: '100m', memory: '64Mi' }, spec, labels);
}

function withHostPort(p: Pod, hostPort: number): Pod {
  p.spec!.containers[0]!.ports = [{ containerPort: 80, hostPort }];
  return p;
}

const term = (labels: Record<string, string>): PodAffinityTerm => ({
  labelSelector: { matchLabels: labels },
  topologyKey: HOSTNAME,
});

describe('orch-scheduler inter-pod affinity and host ports against a real apiserver', () => {
  let cluster: SchedulerCluster;
  let pods: SchedulerCluster['pods'];

  beforeAll(async () => {
    cluster = await startSchedulerCluster();
    pods = cluster.pods;
    await cluster.startScheduler(['--hard-pod-affinity-symmetric-weight=10']);
  });

  afterAll(async () => {
    await cluster?.close();
  });

  it('accepts --hard-pod-affinity-symmetric-weight without calling it ineffective', () => {
    expect(cluster.log()).not.toContain('hard-pod-affinity-symmetric-weight is accepted but has no effect');
  });

  it('spreads pods with required anti-affinity on the hostname and leaves the extra one Pending', async () => {
    const spread = (name: string) =>
      pod(
        name,
        { app: 'spread' },
        {
          affinity: {
            podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'spread' })] },
          },
        },
      );
    for (let i = 0; i < 4; i++) await pods.create(spread(`spread-${i}`));
    // Whichever pod came last is the one left over; find the three bound ones.
    const names = ['spread-0', 'spread-1', 'spread-2', 'spread-3'];
    const placed = await eventually(async () => {
      const nodes = await Promise.all(names.map((name) => nodeOf(cluster, name)));
      return nodes.filter((n) => n).length === 3 ? nodes : undefined;
    }, 'three spread pods bound');
    expect(new Set(placed.filter((n) => n)).size).toBe(3);
    const pending = names[placed.findIndex((n) => !n)]!;
    expect(await podScheduled(cluster, pending)).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message:
        "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..",
    });
    await sleep(300);
    expect(await nodeOf(cluster, pending)).toBeUndefined();
  });

  it('places pods with required affinity on the node of the pod they select', async () => {
    await pods.create(pod('db', { app: 'db' }));
    const [dbNode] = await bound(cluster, ['db']);
    const clients = ['client-0', 'client-1', 'client-2'];
    for (const name of clients)
      await pods.create(
        pod(
          name,
          { app: 'client' },
          {
            affinity: {
              podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'db' })] },
            },
          },
        ),
      );
    expect(await bound(cluster, clients)).toEqual([dbNode, dbNode, dbNode]);
  });

  it('keeps a pod off a node whose host port is taken', async () => {
    const onNode1 = { nodeSelector: { [HOSTNAME]: 'node-1' } };
    await pods.create(withHostPort(pod('port-a', { app: 'port' }, onNode1), 8080));
    expect(await bound(cluster, ['port-a'])).toEqual(['node-1']);
    // Two more pods asking for the same host port go to the two other nodes.
    await pods.create(withHostPort(pod('port-b', { app: 'port' }), 8080));
    await pods.create(withHostPort(pod('port-c', { app: 'port' }), 8080));
    expect((await bound(cluster, ['port-b', 'port-c'])).sort()).toEqual(['node-2', 'node-3']);
    // A fourth finds the port taken everywhere (NodePorts filters before NodeAffinity, as in Kubernetes).
    await pods.create(withHostPort(pod('port-d', { app: 'port' }, onNode1), 8080));
    expect(await podScheduled(cluster, 'port-d')).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message:
        "0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..",
    });
    expect(await nodeOf(cluster, 'port-d')).toBeUndefined();
  });
});
