import { EventEmitter } from 'node:events';
import { EndpointsKind, EventKind, NodeKind, PodKind, type Node, type Pod } from '@orch/api';
import { eventually, startTestAPIServer, type TestAPIServer } from '@orch/apiserver';
import { buildConfigFromFlags, clientFor, RestClient } from '@orch/client';
import { daemonValidators, runDaemon } from '@orch/component-base';
import {
  buildSchedulerConfig,
  orchSchedulerFlagSets,
  runScheduler,
  type SchedulerConfiguration,
} from '@orch/scheduler';

function node(name: string): Node {
  const resources = { cpu: '4', memory: '8Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    status: { capacity: resources, allocatable: resources, conditions: [{ type: 'Ready', status: 'True' }] },
  } as Node;
}

function pod(name: string, cpu: string, schedulerName?: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: {
      containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu, memory: '256Mi' } } }],
      ...(schedulerName ? { schedulerName } : {}),
    },
  } as Pod;
}

interface RunningScheduler {
  stop(): Promise<number>;
  exited: Promise<number>;
}

describe('orch-scheduler against a real apiserver', () => {
  let api: TestAPIServer;
  let rest: RestClient;
  let pods: ReturnType<typeof clientFor<typeof PodKind>>;
  const stderr: string[] = [];
  const running: RunningScheduler[] = [];
  let first: RunningScheduler;

  /** Runs orch-scheduler in-process through runDaemon, as its bin does. */
  function startScheduler(): RunningScheduler {
    const signals = new EventEmitter();
    const log: string[] = [];
    const exited = runDaemon<SchedulerConfiguration>(
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
          '--orch-api-qps=500',
          '--orch-api-burst=500',
          '--leader-elect-retry-period=200ms',
          '--leader-elect-renew-deadline=1s',
          '--leader-elect-lease-duration=2s',
          '-v=2',
        ],
        stdout: { write: () => true },
        stderr: { write: (t: string) => (stderr.push(t), log.push(t)) },
        exit: () => undefined,
        signals,
      },
    );
    // runDaemon listens for signals once the daemon runs: stop only after the caches synced.
    const stop = async (): Promise<number> => {
      await eventually(
        async () => (log.some((l) => l.includes('Caches synced')) ? true : undefined),
        'startup',
      );
      signals.emit('SIGTERM');
      return exited;
    };
    const r = { stop, exited };
    running.push(r);
    return r;
  }

  async function lockHolder(): Promise<string | undefined> {
    const endpoints = clientFor(rest, EndpointsKind, { namespace: 'orch-system' });
    const lock = await endpoints.get('orch-scheduler').catch(() => undefined);
    const record = lock?.metadata?.annotations?.['control-plane.alpha.kubernetes.io/leader'];
    return record
      ? (JSON.parse(record) as { holderIdentity?: string }).holderIdentity || undefined
      : undefined;
  }

  beforeAll(async () => {
    api = await startTestAPIServer({ admissionPlugins: [] });
    rest = new RestClient(buildConfigFromFlags({ kubeconfig: api.kubeconfig }).config);
    pods = clientFor(rest, PodKind, { namespace: 'default' });
    const nodes = clientFor(rest, NodeKind);
    for (const n of ['node-1', 'node-2', 'node-3']) {
      // Status is reset on create, as in Kubernetes; the node agent reports it through nodes/status.
      const created = await nodes.create(node(n));
      await nodes.updateStatus({ ...created, status: node(n).status });
    }
    first = startScheduler();
  });

  afterAll(async () => {
    if (process.env.SCHED_DEBUG) console.log(stderr.join(''));
    await Promise.all(running.map((r) => r.stop()));
    rest?.close();
    await api?.close();
  });

  it('runs against an apiserver whose pods/binding assigns a node (what DefaultBinder relies on)', async () => {
    const probe = await pods.create(pod('binding-probe', '10m', 'no-such-scheduler'));
    await pods.bind(probe, 'node-1');
    expect((await pods.get('binding-probe')).spec?.nodeName).toBe('node-1');
  });

  it('takes the endpoints lock orch-system/orch-scheduler', async () => {
    const holder = await eventually(lockHolder, 'the leader election lock');
    expect(holder).toMatch(/_/);
  });

  it('binds pods through pods/binding, spread by least allocation', async () => {
    for (let i = 0; i < 6; i++) await pods.create(pod(`web-${i}`, '1'));
    const placed = await eventually(async () => {
      const list = await pods.list();
      const web = list.items.filter((p) => p.metadata?.name?.startsWith('web-'));
      return web.every((p) => p.spec?.nodeName) ? web : undefined;
    }, 'six bound pods');
    const perNode = new Map<string, number>();
    for (const p of placed) perNode.set(p.spec!.nodeName!, (perNode.get(p.spec!.nodeName!) ?? 0) + 1);
    expect([...perNode.keys()].sort()).toEqual(['node-1', 'node-2', 'node-3']);
    expect([...perNode.values()]).toEqual([2, 2, 2]);
    for (const p of placed)
      expect(p.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status).toBe('True');
    const events = clientFor(rest, EventKind, { namespace: 'default' });
    const scheduled = await eventually(async () => {
      const list = await events.list();
      const found = list.items.find((e) => e.reason === 'Scheduled' && e.involvedObject?.name === 'web-0');
      return found;
    }, 'a Scheduled event');
    expect(scheduled.message).toBe(
      `Successfully assigned default/web-0 to ${placed.find((p) => p.metadata?.name === 'web-0')!.spec!.nodeName}`,
    );
    expect(scheduled.type).toBe('Normal');
  });

  it('leaves a pod that fits nowhere Pending with PodScheduled=False and a FailedScheduling event', async () => {
    await pods.create(pod('huge', '16'));
    const condition = await eventually(async () => {
      const p = await pods.get('huge');
      return p.status?.conditions?.find((c) => c.type === 'PodScheduled');
    }, 'the PodScheduled condition');
    expect(condition).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message:
        '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..',
    });
    const events = clientFor(rest, EventKind, { namespace: 'default' });
    const failed = await eventually(async () => {
      const list = await events.list();
      return list.items.find((e) => e.reason === 'FailedScheduling' && e.involvedObject?.name === 'huge');
    }, 'a FailedScheduling event');
    expect(failed.message).toBe(
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..',
    );
    expect(failed.type).toBe('Warning');
    expect((await pods.get('huge')).spec?.nodeName).toBeUndefined();
  });

  it('ignores pods of another scheduler', async () => {
    await pods.create(pod('foreign', '100m', 'my-scheduler'));
    await pods.create(pod('marker', '100m'));
    await eventually(async () => (await pods.get('marker')).spec?.nodeName, 'the marker pod bound');
    await new Promise((r) => setTimeout(r, 300));
    const foreign = await pods.get('foreign');
    expect(foreign.spec?.nodeName).toBeUndefined();
    expect(foreign.status?.conditions ?? []).toEqual([]);
  });

  it('holds a pod with scheduling gates until the last gate is removed', async () => {
    const gated = pod('gated', '100m');
    gated.spec!.schedulingGates = [{ name: 'example.com/quota' }, { name: 'example.com/approval' }];
    await pods.create(gated);
    await pods.create(pod('gate-marker', '100m'));
    await eventually(async () => (await pods.get('gate-marker')).spec?.nodeName, 'the marker pod bound');
    await new Promise((r) => setTimeout(r, 300));
    let current = await pods.get('gated');
    expect(current.spec?.nodeName).toBeUndefined();
    expect(current.status?.conditions).toEqual([
      expect.objectContaining({
        type: 'PodScheduled',
        status: 'False',
        reason: 'SchedulingGated',
        message: 'Scheduling is blocked due to non-empty scheduling gates',
      }),
    ]);
    current.spec!.schedulingGates = [{ name: 'example.com/approval' }];
    current = await pods.update(current);
    await new Promise((r) => setTimeout(r, 300));
    expect((await pods.get('gated')).spec?.nodeName).toBeUndefined();
    current.spec!.schedulingGates = [];
    await pods.update(current);
    await eventually(async () => (await pods.get('gated')).spec?.nodeName, 'the ungated pod bound');
    const scheduled = await eventually(async () => {
      const c = (await pods.get('gated')).status?.conditions?.find((x) => x.type === 'PodScheduled');
      return c?.status === 'True' ? c : undefined;
    }, 'PodScheduled=True');
    expect(scheduled.reason).toBeUndefined();
  });

  it('hands over to a standby replica when the leader stops', async () => {
    const leader = await eventually(lockHolder, 'a leader');
    startScheduler();
    await new Promise((r) => setTimeout(r, 600));
    expect(await lockHolder()).toBe(leader);
    expect(await first.stop()).toBe(0);
    const next = await eventually(
      async () => {
        const h = await lockHolder();
        return h && h !== leader ? h : undefined;
      },
      'the standby to take the lock',
      5000,
    );
    expect(next).toMatch(/_/);
    await pods.create(pod('after-takeover', '100m'));
    await eventually(
      async () => (await pods.get('after-takeover')).spec?.nodeName,
      'a binding by the new leader',
    );
  });
});
