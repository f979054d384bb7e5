import https from 'node:https';
import { kubectl, kubectlOK } from '../harness/kubectl';
import { eventually, leaderElection, startSuite, type SuiteCluster } from './cluster';

interface PodView {
  metadata: { name: string; deletionTimestamp?: string };
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
  const { pki, url } = s.api;
  let buf = '';
  const req = https.get(
    `${url}/api/v1/namespaces/${ns}/pods?watch=1&labelSelector=${encodeURIComponent(selector)}`,
    { ca: pki.ca, cert: pki.admin.cert, key: pki.admin.key },
    (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i).trim();
          buf = buf.slice(i + 1);
          if (!line) continue;
          const ev = JSON.parse(line) as { type: string; object: PodView };
          if (ev.type === 'DELETED') pods.delete(ev.object.metadata.name);
          else pods.set(ev.object.metadata.name, ev.object);
          const live = [...pods.values()].filter((p) => !p.metadata.deletionTimestamp);
          const ready = live.filter((p) =>
            p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
          );
          samples.push({ total: live.length, ready: ready.length });
        }
      });
    },
  );
  req.on('error', () => undefined);
  return { samples, stop: () => req.destroy() };
}

describe.each([
  ['embedded store', false],
  ['3-member etcd cluster', true],
] as const)('the whole suite as separate processes on the %s', (_name, etcd) => {
  let s: SuiteCluster;
  let kc: string;
  const k = (...args: string[]) => kubectlOK(kc, args);
  const json = async <T>(...args: string[]): Promise<T> => JSON.parse(await k(...args, '-o', 'json')) as T;

  beforeAll(async () => {
    s = await startSuite({ etcd });
    kc = s.api.kubeconfig;
    await eventually('3 Ready nodes', async () => {
      const nodes = await json<{ items: { status: { conditions: { type: string; status: string }[] } }[] }>(
        'get',
        'nodes',
      );
      return (
        nodes.items.filter((n) => n.status.conditions.some((c) => c.type === 'Ready' && c.status === 'True'))
          .length === 3
      );
    });
    await eventually(
      'the default service account',
      async () => (await kubectl(kc, ['get', 'sa', 'default'])).code === 0,
    );
  }, 120_000);
  afterAll(() => s?.stop(), 60_000);

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
      'no web pods',
      async () => (await json<{ items: unknown[] }>('get', 'pods', '-l', 'app=web')).items.length === 0,
    );
    await k('scale', 'deployment/web', '--replicas=3');
    await k('rollout', 'status', 'deployment/web', '--timeout=90s');
  }, 240_000);

  it("garbage-collects a deleted deployment's replica sets and pods", async () => {
    await k('delete', 'deployment', 'web');
    await eventually('replica sets and pods gone', async () => {
      const rs = await json<{ items: unknown[] }>('get', 'rs', '-l', 'app=web');
      const pods = await json<{ items: unknown[] }>('get', 'pods', '-l', 'app=web');
      return rs.items.length === 0 && pods.items.length === 0;
    });
  }, 90_000);

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
      'the job to complete',
      async () => {
        const j = await json<{
          status: { succeeded?: number; conditions?: { type: string; status: string }[] };
        }>('get', 'job', 'three');
        return j.status.conditions?.some((c) => c.type === 'Complete' && c.status === 'True') ? j : undefined;
      },
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
    const event = await eventually('a FailedScheduling event', async () => {
      const events = await json<{
        items: { reason: string; message: string; involvedObject: { name: string } }[];
      }>('get', 'events');
      return events.items.find((e) => e.reason === 'FailedScheduling' && e.involvedObject.name === 'huge');
    });
    expect(event.message).toBe('0/3 nodes are available: 3 Insufficient cpu.');
    expect((await json<PodView>('get', 'pod', 'huge')).status?.phase).toBe('Pending');
  }, 90_000);

  it("deletes a namespace's contents, then the namespace", async () => {
    await k('create', 'namespace', 'scratch');
    await eventually(
      'scratch default account',
      async () => (await kubectl(kc, ['-n', 'scratch', 'get', 'sa', 'default'])).code === 0,
    );
    await k('-n', 'scratch', 'create', 'configmap', 'c');
    await k('-n', 'scratch', 'create', 'deployment', 'd', '--image=nginx');
    await k('delete', 'namespace', 'scratch', '--wait=true', '--timeout=90s');
    expect((await kubectl(kc, ['get', 'namespace', 'scratch'])).code).not.toBe(0);
  }, 120_000);

  it('creates a job from a */1 cronjob within 70 s', async () => {
    await k('create', 'cronjob', 'tick', '--image=busybox', '--schedule=*/1 * * * *', '--', 'true');
    await eventually(
      'a job of the cronjob',
      async () => {
        const jobs = await json<{
          items: { metadata: { name: string; ownerReferences?: { name: string }[] } }[];
        }>('get', 'jobs');
        return jobs.items.some((j) => j.metadata.ownerReferences?.some((o) => o.name === 'tick'));
      },
      70_000,
    );
    const cj = await json<{ spec: { successfulJobsHistoryLimit: number; failedJobsHistoryLimit: number } }>(
      'get',
      'cronjob',
      'tick',
    );
    expect(cj.spec).toMatchObject({ successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
  }, 90_000);

  it('fails over to a standby scheduler and controller manager after kill -9 of the leader', async () => {
    for (const kind of ['scheduler', 'controller-manager'] as const) {
      const replicas = s.daemons.filter((d) => d.name.startsWith(`orch-${kind}-`));
      replicas.push(await s.startReplica(kind));
      const holder = async (): Promise<string> => {
        const ep = await json<{ metadata: { annotations?: Record<string, string> } }>(
          '-n',
          'orch-system',
          'get',
          'endpoints',
          `orch-${kind}`,
        );
        return (
          JSON.parse(ep.metadata.annotations?.['control-plane.alpha.kubernetes.io/leader'] ?? '{}')
            .holderIdentity ?? ''
        );
      };
      const first = await eventually(`a ${kind} leader`, holder);
      // kill replicas until the holder changes: the one whose kill moved leadership was the leader
      let took = 0;
      for (const r of replicas) {
        await r.stop('SIGKILL');
        const killed = Date.now();
        const next = await eventually(
          `a new ${kind} leader`,
          async () => {
            const h = await holder();
            return h !== first
              ? h
              : Date.now() - killed > (leaderElection.leaseSeconds + 2) * 1000
                ? 'unchanged'
                : undefined;
          },
          30_000,
        );
        if (next !== 'unchanged') {
          took = Date.now() - killed;
          break;
        }
      }
      expect(took).toBeGreaterThan(0);
      expect(took).toBeLessThanOrEqual(
        (leaderElection.leaseSeconds + leaderElection.retrySeconds) * 1000 + 1500,
      );
    }
    // work goes on under the new leaders
    await k('create', 'deployment', 'after', '--image=nginx', '--replicas=2');
    await k('rollout', 'status', 'deployment/after', '--timeout=90s');
  }, 180_000);
});
