import type { Lease, Node } from '@orch/api';
import { StatusError } from '@orch/client';
import { Logger } from '@orch/component-base';
import { FakeClock } from '../scheduling/Clock';
import { DueQueue } from '../scheduling/DueQueue';
import { NodeHeartbeats, type NodeHeartbeatsOptions } from './NodeHeartbeats';
import { simulatedNode } from './nodeObjects';

const T0 = Date.parse('2026-01-01T00:00:00Z');

/** In-memory nodes and leases recording every write with its time. */
function fakeApi(clock: FakeClock, opts: { keepStatusOnCreate: boolean }) {
  const nodes = new Map<string, Node>();
  const leases = new Map<string, Lease>();
  const writes: string[] = [];
  const statusPatches: Node['status'][] = [];
  let rv = 0;
  const stamp = <T extends { metadata?: object }>(o: T): T =>
    ({ ...o, metadata: { ...o.metadata, resourceVersion: String(++rv), uid: 'uid' } }) as T;
  const notFound = () => new StatusError({ code: 404, reason: 'NotFound', message: 'not found' });
  const at = () => `${(clock.now() - T0) / 1000}s`;
  return {
    nodes,
    leases,
    writes,
    statusPatches,
    nodeClient: {
      create: async (n: Node) => {
        writes.push(`${at()} create node ${n.metadata?.name}`);
        const stored = stamp(opts.keepStatusOnCreate ? n : { ...n, status: {} });
        nodes.set(n.metadata!.name!, stored);
        return stored;
      },
      get: async (name: string) => nodes.get(name) ?? Promise.reject(notFound()),
      update: async (n: Node) => stamp(n),
      patch: async (name: string, _kind: string, patch: unknown) => {
        writes.push(`${at()} status ${name}`);
        statusPatches.push((patch as Node).status);
        const stored = stamp({
          ...nodes.get(name)!,
          status: { ...nodes.get(name)!.status, ...(patch as Node).status },
        });
        nodes.set(name, stored);
        return stored;
      },
    },
    leaseClient: {
      create: async (l: Lease) => {
        writes.push(`${at()} create lease ${l.metadata?.name}`);
        const stored = stamp(l);
        leases.set(l.metadata!.name!, stored);
        return stored;
      },
      get: async (name: string) => leases.get(name) ?? Promise.reject(notFound()),
      update: async (l: Lease) => {
        const current = leases.get(l.metadata!.name!)!;
        if (current.metadata?.resourceVersion !== l.metadata?.resourceVersion) {
          writes.push(`${at()} conflict lease ${l.metadata?.name}`);
          throw new StatusError({ code: 409, reason: 'Conflict', message: 'the object has been modified' });
        }
        writes.push(`${at()} renew lease ${l.metadata?.name}`);
        const stored = stamp(l);
        leases.set(l.metadata!.name!, stored);
        return stored;
      },
    },
  };
}

function setup(
  count: number,
  keepStatusOnCreate: boolean,
  externalCloudProvider = false,
  volumes: Pick<NodeHeartbeatsOptions, 'volumesInUse' | 'onStatusPosted' | 'images'> = {},
) {
  const clock = new FakeClock(T0);
  const api = fakeApi(clock, { keepStatusOnCreate });
  const specs = Array.from({ length: count }, (_, i) =>
    simulatedNode(`n${i}`, i, {
      labels: {},
      taints: [],
      capacity: { cpu: '1' },
      reserved: {},
      version: 'v1',
      bootID: 'b',
      externalCloudProvider,
    }),
  );
  const events: string[] = [];
  const queue = new DueQueue({
    clock,
    concurrency: 8,
    handler: (key) => {
      const [kind, name] = key.split('/') as ['register' | 'lease' | 'status', string];
      return heartbeats.handle(kind, name);
    },
  });
  const heartbeats: NodeHeartbeats = new NodeHeartbeats({
    nodes: specs,
    nodeClient: api.nodeClient,
    leaseClient: api.leaseClient,
    queue,
    clock,
    leaseDurationSeconds: 40,
    statusUpdateFrequencyMs: 10_000,
    statusReportFrequencyMs: 60_000,
    logger: new Logger({}, { stderr: { write: () => true } }),
    recorderFor: (node) => ({
      event: (_o, _t, reason) => events.push(`${node} ${reason}`),
      annotatedEvent: () => undefined,
    }),
    ...volumes,
  });
  const tick = async (ms: number, step = 100) => {
    for (let t = 0; t < ms; t += step) {
      clock.advance(step);
      for (let i = 0; i < 20; i++) await Promise.resolve();
    }
  };
  return { clock, api, heartbeats, queue, events, tick };
}

