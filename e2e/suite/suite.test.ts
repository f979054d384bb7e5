import { readFileSync } from 'node:fs';
import { eventually } from '@orch/apiserver';
import { formatTime, JITTER_FACTOR } from '@orch/client';
import { kubectl, kubectlOK } from '../harness/kubectl';
import { leaderElection, startSuite, type SuiteCluster } from './cluster';
import { recordJobs, type JobHistory } from './job-history';
import { watchObjects } from './watch';

interface PodView {
  metadata: { name: string; deletionTimestamp?: string; resourceVersion?: string };
  spec: { nodeName?: string; containers: { image: string }[] };
  status?: { phase?: string; conditions?: { type: string; status: string }[] };
}

/** Watches pods matching a selector and records, after every event, how many exist and how many are ready. */
function watchPods(
  s: SuiteCluster,
  ns: string,
  selector: string,
): { samples: { total: number; ready: number }[]; stop(): void } {
  const pods = new Map<string, PodView>();
  const samples: { total: number; ready: number }[] = [];
  const watch = watchObjects<PodView>(
    s,
    `/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(selector)}`,
    (ev) => {
      if (ev.type === 'DELETED') pods.delete(ev.object.metadata.name);
      else pods.set(ev.object.metadata.name, ev.object);
      const live = [...pods.values()].filter((p) => !p.metadata.deletionTimestamp);
      const ready = live.filter((p) =>
        p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
      );
      samples.push({ total: live.length, ready: ready.length });
    },
  );
  return { samples, stop: watch.stop };
}

interface JobRef {
  metadata: { name: string; ownerReferences?: { name: string }[] };
}

interface CronJobView {
  metadata: { creationTimestamp: string };
  spec: { successfulJobsHistoryLimit?: number; failedJobsHistoryLimit?: number };
  status?: { active?: { name: string }[]; lastScheduleTime?: string };
}

/**
 * CronJobs started when the suite starts, so their minutes pass while the other tests run: every
 * minute `tick` runs a Job that succeeds and `tock` one that fails (the node agent's simulated exit
 * code, no retries); each keeps one finished Job of its kind.
 */
const historyCronJobs = [
  { name: 'tick', finishes: 'Complete', annotations: {} },
  { name: 'tock', finishes: 'Failed', annotations: { 'orch.io/simulated-exit-code': '1' } },
] as const;

function historyCronJob(cj: (typeof historyCronJobs)[number]): object {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: cj.name },
    spec: {
      schedule: '*/1 * * * *',
      successfulJobsHistoryLimit: 1,
      failedJobsHistoryLimit: 1,
      jobTemplate: {
        spec: {
          backoffLimit: 0,
          template: {
            metadata: { annotations: cj.annotations },
            spec: {
              restartPolicy: 'Never',
              containers: [
                {
                  name: 'c',
                  image: 'busybox',
                  command: ['true'],
                  // explicit zero requests: invisible to the scheduler's scoring, so runs landing
                  // while another test places its pods do not change where those go
                  resources: { requests: { cpu: '0', memory: '0' } },
                },
              ],
            },
          },
        },
      },
    },
  };
}

/** The time a CronJob's Job was scheduled for, from its name (`<cronjob>-<minutes since the epoch>`). */
const scheduledTime = (jobName: string): string =>
  formatTime(Number(jobName.slice(jobName.lastIndexOf('-') + 1)) * 60_000);

