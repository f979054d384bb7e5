import { EventKind, LeaseKind, NodeKind, PodKind, type Pod } from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor, isNotFound, type RestClient } from '@orch/client';
import { SIMULATED_EXIT_CODE_ANNOTATION } from '@orch/node-agent';
import { startAgentCluster, type AgentCluster } from './harness';

function pod(
  name: string,
  nodeName: string,
  extra: Partial<NonNullable<Pod['spec']>> = {},
  annotations?: Record<string, string>,
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', ...(annotations ? { annotations } : {}) },
    spec: { nodeName, containers: [{ name: 'app', image: 'nginx' }], ...extra },
  } as Pod;
}

describe('orch-node-agent (simulated) against a real apiserver', () => {
  let cluster: AgentCluster;
  let rest: RestClient;
  let stderr: string[];
  const nodes = () => clientFor(rest, NodeKind);
  const pods = () => clientFor(rest, PodKind, { namespace: 'default' });
  const names = ['sim-0', 'sim-1', 'sim-2'];

  beforeAll(async () => {
    cluster = await startAgentCluster([
      '--nodes=3',
      '--node-name-prefix=sim',
      '--node-labels=tier=sim,zone=a',
      '--register-with-taints=dedicated=sim:PreferNoSchedule',
      '--node-cpu=8',
      '--node-memory=32Gi',
      '--node-reserved=cpu=500m,memory=1Gi',
      '--node-lease-duration-seconds=2',
      '--pod-run-duration=1s',
    ]);
    ({ rest, stderr } = cluster);
  });

  afterAll(async () => {
    await cluster?.close();
  });

  it('registers every node Ready with its labels, taints, capacity and addresses', async () => {
    const registered = await eventually(async () => {
      const list = await nodes().list();
      const ready = list.items.filter((n) =>
        n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
      );
      return ready.length === 3 ? ready : undefined;
    }, 'three Ready nodes');
    expect(registered.map((n) => n.metadata?.name).sort()).toEqual(names);
    const n = registered.find((x) => x.metadata?.name === 'sim-1')!;
    expect(n.metadata?.labels).toMatchObject({
      'kubernetes.io/hostname': 'sim-1',
      'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'node.kubernetes.io/instance-type': 'simulated',
      tier: 'sim',
      zone: 'a',
    });
    expect(n.spec?.taints).toEqual([{ key: 'dedicated', value: 'sim', effect: 'PreferNoSchedule' }]);
    expect(n.spec?.podCIDR).toBe('10.244.1.0/24');
    expect(n.status?.capacity).toMatchObject({
      cpu: '8',
      memory: '32Gi',
      pods: '110',
      'ephemeral-storage': '100Gi',
    });
    expect(n.status?.allocatable).toMatchObject({ cpu: '7500m', memory: '31Gi', pods: '110' });
    expect(n.status?.addresses).toEqual([
      { type: 'InternalIP', address: '172.18.0.2' },
      { type: 'Hostname', address: 'sim-1' },
    ]);
    // no --port: the agent serves nothing, and says so (kubectl logs needs --port, as npm start gives)
    expect(n.status?.daemonEndpoints?.kubeletEndpoint?.Port).toBe(0);
    expect(n.status?.nodeInfo).toMatchObject({
      containerRuntimeVersion: 'orch-sim://1.0',
      operatingSystem: 'linux',
    });
    const ready = n.status?.conditions?.find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({ reason: 'KubeletReady', message: 'kubelet is posting ready status' });
  });

  it('renews each node lease in orch-node-lease', async () => {
    const leases = clientFor(rest, LeaseKind, { namespace: 'orch-node-lease' });
    const first = await eventually(() => leases.get('sim-2').catch(() => undefined), 'the lease of sim-2');
    expect(first.spec).toMatchObject({ holderIdentity: 'sim-2', leaseDurationSeconds: 2 });
    expect(first.spec?.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(first.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Node', name: 'sim-2' });
    const renewed = await eventually(async () => {
      const l = await leases.get('sim-2');
      return l.spec?.renewTime !== first.spec?.renewTime ? l : undefined;
    }, 'a renewal');
    expect(Date.parse(renewed.spec!.renewTime!)).toBeGreaterThan(Date.parse(first.spec!.renewTime!));
  });

  it('runs a pod bound to one of its nodes: Running, podIP from the node range, Ready', async () => {
    await pods().create(pod('web', 'sim-1'));
    const running = await eventually(async () => {
      const p = await pods().get('web');
      return p.status?.phase === 'Running' ? p : undefined;
    }, 'a Running pod');
    expect(running.status?.podIP).toMatch(/^10\.244\.1\.\d+$/);
    expect(running.status?.hostIP).toBe('172.18.0.2');
    const cs = running.status?.containerStatuses?.[0];
    expect(cs).toMatchObject({ name: 'app', image: 'nginx', ready: true, started: true, restartCount: 0 });
    expect(cs?.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    expect(cs?.imageID).toMatch(/^docker-pullable:\/\/nginx@sha256:[0-9a-f]{64}$/);
    const conditions = Object.fromEntries(running.status!.conditions!.map((c) => [c.type, c.status]));
    expect(conditions).toEqual({
      Initialized: 'True',
      Ready: 'True',
      ContainersReady: 'True',
      PodScheduled: 'True',
    });
    const events = clientFor(rest, EventKind, { namespace: 'default' });
    const started = await eventually(async () => {
      const list = await events.list();
      return list.items.find((e) => e.reason === 'Started' && e.involvedObject?.name === 'web');
    }, 'a Started event');
    expect(started.message).toBe('Started container app');
    expect(started.source).toMatchObject({ component: 'kubelet', host: 'sim-1' });
    // the image is on the node from now on, and its status lists it (at the next status update)
    const image = await eventually(
      async () => (await nodes().get('sim-1')).status?.images?.find((i) => i.names?.includes('nginx:latest')),
      "nginx in sim-1's status.images",
      30_000,
    );
    expect(image.names?.[0]).toMatch(/^nginx@sha256:[0-9a-f]{64}$/);
    expect(image.sizeBytes).toBeGreaterThan(0);
    expect((await nodes().get('sim-0')).status?.images ?? []).toEqual([]);
  });

  it('completes a restartPolicy Never pod after --pod-run-duration', async () => {
    await pods().create(pod('job', 'sim-0', { restartPolicy: 'Never' }));
    const done = await eventually(async () => {
      const p = await pods().get('job');
      return p.status?.phase === 'Succeeded' ? p : undefined;
    }, 'a Succeeded pod');
    expect(done.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({
      exitCode: 0,
      reason: 'Completed',
    });
    expect(done.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'PodCompleted',
    });
  });

  it('fails a restartPolicy Never pod carrying the exit-code annotation', async () => {
    await pods().create(
      pod('bad', 'sim-2', { restartPolicy: 'Never' }, { [SIMULATED_EXIT_CODE_ANNOTATION]: '3' }),
    );
    const failed = await eventually(async () => {
      const p = await pods().get('bad');
      return p.status?.phase === 'Failed' ? p : undefined;
    }, 'a Failed pod');
    expect(failed.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({
      exitCode: 3,
      reason: 'Error',
    });
  });

  it('ignores pods bound to nodes it does not run', async () => {
    await pods().create(pod('elsewhere', 'other-node'));
    await new Promise((r) => setTimeout(r, 500));
    expect((await pods().get('elsewhere')).status?.phase).toBe('Pending');
    expect((await pods().get('elsewhere')).status?.containerStatuses).toBeUndefined();
  });

  it('honours graceful deletion: a deleted running pod disappears', async () => {
    await pods().delete('web');
    await eventually(
      () =>
        pods()
          .get('web')
          .then(() => undefined)
          .catch((err: unknown) => (isNotFound(err) ? true : undefined)),
      'the pod to disappear',
    );
  });

  it('records the node events and logs no errors', async () => {
    const events = clientFor(rest, EventKind, { namespace: 'default' });
    const reasons = await eventually(async () => {
      const list = await events.list();
      const forNode = list.items.filter(
        (e) => e.involvedObject?.kind === 'Node' && e.involvedObject.name === 'sim-0',
      );
      const seen = new Set(forNode.map((e) => e.reason));
      return ['Starting', 'NodeReady', 'RegisteredNode'].every((r) => seen.has(r)) ? forNode : undefined;
    }, 'the node events');
    expect(reasons.find((e) => e.reason === 'NodeReady')?.message).toBe(
      'Node sim-0 status is now: NodeReady',
    );
    expect(reasons.find((e) => e.reason === 'Starting')?.message).toBe('Starting kubelet.');
    expect(
      stderr
        .join('')
        .split('\n')
        .filter((l) => /^[EF]\d{4} /.test(l)),
    ).toEqual([]);
  });

  it('stops on SIGTERM: heartbeats end, the Nodes stay registered', async () => {
    expect(await cluster.stop()).toBe(0);
    const leases = clientFor(rest, LeaseKind, { namespace: 'orch-node-lease' });
    const before = await leases.get('sim-0');
    await new Promise((r) => setTimeout(r, 1200));
    expect((await leases.get('sim-0')).spec?.renewTime).toBe(before.spec?.renewTime);
    expect((await nodes().list()).items.map((n) => n.metadata?.name).sort()).toEqual(names);
  });
});