describe('NodeHeartbeats', () => {
  it('registers with status, takes the lease at once and renews it every quarter of its duration in its slot', async () => {
    const { api, heartbeats, queue, events, tick } = setup(2, true);
    heartbeats.start();
    await tick(100);
    expect(heartbeats.allRegistered()).toBe(true);
    expect(api.writes).toEqual([
      '0s create node n0',
      '0s create node n1',
      '0.1s create lease n0',
      '0.1s create lease n1',
    ]);
    expect(api.leases.get('n1')?.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Node', name: 'n1' });
    expect(events.filter((e) => e.startsWith('n0'))).toEqual([
      'n0 Starting',
      'n0 NodeReady',
      'n0 RegisteredNode',
    ]);
    api.writes.length = 0;
    await tick(30_000);
    // n0 sits at 0 s and n1 at 5 s of each 10 s renew period from the start.
    expect(api.writes).toEqual([
      '5s renew lease n1',
      '10s renew lease n0',
      '15s renew lease n1',
      '20s renew lease n0',
      '25s renew lease n1',
      '30s renew lease n0',
    ]);
    await queue.stop();
  });

  it('posts status through nodes/status when the server dropped it, then only every report period', async () => {
    const { api, heartbeats, queue, tick } = setup(1, false);
    heartbeats.start();
    await tick(100);
    expect(api.writes.slice(0, 3)).toEqual(['0s create node n0', '0.1s status n0', '0.1s create lease n0']);
    expect(api.nodes.get('n0')?.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    await tick(130_000, 1000);
    // Computed every 10 s (at 10 s, 20 s, ...), posted at the first check 60 s or more after the last report.
    expect(api.writes.filter((w) => w.includes('status'))).toEqual([
      '0.1s status n0',
      '70s status n0',
      '130s status n0',
    ]);
    await queue.stop();
  });

  it('with an external cloud provider, registers with addresses but leaves them to the cloud afterwards', async () => {
    const { api, heartbeats, queue, tick } = setup(1, true, true);
    heartbeats.start();
    await tick(100);
    expect(api.nodes.get('n0')?.status?.addresses).toEqual([
      { type: 'InternalIP', address: '172.18.0.1' },
      { type: 'Hostname', address: 'n0' },
    ]);
    await tick(130_000, 1000);
    expect(api.statusPatches.length).toBeGreaterThan(0);
    expect(api.statusPatches.every((s) => s?.addresses === undefined)).toBe(true);
    expect(api.statusPatches.every((s) => s?.conditions?.some((c) => c.type === 'Ready'))).toBe(true);
    await queue.stop();
  });

  it('reports the volumes in use, posting at once when they change, and takes them out with null', async () => {
    let inUse: string[] = [];
    const posted: (string[] | undefined)[] = [];
    const { api, heartbeats, queue, tick } = setup(1, true, false, {
      volumesInUse: () => inUse,
      onStatusPosted: (node) => posted.push(node.status?.volumesInUse),
    });
    heartbeats.start();
    await tick(100);
    api.writes.length = 0;
    inUse = ['kubernetes.io/csi/d^h'];
    heartbeats.statusChanged('n0');
    await tick(100);
    expect(api.writes).toEqual(['0.1s status n0']);
    expect(api.statusPatches.at(-1)?.volumesInUse).toEqual(['kubernetes.io/csi/d^h']);
    expect(posted).toEqual([['kubernetes.io/csi/d^h']]);
    inUse = [];
    heartbeats.statusChanged('n0');
    await tick(100);
    expect(api.statusPatches.at(-1)?.volumesInUse).toBeNull();
    await queue.stop();
  });

  it('reports the images on the node, posting at once when they change', async () => {
    let images: { names: string[]; sizeBytes: number }[] = [];
    const { api, heartbeats, queue, tick } = setup(1, true, false, { images: () => images });
    heartbeats.start();
    await tick(100);
    expect(api.statusPatches.at(-1)?.images).toBeUndefined();
    api.writes.length = 0;
    images = [{ names: ['nginx@sha256:00', 'nginx:latest'], sizeBytes: 1 }];
    heartbeats.statusChanged('n0');
    await tick(100);
    expect(api.writes).toEqual(['0.1s status n0']);
    expect(api.statusPatches.at(-1)?.images).toEqual(images);
    await queue.stop();
  });

  it('takes the lease again after a conflict', async () => {
    const { api, heartbeats, queue, tick } = setup(1, true);
    heartbeats.start();
    await tick(100);
    // Someone else writes the lease.
    const l = api.leases.get('n0')!;
    api.leases.set('n0', { ...l, metadata: { ...l.metadata, resourceVersion: '999' } });
    api.writes.length = 0;
    await tick(10_000);
    // The retry takes the next turn of the queue (the fake clock moves in 100 ms steps).
    expect(api.writes).toEqual(['10s conflict lease n0', '10.1s renew lease n0']);
    await queue.stop();
  });
});