describe.each([
  ['embedded store', false],
  ['3-member etcd cluster', true],
] as const)('the whole suite as separate processes on the %s', (_name, etcd) => {
  let s: SuiteCluster;
  let kc: string;
  let jobs: JobHistory;
  const k = (...args: string[]) => kubectlOK(kc, args);
  const json = async <T>(...args: string[]): Promise<T> => JSON.parse(await k(...args, '-o', 'json')) as T;

  beforeAll(async () => {
    s = await startSuite({ etcd });
    kc = s.api.kubeconfig;
    // first, so that their minutes pass while the suite comes up and the other tests run
    jobs = recordJobs(s, 'default');
    for (const cj of historyCronJobs) {
      await kubectlOK(kc, ['create', '-f', '-'], JSON.stringify(historyCronJob(cj)));
      // as if the controller had missed this minute's run: it starts the most recent missed run at
      // its next sync, so the second run is the one of the next minute, not of the minute after
      const lastScheduleTime = formatTime(Math.floor(Date.now() / 60_000) * 60_000 - 60_000);
      await kubectlOK(kc, [
        'patch',
        'cronjob',
        cj.name,
        '--subresource=status',
        '--type=merge',
        '-p',
        JSON.stringify({ status: { lastScheduleTime } }),
      ]);
    }
    await eventually(
      async () => {
        const nodes = await json<{ items: { status: { conditions: { type: string; status: string }[] } }[] }>(
          'get',
          'nodes',
        );
        return (
          nodes.items.filter((n) =>
            n.status.conditions.some((c) => c.type === 'Ready' && c.status === 'True'),
          ).length === 3
        );
      },
      '3 Ready nodes',
      60_000,
    );
    await eventually(
      async () => (await kubectl(kc, ['get', 'sa', 'default'])).code === 0,
      'the default service account',
      60_000,
    );
  }, 120_000);
  afterAll(async () => {
    jobs?.stop();
    await s?.stop();
  }, 60_000);

  it('runs a deployment: 3 Running pods on different nodes, rolling update within maxSurge/maxUnavailable, undo, scale', async () => {
    await k('create', 'deployment', 'web', '--image=nginx', '--replicas=3');
    await k('rollout', 'status', 'deployment/web', '--timeout=90s');
    const pods = await json<{ items: PodView[] }>('get', 'pods', '-l', 'app=web');
    expect(pods.items.map((p) => p.status?.phase)).toEqual(['Running', 'Running', 'Running']);
    expect(new Set(pods.items.map((p) => p.spec.nodeName)).size).toBe(3);

    // 25%/25% of 3 replicas: at most 3 + 1 pods, never fewer than 3 - 0 ready (observed on a watch)
    const watch = watchPods(s, 'default', 'app=web');
    await new Promise((r) => setTimeout(r, 500));
    await k('set', 'image', 'deployment/web', 'nginx=nginx:1.25');
    await k('rollout', 'status', 'deployment/web', '--timeout=90s');
    watch.stop();
    const after = watch.samples.slice(3);
    expect(after.length).toBeGreaterThan(6);
    expect(Math.max(...after.map((x) => x.total))).toBeLessThanOrEqual(4);
    expect(Math.min(...after.map((x) => x.ready))).toBeGreaterThanOrEqual(3);
    const images = (await json<{ items: PodView[] }>('get', 'pods', '-l', 'app=web')).items
      .filter((p) => !p.metadata.deletionTimestamp)
      .map((p) => p.spec.containers[0]!.image);
    expect(images).toEqual(['nginx:1.25', 'nginx:1.25', 'nginx:1.25']);

    await k('rollout', 'undo', 'deployment/web');
    await k('rollout', 'status', 'deployment/web', '--timeout=90s');
    expect(
      (await json<{ spec: { template: PodView } }>('get', 'deployment', 'web')).spec.template.spec
        .containers[0]!.image,
    ).toBe('nginx');

    await k('scale', 'deployment/web', '--replicas=0');
    await eventually(
      async () => (await json<{ items: unknown[] }>('get', 'pods', '-l', 'app=web')).items.length === 0,
      'no web pods',
      60_000,
    );
    await k('scale', 'deployment/web', '--replicas=3');
    await k('rollout', 'status', 'deployment/web', '--timeout=90s');
  }, 240_000);

  it("garbage-collects a deleted deployment's replica sets and pods", async () => {
    await k('delete', 'deployment', 'web');
    await eventually(
      async () => {
        const rs = await json<{ items: unknown[] }>('get', 'rs', '-l', 'app=web');
        const pods = await json<{ items: unknown[] }>('get', 'pods', '-l', 'app=web');
        return rs.items.length === 0 && pods.items.length === 0;
      },
      'replica sets and pods gone',
      60_000,
    );
  }, 90_000);

  it('drains a node past a disruption budget, which the disruption controller keeps', async () => {
    await k('create', 'deployment', 'guarded', '--image=nginx', '--replicas=3');
    await k('rollout', 'status', 'deployment/guarded', '--timeout=90s');
    await k('create', 'pdb', 'guarded', '--selector=app=guarded', '--min-available=2');
    type Budget = { status?: { disruptionsAllowed?: number; currentHealthy?: number } };
    await eventually(
      async () => (await json<Budget>('get', 'pdb', 'guarded')).status?.disruptionsAllowed === 1,
      'the budget to allow one disruption',
      60_000,
    );
    const node = (await json<{ items: PodView[] }>('get', 'pods', '-l', 'app=guarded')).items[0]!.spec
      .nodeName!;
    // kubectl evicts through pods/eviction, which takes the budget's allowed disruption
    const drained = await k(
      'drain',
      node,
      '--pod-selector=app=guarded',
      '--ignore-daemonsets',
      '--timeout=120s',
    );
    expect(drained).toContain(`node/${node} drained`);
    await k('rollout', 'status', 'deployment/guarded', '--timeout=90s');
    const pods = (await json<{ items: PodView[] }>('get', 'pods', '-l', 'app=guarded')).items.filter(
      (p) => !p.metadata.deletionTimestamp,
    );
    expect(pods.map((p) => p.spec.nodeName)).not.toContain(node);
    await eventually(
      async () => (await json<Budget>('get', 'pdb', 'guarded')).status?.currentHealthy === 3,
      'the budget to count 3 healthy pods again',
      60_000,
    );
    await k('uncordon', node);
    await k('delete', 'pdb', 'guarded');
    await k('delete', 'deployment', 'guarded');
  }, 240_000);

  it('runs a daemon set: a pod bound to every node, a rolling update, kubectl get ds', async () => {
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: { containers: [{ name: 'agent', image: 'busybox' }] },
        },
      },
    };
    await kubectlOK(kc, ['apply', '-f', '-'], JSON.stringify(ds));
    await k('rollout', 'status', 'daemonset/agent', '--timeout=90s');
    const running = async (): Promise<PodView[]> =>
      (await json<{ items: PodView[] }>('get', 'pods', '-l', 'app=agent')).items.filter(
        (p) => !p.metadata.deletionTimestamp,
      );
    const pods = await running();
    expect(pods.map((p) => p.status?.phase)).toEqual(['Running', 'Running', 'Running']);
    // the scheduler bound each pod to the node its affinity names
    const nodes = (await json<{ items: { metadata: { name: string } }[] }>('get', 'nodes')).items.map(
      (n) => n.metadata.name,
    );
    expect(pods.map((p) => p.spec.nodeName).sort()).toEqual([...nodes].sort());

    await k('set', 'image', 'daemonset/agent', 'agent=busybox:1.36');
    await k('rollout', 'status', 'daemonset/agent', '--timeout=90s');
    await eventually(
      async () => {
        const now = await running();
        return now.length === 3 && now.every((p) => p.spec.containers[0]!.image === 'busybox:1.36');
      },
      'three updated agent pods',
      60_000,
    );
    const table = await k('get', 'ds', 'agent');
    expect(table.split('\n')[0]).toMatch(
      /^NAME\s+DESIRED\s+CURRENT\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+NODE SELECTOR\s+AGE$/,
    );
    expect(table.split('\n')[1]).toMatch(/^agent\s+3\s+3\s+3\s+3\s+3\s+<none>\s+\S+$/);
    await k('delete', 'daemonset', 'agent');
    await eventually(
      async () => (await json<{ items: unknown[] }>('get', 'pods', '-l', 'app=agent')).items.length === 0,
      'no agent pods',
      60_000,
    );
  }, 240_000);

  it('runs a stateful set: ordered pods with stable names and claims, kubectl get sts', async () => {
    const sts = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'store' },
      spec: {
        replicas: 2,
        serviceName: 'store',
        selector: { matchLabels: { app: 'store' } },
        template: {
          metadata: { labels: { app: 'store' } },
          spec: {
            containers: [
              { name: 'db', image: 'busybox', volumeMounts: [{ name: 'data', mountPath: '/data' }] },
            ],
          },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: {
              accessModes: ['ReadWriteOnce'],
              resources: { requests: { storage: '1Gi' } },
              storageClassName: 'suite-host-path',
            },
          },
        ],
      },
    };
    // the claims are provisioned and bound before the node agent starts the pods that mount them
    const storageClass = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'suite-host-path' },
      provisioner: 'kubernetes.io/host-path',
    };
    await kubectlOK(kc, ['apply', '-f', '-'], JSON.stringify(storageClass));
    await kubectlOK(kc, ['apply', '-f', '-'], JSON.stringify(sts));
    await k('rollout', 'status', 'statefulset/store', '--timeout=90s');
    const pods = (await json<{ items: PodView[] }>('get', 'pods', '-l', 'app=store')).items;
    expect(pods.map((p) => [p.metadata.name, p.status?.phase])).toEqual([
      ['store-0', 'Running'],
      ['store-1', 'Running'],
    ]);
    const claims = await json<{ items: { metadata: { name: string } }[] }>('get', 'pvc', '-l', 'app=store');
    expect(claims.items.map((c) => c.metadata.name)).toEqual(['data-store-0', 'data-store-1']);
    expect((await k('get', 'sts', 'store')).split('\n')[1]).toMatch(/^store\s+2\/2\s+\S+$/);
    await k('delete', 'statefulset', 'store');
    await k('delete', 'pvc', '-l', 'app=store');
    await eventually(
      async () => (await json<{ items: unknown[] }>('get', 'pods', '-l', 'app=store')).items.length === 0,
      'no store pods',
      60_000,
    );
  }, 240_000);

  it('completes a job with completions 3 and parallelism 2', async () => {
    // kubectl create job has no --completions: the manifest says it
    await kubectlOK(
      kc,
      ['create', '-f', '-'],
      JSON.stringify({
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'three' },
        spec: {
          completions: 3,
          parallelism: 2,
          template: {
            spec: {
              restartPolicy: 'Never',
              containers: [{ name: 'c', image: 'busybox', command: ['true'] }],
            },
          },
        },
      }),
    );
    const job = await eventually(
      async () => {
        const j = await json<{
          status: { succeeded?: number; conditions?: { type: string; status: string }[] };
        }>('get', 'job', 'three');
        return j.status.conditions?.some((c) => c.type === 'Complete' && c.status === 'True') ? j : undefined;
      },
      'the job to complete',
      90_000,
    );
    expect(job.status.succeeded).toBe(3);
  }, 120_000);

  it('leaves a pod that fits no node Pending with FailedScheduling', async () => {
    await k(
      'run',
      'huge',
      '--image=nginx',
      '--overrides={"spec":{"containers":[{"name":"huge","image":"nginx","resources":{"requests":{"cpu":"64"}}}]}}',
    );
    const event = await eventually(
      async () => {
        const events = await json<{
          items: { reason: string; message: string; involvedObject: { name: string } }[];
        }>('get', 'events');
        return events.items.find((e) => e.reason === 'FailedScheduling' && e.involvedObject.name === 'huge');
      },
      'a FailedScheduling event',
      60_000,
    );
    expect(event.message).toBe(
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..',
    );
    expect((await json<PodView>('get', 'pod', 'huge')).status?.phase).toBe('Pending');
  }, 90_000);

  it('publishes the cluster CA as kube-root-ca.crt in the namespaces', async () => {
    const published = await eventually(
      async () => {
        const r = await kubectl(kc, [
          '-n',
          'default',
          'get',
          'cm',
          'kube-root-ca.crt',
          '-o',
          'jsonpath={.data.ca\\.crt}',
        ]);
        return r.code === 0 && r.stdout !== '' ? r.stdout : undefined;
      },
      'kube-root-ca.crt in default',
      60_000,
    );
    expect(published).toBe(s.api.pki.ca);
  }, 90_000);

  it("deletes a namespace's contents, then the namespace", async () => {
    await k('create', 'namespace', 'scratch');
    await eventually(
      async () => (await kubectl(kc, ['-n', 'scratch', 'get', 'sa', 'default'])).code === 0,
      'scratch default account',
      60_000,
    );
    await k('-n', 'scratch', 'create', 'configmap', 'c');
    await k('-n', 'scratch', 'create', 'deployment', 'd', '--image=nginx');
    await k('delete', 'namespace', 'scratch', '--wait=true', '--timeout=90s');
    expect((await kubectl(kc, ['get', 'namespace', 'scratch'])).code).not.toBe(0);
  }, 120_000);

  it('fails over to a standby scheduler and controller manager after kill -9 of the leader', async () => {
    for (const kind of ['scheduler', 'controller-manager'] as const) {
      const replicas = s.daemons.filter((d) => d.name.startsWith(`orch-${kind}-`));
      replicas.push(await s.startReplica(kind));
      // the lock's holder as the apiserver reports it, observed through a watch (no polling delay)
      let holder = '';
      let changedAt = 0;
      const lock = watchObjects<{
        metadata: { resourceVersion?: string; annotations?: Record<string, string> };
      }>(s, `/api/v1/namespaces/orch-system/endpoints?fieldSelector=metadata.name%3Dorch-${kind}`, (e) => {
        const h: string =
          JSON.parse(e.object.metadata.annotations?.['control-plane.alpha.kubernetes.io/leader'] ?? '{}')
            .holderIdentity ?? '';
        if (h !== holder) changedAt = Date.now();
        holder = h;
      });
      let took: number;
      try {
        const first = await eventually(async () => holder || undefined, `a ${kind} leader`, 60_000);
        // the leading replica is the one that logged taking the lock under the holder's identity
        const tookLock = (line: string) =>
          line.includes('successfully acquired lease') && line.includes(`as ${first}`);
        const leader = await eventually(
          async () => replicas.find((r) => readFileSync(r.log, 'utf8').split('\n').some(tookLock)),
          `the ${kind} replica leading as ${first}`,
          10_000,
        );
        await leader.stop('SIGKILL');
        const killed = Date.now();
        await eventually(
          async () => (holder !== first && holder) || undefined,
          `a new ${kind} leader`,
          30_000,
        );
        took = changedAt - killed;
      } finally {
        lock.stop();
      }
      expect(took).toBeGreaterThan(0);
      // the leader's last renewal comes before the kill; a standby, trying every retry period
      // stretched by up to JITTER_FACTOR (client-go's acquire loop), sees it at its next try and takes
      // over at the first try a lease after that: a lease and two jittered retry periods, and 2 s for
      // the lock's reads and writes and the watch event on a loaded machine
      const retryMs = leaderElection.retrySeconds * 1000 * (1 + JITTER_FACTOR);
      expect(took).toBeLessThanOrEqual(leaderElection.leaseSeconds * 1000 + 2 * retryMs + 2000);
    }
    // work goes on under the new leaders
    await k('create', 'deployment', 'after', '--image=nginx', '--replicas=2');
    await k('rollout', 'status', 'deployment/after', '--timeout=90s');
  }, 180_000);

  it('creates a job from a */1 cronjob within 70 s, with the default history limits', async () => {
    const cj = await json<CronJobView>('get', 'cronjob', 'tick');
    const created = Date.parse(cj.metadata.creationTimestamp);
    // the first run of a minute after the cronjob was created (beforeAll also had a missed one run)
    const first = await eventually(
      async () => jobs.of('tick').find((j) => Date.parse(scheduledTime(j.name)) >= created),
      'a job of the cronjob',
      Math.max(1000, created + 70_000 - Date.now()),
    );
    expect(Date.parse(first.creationTimestamp!) - created).toBeLessThanOrEqual(70_000);
    // what stock kubectl creates gets Kubernetes' defaults (server-side dry run: nothing is stored)
    const defaulted = JSON.parse(
      await k(
        'create',
        'cronjob',
        'defaults',
        '--image=busybox',
        '--schedule=*/1 * * * *',
        '--dry-run=server',
        '-o',
        'json',
        '--',
        'true',
      ),
    ) as CronJobView;
    expect(defaulted.spec).toMatchObject({ successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    expect((await kubectl(kc, ['get', 'cronjob', 'defaults'])).code).not.toBe(0);
  }, 90_000);

  // last: the CronJobs created in beforeAll have had their minutes while the other tests ran
  it.each(historyCronJobs)(
    'keeps the history limit of the $name cronjob: only the newest $finishes job of two or more is left',
    async ({ name, finishes }) => {
      const cj = await json<CronJobView>('get', 'cronjob', name);
      // two runs: the missed one at the controller's first sync, the next at most 60 s after creation;
      // it runs and finishes, and the older is deleted at the controller's next sync (10 s period)
      const deadline = Date.parse(cj.metadata.creationTimestamp) + 150_000;
      const done = await eventually(
        async () => {
          const seen = jobs.of(name);
          const finished = seen.filter((j) => j.finished === finishes);
          const kept = seen.filter((j) => !j.deleted);
          if (finished.length < 2 || kept.length !== 1 || kept[0]!.finished !== finishes) return undefined;
          // what the server holds agrees (a run of the next minute may just have started)
          const stored = await json<{ items: JobRef[] }>('get', 'jobs');
          const now = await json<CronJobView>('get', 'cronjob', name);
          const names = stored.items
            .filter((j) => j.metadata.ownerReferences?.some((o) => o.name === name))
            .map((j) => j.metadata.name);
          if (names.length !== 1 || names[0] !== kept[0]!.name || now.status?.active?.length)
            return undefined;
          return { seen, kept: kept[0]!, cj: now };
        },
        `two ${finishes} jobs of ${name}, the older deleted`,
        Math.max(10_000, deadline - Date.now()),
      );
      // the one kept is the newest run; every older one finished the same way and is gone
      expect(done.seen.at(-1)).toBe(done.kept);
      const older = done.seen.slice(0, -1);
      expect(older.length).toBeGreaterThanOrEqual(1);
      for (const job of older) expect(job).toMatchObject({ finished: finishes, deleted: true });
      // deleted by the cronjob controller (the test deletes no job)
      const events = await json<{
        items: { reason: string; message: string; involvedObject: { kind: string; name: string } }[];
      }>('get', 'events');
      const deletions = events.items
        .filter(
          (e) =>
            e.involvedObject.kind === 'CronJob' &&
            e.involvedObject.name === name &&
            e.reason === 'SuccessfulDelete',
        )
        .map((e) => e.message);
      for (const job of older) expect(deletions).toContain(`Deleted job ${job.name}`);
      // lastScheduleTime moved on from the first run to the newest one; nothing left active
      expect(done.cj.status?.lastScheduleTime).toBe(scheduledTime(done.kept.name));
      expect(Date.parse(done.cj.status!.lastScheduleTime!)).toBeGreaterThan(
        Date.parse(scheduledTime(done.seen[0]!.name)),
      );
      expect(done.cj.status?.active ?? []).toEqual([]);
    },
    240_000,
  );
});
