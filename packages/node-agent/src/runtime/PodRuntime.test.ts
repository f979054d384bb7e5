import type { ObjectReference, Pod } from '@orch/api';
import { StatusError, type EventRecorder } from '@orch/client';
import { Logger } from '@orch/component-base';
import { simulatedNode } from '../node/nodeObjects';
import { FakeClock } from '../scheduling/Clock';
import { DueQueue } from '../scheduling/DueQueue';
import type { PodVolumeGate } from '../volume/VolumeManager';
import { PodRuntime } from './PodRuntime';

const T0 = Date.parse('2026-01-01T00:00:00Z');

/** An in-memory pods API: resourceVersions, conflicts on stale writes, deletions. */
class FakePods {
  readonly pods = new Map<string, Pod>();
  readonly calls: string[] = [];
  private rv = 1;
  conflictsToInject = 0;

  put(pod: Pod): Pod {
    const stored = { ...pod, metadata: { ...pod.metadata, resourceVersion: String(++this.rv) } } as Pod;
    this.pods.set(pod.metadata!.name!, stored);
    return stored;
  }

  async get(name: string): Promise<Pod> {
    this.calls.push(`get ${name}`);
    const p = this.pods.get(name);
    if (!p) throw new StatusError({ code: 404, reason: 'NotFound', message: `pods "${name}" not found` });
    return p;
  }

  async updateStatus(pod: Pod): Promise<Pod> {
    this.calls.push(`status ${pod.metadata?.name} ${pod.status?.phase}`);
    const current = this.pods.get(pod.metadata!.name!);
    if (!current) throw new StatusError({ code: 404, reason: 'NotFound', message: 'not found' });
    if (this.conflictsToInject > 0 || current.metadata?.resourceVersion !== pod.metadata?.resourceVersion) {
      this.conflictsToInject = Math.max(0, this.conflictsToInject - 1);
      this.put({ ...current });
      throw new StatusError({ code: 409, reason: 'Conflict', message: 'the object has been modified' });
    }
    return this.put({ ...current, status: pod.status });
  }

  async delete(
    name: string,
    opts: { gracePeriodSeconds?: number; preconditions?: { uid?: string } },
  ): Promise<Pod> {
    this.calls.push(`delete ${name} grace=${opts.gracePeriodSeconds} uid=${opts.preconditions?.uid}`);
    const p = this.pods.get(name)!;
    this.pods.delete(name);
    return p;
  }
}

function setup(startLatencyMs = 0, volumes?: PodVolumeGate) {
  const clock = new FakeClock(T0);
  const api = new FakePods();
  const events: string[] = [];
  const recorder: EventRecorder = {
    event: (obj, type, reason, message) =>
      events.push(`${(obj as ObjectReference).fieldPath} ${type} ${reason} ${message}`),
    annotatedEvent: () => undefined,
  };
  const node = simulatedNode('n0', 0, {
    labels: {},
    taints: [],
    capacity: { cpu: '4' },
    reserved: {},
    version: 'v1',
    bootID: 'b',
  });
  const queue = new DueQueue({
    clock,
    concurrency: 4,
    handler: (key) => runtime.handle(key.slice('pod/'.length)),
  });
  const runtime: PodRuntime = new PodRuntime({
    podClient: api,
    queue,
    clock,
    nodeFor: (name) => (name === 'n0' ? node : undefined),
    startLatencyMs,
    runDurationMs: 3000,
    logger: new Logger({}, { stderr: { write: () => true } }),
    recorderFor: () => recorder,
    ...(volumes ? { volumes } : {}),
  });
  const create = (name: string, nodeName: string, restartPolicy = 'Always'): Pod => {
    const pod = api.put({
      metadata: { name, namespace: 'default', uid: `uid-${name}` },
      spec: { nodeName, restartPolicy, containers: [{ name: 'app', image: 'nginx' }] },
      status: { phase: 'Pending' },
    } as Pod);
    runtime.onPod(pod);
    return pod;
  };
  /** Advances the clock and lets the writes finish, feeding the stored pods back as the informer would. */
  const tick = async (ms: number) => {
    clock.advance(ms);
    for (let i = 0; i < 20; i++) await Promise.resolve();
  };
  return { clock, api, events, runtime, queue, create, tick };
}

