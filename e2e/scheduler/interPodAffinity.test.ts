import { EventEmitter } from 'node:events';
import { NodeKind, PodKind, type Node, type Pod, type PodAffinityTerm } from '@orch/api';
import { eventually, startTestAPIServer, type TestAPIServer } from '@orch/apiserver';
import { buildConfigFromFlags, clientFor, RestClient } from '@orch/client';
import { daemonValidators, runDaemon } from '@orch/component-base';
import {
  buildSchedulerConfig,
  orchSchedulerFlagSets,
  runScheduler,
  type SchedulerConfiguration,
} from '@orch/scheduler';

const HOSTNAME = 'kubernetes.io/hostname';
const NODES = ['node-1', 'node-2', 'node-3'];

function node(name: string): Node {
  const resources = { cpu: '4', memory: '8Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { [HOSTNAME]: name } },
    status: { capacity: resources, allocatable: resources, conditions: [{ type: 'Ready', status: 'True' }] },
  } as Node;
}

function pod(
  name: string,
  labels: Record<string, string>,
  spec: Partial<NonNullable<Pod['spec']>> = {},
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels },
    spec: {
      containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '100m', memory: '64Mi' } } }],
      ...spec,
    },
  } as Pod;
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
  let api: TestAPIServer;
  let rest: RestClient;
  let pods: ReturnType<typeof clientFor<typeof PodKind>>;
  const signals = new EventEmitter();
  const log: string[] = [];
  let exited: Promise<number>;

  const nodeOf = async (name: string): Promise<string | undefined> => (await pods.get(name)).spec?.nodeName;
  const bound = (names: string[]): Promise<string[]> =>
    eventually(
      async () => {
        const nodes = await Promise.all(names.map(nodeOf));
        return nodes.every((n) => n) ? (nodes as string[]) : undefined;
      },
      `${names.join(', ')} bound`,
    );
  const podScheduled = (name: string) =>
    eventually(async () => {
      const p = await pods.get(name);
      return p.status?.conditions?.find((c) => c.type === 'PodScheduled');
    }, `the PodScheduled condition of ${name}`);

  beforeAll(async () => {
    api = await startTestAPIServer({ admissionPlugins: [] });
    rest = new RestClient(buildConfigFromFlags({ kubeconfig: api.kubeconfig }).config);
    pods = clientFor(rest, PodKind, { namespace: 'default' });
    const nodes = clientFor(rest, NodeKind);
    for (const n of NODES) {
      const created = await nodes.create(node(n));
      await nodes.updateStatus({ ...created, status: node(n).status });
    }
    exited = runDaemon<SchedulerConfiguration>(
      {
        name: 'orch-scheduler',
        flagSets: orchSchedulerFlagSets(),
        validators: daemonValidators('scheduler'),
        buildConfig: (flags) => buildSchedulerConfig(flags),
        run: runScheduler,
      },
      {
        argv: [
          `--kubeconfig=${api.kubeconfig}`,
          '--secure-port=0',
          '--leader-elect=false',
          '--hard-pod-affinity-symmetric-weight=10',
          '-v=2',
        ],
        stdout: { write: () => true },
        stderr: { write: (t: string) => (log.push(t), true) },
        exit: () => undefined,
        signals,
      },
    );
    await eventually(
      async () => (log.some((l) => l.includes('Caches synced')) ? true : undefined),
      'startup',
    );
  });

  afterAll(async () => {
    if (process.env.SCHED_DEBUG) console.log(log.join(''));
    signals.emit('SIGTERM');
    await exited;
    rest?.close();
    await api?.close();
  });

  it('accepts --hard-pod-affinity-symmetric-weight without calling it ineffective', () => {
    expect(log.join('')).not.toContain('hard-pod-affinity-symmetric-weight is accepted but has no effect');
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
      const nodes = await Promise.all(names.map(nodeOf));
      return nodes.filter((n) => n).length === 3 ? nodes : undefined;
    }, 'three spread pods bound');
    expect(new Set(placed.filter((n) => n)).size).toBe(3);
    const pending = names[placed.findIndex((n) => !n)]!;
    expect(await podScheduled(pending)).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message:
        "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..",
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(await nodeOf(pending)).toBeUndefined();
  });

  it('places pods with required affinity on the node of the pod they select', async () => {
    await pods.create(pod('db', { app: 'db' }));
    const [dbNode] = await bound(['db']);
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
    expect(await bound(clients)).toEqual([dbNode, dbNode, dbNode]);
  });

  it('keeps a pod off a node whose host port is taken', async () => {
    const onNode1 = { nodeSelector: { [HOSTNAME]: 'node-1' } };
    await pods.create(withHostPort(pod('port-a', { app: 'port' }, onNode1), 8080));
    expect(await bound(['port-a'])).toEqual(['node-1']);
    // Two more pods asking for the same host port go to the two other nodes.
    await pods.create(withHostPort(pod('port-b', { app: 'port' }), 8080));
    await pods.create(withHostPort(pod('port-c', { app: 'port' }), 8080));
    expect((await bound(['port-b', 'port-c'])).sort()).toEqual(['node-2', 'node-3']);
    // A fourth finds the port taken everywhere (NodePorts filters before NodeAffinity, as in Kubernetes).
    await pods.create(withHostPort(pod('port-d', { app: 'port' }, onNode1), 8080));
    expect(await podScheduled('port-d')).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message:
        "0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..",
    });
    expect(await nodeOf('port-d')).toBeUndefined();
  });
});
