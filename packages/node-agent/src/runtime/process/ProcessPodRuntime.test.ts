import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Container, ObjectReference, Pod } from '@orch/api';
import { StatusError, type EventRecorder } from '@orch/client';
import { Logger } from '@orch/component-base';
import { simulatedNode } from '../../node/nodeObjects';
import { realClock } from '../../scheduling/Clock';
import { DueQueue } from '../../scheduling/DueQueue';
import type { ConfigMap } from './buildEnv';
import { criLogText } from './logReader';
import { containerLogPath, NO_COMMAND_MESSAGE, ProcessPodRuntime } from './ProcessPodRuntime';

/** An in-memory pods API: resourceVersions, conflicts on stale writes, deletions. */
class Pods {
  readonly pods = new Map<string, Pod>();
  private rv = 1;

  put(pod: Pod): Pod {
    const stored = structuredClone({
      ...pod,
      metadata: { ...pod.metadata, resourceVersion: String(++this.rv) },
    }) as Pod;
    this.pods.set(pod.metadata!.name!, stored);
    return stored;
  }

  async get(name: string): Promise<Pod> {
    const p = this.pods.get(name);
    if (!p) throw new StatusError({ code: 404, reason: 'NotFound', message: `pods "${name}" not found` });
    return p;
  }

  async updateStatus(pod: Pod): Promise<Pod> {
    const current = this.pods.get(pod.metadata!.name!);
    if (!current) throw new StatusError({ code: 404, reason: 'NotFound', message: 'not found' });
    if (current.metadata?.resourceVersion !== pod.metadata?.resourceVersion)
      throw new StatusError({ code: 409, reason: 'Conflict', message: 'the object has been modified' });
    return this.put({ ...current, status: pod.status });
  }

  async delete(name: string): Promise<Pod> {
    const p = await this.get(name);
    this.pods.delete(name);
    return p;
  }
}

