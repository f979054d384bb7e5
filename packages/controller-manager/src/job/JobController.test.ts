import { formatTime, type Job, type Pod } from '@orch/api';
import { SharedInformerFactory, type KubeObject, type RestClient } from '@orch/client';
import { MemoryEventRecorder, type ControllerContext } from '@orch/component-base';
import { RESOURCES } from '../controller/resources';
import { MemoryListerWatchers } from '../testing/MemoryListerWatchers';
import { JobController } from './JobController';

const INDEX = 'batch.kubernetes.io/job-completion-index';

/**
 * An API server kept in memory for one JobController: pods it creates and deletes, job status it
 * writes, and the informers fed from the same objects. Tests play the kubelet by setting pod phases.
 */
class Cluster {
  readonly memory = new MemoryListerWatchers();
  readonly recorder = new MemoryEventRecorder();
  readonly errors: string[] = [];
  readonly informers = new SharedInformerFactory(undefined, {
    listerWatcherFor: this.memory.listerWatcherFor,
  });
  readonly jobs = new Map<string, Job>();
  readonly pods = new Map<string, Pod>();
  clock = Date.parse('2024-01-01T00:00:00Z');
  private seq = 0;
  controller: JobController | undefined;

  start(): void {
    const ctx: ControllerContext = {
      client: {} as RestClient,
      informers: this.informers,
      recorder: this.recorder,
      logger: { info: () => {}, warning: () => {}, error: (m) => this.errors.push(m) },
      workers: 1,
      now: () => this.clock,
    };
    const controller = new JobController(ctx);
    Object.assign(controller, {
      pods: {
        create: async (pod: Pod) => {
          const n = ++this.seq;
          const stored = this.putPod({
            ...pod,
            metadata: {
              ...pod.metadata,
              name: `${pod.metadata?.generateName}${String(n).padStart(5, '0')}`,
              uid: `pod-${n}`,
              creationTimestamp: formatTime(this.clock + n),
            },
            status: { phase: 'Pending' },
          });
          return stored;
        },
        delete: async (name: string) => {
          const pod = this.pods.get(name);
          if (!pod) return;
          this.pods.delete(name);
          this.memory.remove(RESOURCES.pods, pod as KubeObject);
        },
      },
      jobs: {
        get: async (name: string) => this.jobs.get(name),
        updateStatus: async (job: Job) => {
          const current = this.jobs.get(job.metadata!.name!)!;
          return this.putJob({ ...current, status: job.status });
        },
      },
    });
    this.controller = controller;
    this.informers.start();
  }

  async stop(): Promise<void> {
    await this.controller?.stop();
    await this.informers.shutdown();
  }

  putJob(job: Job): Job {
    const stored = this.memory.put(RESOURCES.jobs, job as KubeObject) as Job;
    this.jobs.set(stored.metadata!.name!, stored);
    return stored;
  }

  putPod(pod: Pod): Pod {
    const stored = this.memory.put(RESOURCES.pods, pod as KubeObject) as Pod;
    this.pods.set(stored.metadata!.name!, stored);
    return stored;
  }

  /** Sets a pod's phase (and Ready condition) as the kubelet would. */
  setPhase(pod: Pod, phase: string, ready = false): void {
    this.putPod({
      ...this.pods.get(pod.metadata!.name!)!,
      status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
    });
  }

  job(name: string): Job {
    return this.jobs.get(name)!;
  }

  podList(): Pod[] {
    return [...this.pods.values()].sort((a, b) => a.metadata!.name!.localeCompare(b.metadata!.name!));
  }