describe('PodRuntime', () => {
  it('keeps a pod ContainerCreating until its volumes are mounted, then starts its containers', async () => {
    let mountedAt = Infinity;
    const gate: PodVolumeGate = {
      waitForAttachAndMount: async () =>
        T0 + 1000 >= mountedAt ? { ready: true } : { ready: false, retryAt: T0 + 1000 },
    };
    const { api, create, tick, queue } = setup(0, gate);
    create('web', 'n0');
    await tick(0);
    const waiting = api.pods.get('web')!;
    expect(waiting.status?.phase).toBe('Pending');
    expect(waiting.status?.containerStatuses?.[0]?.state).toEqual({
      waiting: { reason: 'ContainerCreating' },
    });
    mountedAt = T0 + 1000;
    await tick(1000);
    const running = api.pods.get('web')!;
    expect(running.status?.phase).toBe('Running');
    expect(running.status?.containerStatuses?.[0]?.state).toEqual({
      running: { startedAt: '2026-01-01T00:00:01Z' },
    });
    await queue.stop();
  });

  it('starts a pod bound to its node and records Pulled, Created and Started', async () => {
    const { api, events, create, tick, queue } = setup();
    create('web', 'n0');
    await tick(0);
    const pod = api.pods.get('web')!;
    expect(pod.status?.phase).toBe('Running');
    expect(pod.status?.podIP).toBe('10.244.0.2');
    expect(events).toEqual([
      'spec.containers{app} Normal Pulled Successfully pulled image "nginx" in 0s',
      'spec.containers{app} Normal Created Created container app',
      'spec.containers{app} Normal Started Started container app',
    ]);
    await queue.stop();
  });

  it("lists the image of a container that ran among its node's images", async () => {
    const { runtime, create, tick, queue } = setup();
    expect(runtime.nodeImages('n0')).toEqual([]);
    create('web', 'n0');
    await tick(0);
    expect(runtime.nodeImages('n0').map((i) => i.names?.[1])).toEqual(['nginx:latest']);
    await queue.stop();
  });

  it('ignores pods bound to other nodes', async () => {
    const { api, create, tick, runtime, queue } = setup();
    create('elsewhere', 'n9');
    await tick(0);
    expect(runtime.size).toBe(0);
    expect(api.calls).toEqual([]);
    await queue.stop();
  });

  it('moves a Never pod from Pending through Running to Succeeded on the clock', async () => {
    const { api, create, tick, queue } = setup(1000);
    create('job', 'n0', 'Never');
    await tick(0);
    expect(api.pods.get('job')!.status?.phase).toBe('Pending');
    await tick(1000);
    expect(api.pods.get('job')!.status?.phase).toBe('Running');
    await tick(2999);
    expect(api.pods.get('job')!.status?.phase).toBe('Running');
    await tick(1);
    expect(api.pods.get('job')!.status?.phase).toBe('Succeeded');
    expect(api.calls.filter((c) => c.startsWith('status'))).toEqual([
      'status job Pending',
      'status job Running',
      'status job Succeeded',
    ]);
    // The finished pod's IP went back to the node's pool.
    create('next', 'n0');
    await tick(0);
    await tick(1000);
    expect(api.pods.get('job')!.status?.podIP).toBe('10.244.0.2');
    expect(api.pods.get('next')!.status?.podIP).toBe('10.244.0.2');
    await queue.stop();
  });

  it('retries a status write that meets a conflict with the fresh pod', async () => {
    const { api, create, tick, queue } = setup();
    api.conflictsToInject = 1;
    create('web', 'n0');
    await tick(0);
    expect(api.calls).toEqual(['status web Running', 'get web', 'status web Running']);
    expect(api.pods.get('web')!.status?.phase).toBe('Running');
    await queue.stop();
  });

  it('stops and deletes a pod marked for deletion with grace period 0 and its UID', async () => {
    const { api, events, create, tick, runtime, queue } = setup();
    create('web', 'n0');
    await tick(0);
    const running = api.pods.get('web')!;
    const deleting = api.put({
      ...running,
      metadata: {
        ...running.metadata,
        deletionTimestamp: '2026-01-01T00:00:30Z',
        deletionGracePeriodSeconds: 30,
      },
    } as Pod);
    runtime.onPod(deleting);
    await tick(0);
    expect(events.at(-1)).toBe('spec.containers{app} Normal Killing Stopping container app');
    expect(api.calls.slice(-2)).toEqual(['status web Succeeded', 'delete web grace=0 uid=uid-web']);
    expect(api.pods.has('web')).toBe(false);
    expect(runtime.size).toBe(0);
    await queue.stop();
  });
});