describe('ProcessPodRuntime', () => {
  let root: string;
  let api: Pods;
  let events: string[];
  let queue: DueQueue;
  let runtime: ProcessPodRuntime;
  let uid = 0;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'orch-ppr-'));
    api = new Pods();
    events = [];
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
    const configMaps: Record<string, ConfigMap> = {
      settings: { data: { COLOR: 'blue', 'not valid': 'x' } } as ConfigMap,
    };
    queue = new DueQueue({
      clock: realClock,
      concurrency: 4,
      handler: (key) => runtime.handle(key.slice('pod/'.length)),
    });
    runtime = new ProcessPodRuntime({
      podClient: api,
      envSources: {
        configMap: async (_ns, name) => configMaps[name],
        secret: async () => undefined,
      },
      queue,
      clock: realClock,
      nodeFor: (name) => (name === 'n0' ? node : undefined),
      logger: new Logger({}, { stderr: { write: () => true } }),
      recorderFor: () => recorder,
      rootDir: root,
      backoffMs: () => 200,
    });
  });

  afterEach(async () => {
    await queue.stop();
    await runtime.shutdown(1000);
    rmSync(root, { recursive: true, force: true });
  });

  function create(name: string, spec: Partial<NonNullable<Pod['spec']>>): Pod {
    const pod = api.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default', uid: `uid-${++uid}` },
      spec: { nodeName: 'n0', restartPolicy: 'Always', ...spec },
    } as Pod);
    runtime.onPod(pod);
    return pod;
  }

  /** Feeds the runtime its own writes, as the informer would, until `ok` holds for the stored pod. */
  async function until(name: string, ok: (p: Pod) => boolean, timeoutMs = 8000): Promise<Pod> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const p = api.pods.get(name);
      if (p && ok(p)) return p;
      if (Date.now() > deadline) throw new Error(`timed out; last status ${JSON.stringify(p?.status)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const sh = (script: string, extra: Partial<Container> = {}): Container =>
    ({ name: 'app', image: 'busybox', command: ['sh', '-c', script], ...extra }) as Container;

  it('runs a container with its expanded env; its output goes to its log; it completes', async () => {
    create('hello', {
      restartPolicy: 'Never',
      containers: [
        {
          name: 'app',
          image: 'busybox',
          command: ['sh', '-c'],
          // Single quotes keep the shell from reading what expansion left of $(...).
          args: ["echo 'greeting=$(GREETING) literal=$$(GREETING) missing=$(NOPE)' from=$COLOR"],
          env: [
            { name: 'WHO', value: 'world' },
            { name: 'GREETING', value: 'hello $(WHO)' },
          ],
          envFrom: [{ configMapRef: { name: 'settings' } }],
        } as Container,
      ],
    });
    const done = await until('hello', (p) => p.status?.phase === 'Succeeded');
    const cs = done.status!.containerStatuses![0]!;
    expect(cs).toMatchObject({ name: 'app', ready: false, restartCount: 0 });
    expect(cs.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(cs.containerID).toMatch(/^orch-process:\/\/[0-9a-f]{64}$/);
    // on the host's network: the pod's IP is its node's
    expect(done.status?.podIP).toBe(done.status?.hostIP);
    expect(done.status?.podIPs).toEqual([{ ip: done.status?.hostIP }]);
    expect(done.status?.startTime).toBeDefined();
    const conditions = Object.fromEntries(
      done.status!.conditions!.map((c) => [c.type, c.reason ?? c.status]),
    );
    expect(conditions).toEqual({
      Initialized: 'PodCompleted',
      Ready: 'PodCompleted',
      ContainersReady: 'PodCompleted',
      PodScheduled: 'True',
    });
    const log = readFileSync(containerLogPath(root, done, 'app', 0), 'utf8');
    expect(criLogText(log)).toBe('greeting=hello world literal=$(GREETING) missing=$(NOPE) from=blue\n');
    expect(events).toEqual(
      expect.arrayContaining([
        'spec.containers{app} Warning InvalidEnvironmentVariableNames Keys [not valid] from the EnvFrom configMap default/settings were skipped since they are considered invalid environment variable names.',
        'spec.containers{app} Normal Created Created container app',
        'spec.containers{app} Normal Started Started container app',
      ]),
    );
  });

  it('fails a restartPolicy Never pod whose container exits non-zero, its log tail as the message', async () => {
    create('bad', {
      restartPolicy: 'Never',
      containers: [sh('echo something broke; exit 3', { terminationMessagePolicy: 'FallbackToLogsOnError' })],
    });
    const failed = await until('bad', (p) => p.status?.phase === 'Failed');
    expect(failed.status!.containerStatuses![0]!.state?.terminated).toMatchObject({
      exitCode: 3,
      reason: 'Error',
      message: 'something broke\n',
    });
  });

  it('restarts an exiting container of a restartPolicy Always pod with back-off; the message it wrote', async () => {
    create('loop', {
      containers: [sh('echo "run $(date +%N)" > "$ORCH_TERMINATION_MESSAGE_PATH"; exit 2')],
    });
    const looping = await until('loop', (p) => (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 2);
    const cs = looping.status!.containerStatuses![0]!;
    expect(looping.status?.phase).toBe('Running');
    expect(cs.lastState?.terminated).toMatchObject({ exitCode: 2, reason: 'Error' });
    expect(cs.lastState?.terminated?.message).toMatch(/^run \d+\n$/);
    await until(
      'loop',
      (p) => p.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff',
    );
    expect(events).toContain(
      'spec.containers{app} Warning BackOff Back-off restarting failed container app in pod loop_default(uid-' +
        String(uid) +
        ')',
    );
  });

  it('runs init containers in order, each to success (retried on failure), then the app containers', async () => {
    const trace = join(root, 'trace');
    const marker = join(root, 'failed-once');
    create('init', {
      restartPolicy: 'OnFailure',
      initContainers: [
        sh(`echo one >> ${trace}`, { name: 'one' }),
        sh(`echo two >> ${trace}; test -f ${marker} || { touch ${marker}; exit 1; }`, { name: 'two' }),
      ],
      containers: [sh(`echo app >> ${trace}`)],
    });
    const done = await until('init', (p) => p.status?.phase === 'Succeeded');
    expect(readFileSync(trace, 'utf8')).toBe('one\ntwo\ntwo\napp\n');
    expect(done.status!.initContainerStatuses!.map((c) => [c.name, c.restartCount, c.ready])).toEqual([
      ['one', 0, true],
      ['two', 1, true],
    ]);
    expect(done.status!.initContainerStatuses![1]!.lastState?.terminated?.exitCode).toBe(1);
  });

  it('keeps a container with neither command nor args waiting with CreateContainerConfigError', async () => {
    create('nocmd', { containers: [{ name: 'app', image: 'nginx' } as Container] });
    const waiting = await until('nocmd', (p) => p.status?.containerStatuses !== undefined);
    expect(waiting.status?.phase).toBe('Pending');
    expect(waiting.status!.containerStatuses![0]!.state?.waiting).toEqual({
      reason: 'CreateContainerConfigError',
      message: NO_COMMAND_MESSAGE,
    });
    expect(events).toContain(`spec.containers{app} Warning Failed Error: ${NO_COMMAND_MESSAGE}`);
  });

  it('keeps a container whose env source is missing waiting with CreateContainerConfigError', async () => {
    create('nocm', {
      containers: [
        sh('true', { env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'late', key: 'k' } } }] }),
      ],
    });
    const waiting = await until('nocm', (p) => p.status?.containerStatuses !== undefined);
    expect(waiting.status?.phase).toBe('Pending');
    expect(waiting.status!.containerStatuses![0]!.state?.waiting).toEqual({
      reason: 'CreateContainerConfigError',
      message: 'configmap "late" not found',
    });
  });

  it('stops the processes of a deleted pod with SIGTERM, then deletes it', async () => {
    const got = join(root, 'got-term');
    const pod = create('del', {
      terminationGracePeriodSeconds: 5,
      containers: [sh(`trap 'echo term > ${got}; exit 0' TERM; while :; do sleep 0.05; done`)],
    });
    await until('del', (p) => p.status?.phase === 'Running');
    const deleting = api.put({
      ...api.pods.get('del')!,
      metadata: {
        ...api.pods.get('del')!.metadata,
        deletionTimestamp: new Date().toISOString(),
        deletionGracePeriodSeconds: 5,
      },
    });
    runtime.onPod(deleting);
    const deadline = Date.now() + 8000;
    while (api.pods.has('del') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(api.pods.has('del')).toBe(false);
    expect(readFileSync(got, 'utf8')).toBe('term\n');
    expect(events).toContain('spec.containers{app} Normal Killing Stopping container app');
    expect(pod.metadata?.uid).toBeDefined();
  });

  it('restarts a container whose liveness probe fails; readiness drives ready', async () => {
    const flag = join(root, 'ready');
    create('probed', {
      containers: [
        sh('sleep 30', {
          livenessProbe: { exec: { command: ['sh', '-c', 'exit 1'] }, periodSeconds: 1, failureThreshold: 2 },
        }),
        sh('sleep 30', {
          name: 'web',
          readinessProbe: { exec: { command: ['test', '-f', flag] }, periodSeconds: 1 },
        }),
      ],
    });
    const unready = await until(
      'probed',
      (p) => p.status?.containerStatuses?.[1]?.state?.running !== undefined,
    );
    expect(unready.status!.containerStatuses![1]!.ready).toBe(false);
    writeFileSync(flag, '');
    await until('probed', (p) => p.status?.containerStatuses?.[1]?.ready === true);
    const restarted = await until(
      'probed',
      (p) => (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1,
    );
    expect(restarted.status!.containerStatuses![0]!.lastState?.terminated).toMatchObject({ exitCode: 143 });
    expect(events).toEqual(
      expect.arrayContaining([
        'spec.containers{app} Warning Unhealthy Liveness probe failed: ',
        'spec.containers{app} Normal Killing Container app failed liveness probe, will be restarted',
      ]),
    );
    expect(existsSync(flag)).toBe(true);
  });
  it('runs a postStart hook right after the container starts, in its directory and environment', async () => {
    create('poststart', {
      restartPolicy: 'Never',
      containers: [
        sh('while [ ! -f hooked ]; do sleep 0.05; done; cat hooked', {
          lifecycle: {
            postStart: { exec: { command: ['sh', '-c', 'sleep 0.3; echo "by $HOSTNAME" > hooked'] } },
          },
        }),
      ],
    });
    const done = await until('poststart', (p) => p.status?.phase === 'Succeeded');
    expect(criLogText(readFileSync(containerLogPath(root, done, 'app', 0), 'utf8'))).toBe('by poststart\n');
  });

  it('kills a container whose postStart hook fails, with FailedPostStartHook', async () => {
    create('badhook', {
      restartPolicy: 'Never',
      containers: [
        sh('sleep 30', { lifecycle: { postStart: { exec: { command: ['sh', '-c', 'exit 7'] } } } }),
      ],
    });
    const failed = await until('badhook', (p) => p.status?.phase === 'Failed');
    expect(failed.status!.containerStatuses![0]!.state?.terminated).toMatchObject({ exitCode: 143 });
    expect(events).toEqual(
      expect.arrayContaining([
        'spec.containers{app} Warning FailedPostStartHook PostStartHook failed',
        'spec.containers{app} Normal Killing FailedPostStartHook',
      ]),
    );
  });

  it("runs a deleted pod's preStop hook before SIGTERM", async () => {
    const trace = join(root, 'stop-trace');
    create('prestop', {
      containers: [
        sh(`trap 'echo term >> ${trace}; exit 0' TERM; while :; do sleep 0.05; done`, {
          lifecycle: { preStop: { exec: { command: ['sh', '-c', `sleep 0.3; echo prestop >> ${trace}`] } } },
        }),
      ],
    });
    await until('prestop', (p) => p.status?.phase === 'Running');
    runtime.onPod(
      api.put({
        ...api.pods.get('prestop')!,
        metadata: {
          ...api.pods.get('prestop')!.metadata,
          deletionTimestamp: new Date().toISOString(),
          deletionGracePeriodSeconds: 5,
        },
      }),
    );
    const deadline = Date.now() + 8000;
    while (api.pods.has('prestop') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(api.pods.has('prestop')).toBe(false);
    expect(readFileSync(trace, 'utf8')).toBe('prestop\nterm\n');
  });
});