  async until(what: string, check: () => boolean): Promise<void> {
    const deadline = Date.now() + 5000;
    while (!check()) {
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}; errors: ${this.errors.join('; ')}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

/** A job as the API server stores it after defaulting and selector generation. */
function storedJob(name: string, spec: Partial<NonNullable<Job['spec']>>): Job {
  const uid = `${name}-uid`;
  const labels = { 'controller-uid': uid, 'job-name': name };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default', uid },
    spec: {
      parallelism: 1,
      completions: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: 'TerminatingOrFailed',
      selector: { matchLabels: { 'controller-uid': uid } },
      template: {
        metadata: { labels },
        spec: { restartPolicy: 'Never', containers: [{ name: 'work', image: 'busybox' }] },
      },
      ...spec,
    },
  };
}

const condition = (job: Job, type: string) => job.status?.conditions?.find((c) => c.type === type);

describe('JobController', () => {
  let cluster: Cluster;
  beforeEach(() => {
    cluster = new Cluster();
  });
  afterEach(async () => {
    await cluster.stop();
  });

  test('suspend: no pods while suspended, Suspended condition and event, start time reset on resume', async () => {
    cluster.putJob(
      storedJob('sus', { completions: 2, parallelism: 2, suspend: true, activeDeadlineSeconds: 600 }),
    );
    cluster.start();
    await cluster.until(
      'the Suspended condition',
      () => condition(cluster.job('sus'), 'Suspended') !== undefined,
    );
    expect(condition(cluster.job('sus'), 'Suspended')).toMatchObject({
      status: 'True',
      reason: 'JobSuspended',
      message: 'Job suspended',
    });
    expect(cluster.pods.size).toBe(0);
    // A job created suspended has no start time until it is resumed.
    expect(cluster.job('sus').status?.startTime).toBeUndefined();
    expect(cluster.recorder.events).toContainEqual({
      name: 'sus',
      type: 'Normal',
      reason: 'Suspended',
      message: 'Job suspended',
    });

    cluster.clock = Date.parse('2024-01-01T00:10:00Z');
    const current = cluster.job('sus');
    cluster.putJob({ ...current, spec: { ...current.spec!, suspend: false } });
    await cluster.until('two pods', () => cluster.pods.size === 2);
    await cluster.until(
      'the resumed condition',
      () => condition(cluster.job('sus'), 'Suspended')?.status === 'False',
    );
    expect(condition(cluster.job('sus'), 'Suspended')).toMatchObject({
      reason: 'JobResumed',
      message: 'Job resumed',
      lastTransitionTime: '2024-01-01T00:10:00Z',
    });
    expect(cluster.job('sus').status?.startTime).toBe('2024-01-01T00:10:00Z');
    await cluster.until('active 2', () => cluster.job('sus').status?.active === 2);

    // Ready pods are counted; terminating ones too, as podReplacementPolicy is set.
    cluster.setPhase(cluster.podList()[0]!, 'Running', true);
    await cluster.until('ready 1', () => cluster.job('sus').status?.ready === 1);
    expect(cluster.job('sus').status?.terminating).toBe(0);

    // Suspending a running job deletes its active pods.
    cluster.clock = Date.parse('2024-01-01T00:20:00Z');
    const running = cluster.job('sus');
    cluster.putJob({ ...running, spec: { ...running.spec!, suspend: true } });
    await cluster.until('no pods', () => cluster.pods.size === 0);
    await cluster.until(
      'suspended again',
      () => condition(cluster.job('sus'), 'Suspended')?.status === 'True',
    );
    await cluster.until('active 0', () => cluster.job('sus').status?.active === 0);
    expect(cluster.job('sus').status).toMatchObject({ ready: 0, failed: 0, succeeded: 0 });
    expect(condition(cluster.job('sus'), 'Suspended')?.lastTransitionTime).toBe('2024-01-01T00:20:00Z');
    expect(condition(cluster.job('sus'), 'Failed')).toBeUndefined();
    expect(
      cluster.recorder.events.map((e) => e.reason).filter((r) => r === 'Suspended' || r === 'Resumed'),
    ).toEqual(['Suspended', 'Resumed', 'Suspended']);
  });

  test('Indexed: one pod per index with annotation, label, hostname and env; completes when every index succeeded', async () => {
    cluster.putJob(storedJob('idx', { completions: 3, parallelism: 2, completionMode: 'Indexed' }));
    cluster.start();
    await cluster.until('two pods', () => cluster.pods.size === 2);
    const first = cluster.podList();
    expect(first.map((p) => p.metadata!.annotations![INDEX])).toEqual(['0', '1']);
    expect(first.map((p) => p.metadata!.labels![INDEX])).toEqual(['0', '1']);
    expect(first.map((p) => p.metadata!.name)).toEqual([
      expect.stringMatching(/^idx-0-/),
      expect.stringMatching(/^idx-1-/),
    ]);
    expect(first.map((p) => p.spec!.hostname)).toEqual(['idx-0', 'idx-1']);
    expect(first[0]!.spec!.subdomain).toBeUndefined();
    expect(first[0]!.spec!.containers[0]!.env).toEqual([
      {
        name: 'JOB_COMPLETION_INDEX',
        valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${INDEX}']` } },
      },
    ]);

    cluster.setPhase(first[1]!, 'Succeeded');
    await cluster.until('the pod of index 2', () =>
      cluster.podList().some((p) => p.metadata!.annotations![INDEX] === '2'),
    );
    await cluster.until('completed index 1', () => cluster.job('idx').status?.completedIndexes === '1');
    expect(cluster.job('idx').status?.succeeded).toBe(1);
    // No second pod for an index that is running or done.
    expect(cluster.podList().map((p) => p.metadata!.annotations![INDEX])).toEqual(['0', '1', '2']);

    for (const pod of cluster.podList()) cluster.setPhase(pod, 'Succeeded');
    await cluster.until('Complete', () => condition(cluster.job('idx'), 'Complete')?.status === 'True');
    expect(cluster.job('idx').status).toMatchObject({ completedIndexes: '0-2', succeeded: 3, active: 0 });
    expect(cluster.pods.size).toBe(3);
  });

  test('Indexed: a failed index is retried with a new pod of the same index', async () => {
    cluster.putJob(storedJob('retry', { completions: 2, parallelism: 2, completionMode: 'Indexed' }));
    cluster.start();
    await cluster.until('two pods', () => cluster.pods.size === 2);
    const [zero, one] = cluster.podList();
    cluster.setPhase(zero!, 'Succeeded');
    cluster.setPhase(one!, 'Failed');
    await cluster.until('a replacement', () => cluster.pods.size === 3);
    const replacement = cluster.podList().find((p) => p.status?.phase === 'Pending')!;
    expect(replacement.metadata!.annotations![INDEX]).toBe('1');
    expect(replacement.metadata!.name).toMatch(/^retry-1-/);
    await cluster.until('completed index 0', () => cluster.job('retry').status?.completedIndexes === '0');
    expect(cluster.job('retry').status?.failed).toBe(1);
  });
});
