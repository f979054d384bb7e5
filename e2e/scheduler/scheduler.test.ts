import { EndpointsKind, ServiceKind, type Pod } from '@orch/api';
import http from 'node:http';
import { eventually, freePort } from '@orch/apiserver';
import { clientFor, sleep } from '@orch/client';
import type { InProcessDaemon } from '../harness/inProcessDaemon';
import { bound, eventAbout, newPod, podScheduled, startSchedulerCluster } from './harness';
import type { SchedulerCluster } from './harness';

function pod(name: string, cpu: string, schedulerName?: string): Pod {
  return newPod(name, { cpu, memory: '256Mi' }, schedulerName ? { schedulerName } : {});
}

describe('orch-scheduler against a real apiserver', () => {
  let cluster: SchedulerCluster;
  let pods: SchedulerCluster['pods'];
  let first: InProcessDaemon;

  /** Runs orch-scheduler in-process through runDaemon, as its bin does, with leader election on. */
  function startScheduler(): InProcessDaemon {
    return cluster.runScheduler([
      '--leader-elect=true',
      '--orch-api-qps=500',
      '--orch-api-burst=500',
      '--leader-elect-retry-period=200ms',
      '--leader-elect-renew-deadline=1s',
      '--leader-elect-lease-duration=2s',
    ]);
  }

  async function lockHolder(): Promise<string | undefined> {
    const endpoints = clientFor(cluster.rest, EndpointsKind, { namespace: 'orch-system' });
    const lock = await endpoints.get('orch-scheduler').catch(() => undefined);
    const record = lock?.metadata?.annotations?.['control-plane.alpha.kubernetes.io/leader'];
    return record
      ? (JSON.parse(record) as { holderIdentity?: string }).holderIdentity || undefined
      : undefined;
  }

  beforeAll(async () => {
    cluster = await startSchedulerCluster();
    pods = cluster.pods;
    first = startScheduler();
  });

  afterAll(async () => {
    await cluster?.close();
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
    const scheduled = await eventAbout(cluster, 'Scheduled', 'web-0');
    expect(scheduled.message).toBe(
      `Successfully assigned default/web-0 to ${placed.find((p) => p.metadata?.name === 'web-0')!.spec!.nodeName}`,
    );
    expect(scheduled.type).toBe('Normal');
  });

  it('leaves a pod that fits nowhere Pending with PodScheduled=False and a FailedScheduling event', async () => {
    await pods.create(pod('huge', '16'));
    expect(await podScheduled(cluster, 'huge')).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message:
        '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..',
    });
    const failed = await eventAbout(cluster, 'FailedScheduling', 'huge');
    expect(failed.message).toBe(
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..',
    );
    expect(failed.type).toBe('Warning');
    expect((await pods.get('huge')).spec?.nodeName).toBeUndefined();
  });

  it('tries an unschedulable pod again when a Service is added, as Kubernetes does', async () => {
    const failures = async () => (await eventAbout(cluster, 'FailedScheduling', 'huge')).count ?? 0;
    // settled: nothing else moves unschedulable pods here (the nodes are static), and the next
    // periodic retry of `huge` is a minute after its last attempt
    let before = await failures();
    await eventually(async () => {
      await sleep(1_500);
      const now = await failures();
      const settled = now === before;
      before = now;
      return settled || undefined;
    }, 'no more attempts at huge');
    const services = clientFor(cluster.rest, ServiceKind, { namespace: 'default' });
    await services.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'huge' },
      spec: { selector: { app: 'huge' }, ports: [{ port: 80 }] },
    });
    await eventually(async () => ((await failures()) > before ? true : undefined), 'another attempt at huge');
  });

  it('ignores pods of another scheduler', async () => {
    await pods.create(pod('foreign', '100m', 'my-scheduler'));
    await pods.create(pod('marker', '100m'));
    await bound(cluster, ['marker']);
    await sleep(300);
    const foreign = await pods.get('foreign');
    expect(foreign.spec?.nodeName).toBeUndefined();
    expect(foreign.status?.conditions ?? []).toEqual([]);
  });

  it('holds a pod with scheduling gates until the last gate is removed', async () => {
    const gated = pod('gated', '100m');
    gated.spec!.schedulingGates = [{ name: 'example.com/quota' }, { name: 'example.com/approval' }];
    await pods.create(gated);
    await pods.create(pod('gate-marker', '100m'));
    await bound(cluster, ['gate-marker']);
    await sleep(300);
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
    await sleep(300);
    expect((await pods.get('gated')).spec?.nodeName).toBeUndefined();
    current.spec!.schedulingGates = [];
    await pods.update(current);
    await bound(cluster, ['gated']);
    const scheduled = await eventually(async () => {
      const c = (await pods.get('gated')).status?.conditions?.find((x) => x.type === 'PodScheduled');
      return c?.status === 'True' ? c : undefined;
    }, 'PodScheduled=True');
    expect(scheduled.reason).toBeUndefined();
  });

  it('hands over to a standby replica when the leader stops', async () => {
    const leader = await eventually(lockHolder, 'a leader');
    startScheduler();
    await sleep(600);
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
    await bound(cluster, ['after-takeover']);
  });

  it('serves health, metrics and configz over plain HTTP to anyone on the deprecated --port', async () => {
    const port = await freePort();
    const replica = cluster.runScheduler([`--port=${port}`, '--address=127.0.0.1']);
    const plain = (path: string) =>
      new Promise<{ status: number; body: string } | undefined>((resolve) => {
        http
          .get(`http://127.0.0.1:${port}${path}`, { agent: false, timeout: 5000 }, (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          })
          .on('error', () => resolve(undefined));
      });
    try {
      expect(await eventually(() => plain('/healthz'), 'the plain port')).toEqual({
        status: 200,
        body: 'ok',
      });
      const metrics = await plain('/metrics');
      expect(metrics?.status).toBe(200);
      expect(metrics?.body).toContain('# TYPE');
      expect((await plain('/configz'))?.status).toBe(200);
      expect((await plain('/nothing'))?.status).toBe(404);
    } finally {
      await replica.stop();
    }
  });
});
