import { eventually } from '@orch/apiserver';
import { controllerManagerDaemon } from '@orch/controller-manager';
import { runInProcessDaemon } from '../harness/inProcessDaemon';
import { startServingCluster, type ServingCluster } from './servingCluster';

/** kubectl top's CPU cell in millicores (`250m`, or whole cores). */
function millicores(cell: string): number {
  return cell.endsWith('m') ? Number(cell.slice(0, -1)) : Number(cell) * 1000;
}

/** The rows of kubectl top's table by their first column. */
function rows(stdout: string): Map<string, string[]> {
  return new Map(
    stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .map((cells) => [cells[0]!, cells]),
  );
}

describe('the resource metrics API (kubectl top) from the node agents’ summaries', () => {
  let cluster: ServingCluster;
  const run = (args: string[], input?: string) => cluster.run(args, input);

  const createPod = async (pod: object) => {
    const r = await run(['create', '-f', '-'], JSON.stringify(pod));
    expect(r.code).toBe(0);
  };
  const running = (name: string) =>
    eventually(async () => {
      const r = await run(['get', 'pod', name, '-o', 'jsonpath={.status.phase}']);
      return r.stdout === 'Running' ? true : undefined;
    }, `${name} running`);

  beforeAll(async () => {
    cluster = await startServingCluster('top');
    await cluster.startAgent('topsim', 'simulated');
    await cluster.startAgent('topproc', 'process');
    await createPod({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'sim', namespace: 'default', labels: { app: 'sim' } },
      spec: {
        nodeName: 'topsim-0',
        containers: [
          { name: 'app', image: 'nginx', resources: { requests: { cpu: '200m', memory: '64Mi' } } },
        ],
      },
    });
    await createPod({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'busy', namespace: 'default', labels: { app: 'busy' } },
      spec: {
        nodeName: 'topproc-0',
        restartPolicy: 'Never',
        terminationGracePeriodSeconds: 1,
        containers: [{ name: 'loop', image: 'busybox', command: ['sh', '-c', 'while :; do :; done'] }],
      },
    });
    await running('sim');
    await running('busy');
  }, 90_000);

  afterAll(async () => {
    await cluster?.run(['delete', 'pod', 'busy', '--wait=false']);
    await cluster?.close();
  });

  it('lists the group in discovery, read-only', async () => {
    const r = await run(['get', '--raw', '/apis/metrics.k8s.io/v1beta1']);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as { resources: { name: string; kind: string; verbs: string[] }[] };
    expect(list.resources.map((x) => [x.name, x.kind, x.verbs])).toEqual([
      ['nodes', 'NodeMetrics', ['get', 'list']],
      ['pods', 'PodMetrics', ['get', 'list']],
    ]);
  });

  it('kubectl top nodes prints a row for the simulated and the process node', async () => {
    const table = await eventually(async () => {
      const r = await run(['top', 'nodes']);
      const t = rows(r.stdout);
      return r.code === 0 && t.has('topsim-0') && t.has('topproc-0') ? t : undefined;
    }, 'node metrics');
    // the simulated node uses what its pod uses: half of the requests
    expect(
      table
        .get('topsim-0')!
        .slice(1, 4)
        .filter((c) => !c.endsWith('%')),
    ).toEqual(['100m', '32Mi']);
    expect(millicores(table.get('topproc-0')![1]!)).toBeGreaterThan(0);
  }, 60_000);

  it('kubectl top pods prints the simulated usage and the busy loop’s real CPU', async () => {
    const table = await eventually(async () => {
      const r = await run(['top', 'pods']);
      const t = rows(r.stdout);
      return r.code === 0 && t.has('sim') && t.has('busy') ? t : undefined;
    }, 'pod metrics');
    expect(table.get('sim')).toEqual(['sim', '100m', '32Mi']);
    const [, cpu, memory] = table.get('busy')!;
    expect(millicores(cpu!)).toBeGreaterThan(100);
    expect(memory).toMatch(/^\d+Mi$/);
    const selected = await run(['top', 'pods', '-l', 'app=sim', '--containers']);
    expect(selected.code).toBe(0);
    expect([...rows(selected.stdout).values()]).toEqual([['sim', 'app', '100m', '32Mi']]);
  }, 60_000);

  it('serves NodeMetricsList and PodMetrics as metrics-server does', async () => {
    const nodes = await run(['get', '--raw', '/apis/metrics.k8s.io/v1beta1/nodes']);
    expect(nodes.code).toBe(0);
    const list = JSON.parse(nodes.stdout) as {
      kind: string;
      apiVersion: string;
      items: {
        metadata: { name: string };
        timestamp: string;
        window: string;
        usage: Record<string, string>;
      }[];
    };
    expect(list).toMatchObject({ kind: 'NodeMetricsList', apiVersion: 'metrics.k8s.io/v1beta1' });
    expect(list.items.map((i) => i.metadata.name).sort()).toEqual(['topproc-0', 'topsim-0']);
    for (const item of list.items) {
      expect(Date.parse(item.timestamp)).not.toBeNaN();
      expect(item.window).toBe('15s');
      expect(Object.keys(item.usage).sort()).toEqual(['cpu', 'memory']);
    }
    const pod = await run(['get', '--raw', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/sim']);
    expect(pod.code).toBe(0);
    expect(JSON.parse(pod.stdout)).toMatchObject({
      kind: 'PodMetrics',
      apiVersion: 'metrics.k8s.io/v1beta1',
      metadata: { name: 'sim', namespace: 'default' },
      containers: [{ name: 'app', usage: { cpu: '100m', memory: '32Mi' } }],
    });
    const table = await run(['get', 'podmetrics', 'sim']);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n').map((l) => l.trim().split(/\s+/))).toEqual([
      ['NAME', 'CPU', 'MEMORY', 'WINDOW'],
      ['sim', '100m', '32Mi', '15s'],
      [''],
    ]);
    const missing = await run(['get', '--raw', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/nope']);
    expect(missing.stderr).toContain('podmetrics.metrics.k8s.io "default/nope" not found');
    const watch = await run(['get', '--raw', '/apis/metrics.k8s.io/v1beta1/nodes?watch=true']);
    expect(watch.code).not.toBe(0);
    expect(watch.stderr).toContain('MethodNotAllowed');
  }, 60_000);

  it('the horizontal pod autoscaler reads the pods’ CPU and scales their Deployment', async () => {
    const manager = runInProcessDaemon(controllerManagerDaemon(), [
      '--secure-port=0',
      '--leader-elect=false',
      `--kubeconfig=${cluster.api.pki.kubeconfigs['controller-manager']}`,
      '--controllers=horizontalpodautoscaling,deployment,replicaset',
      '--horizontal-pod-autoscaler-sync-period=1s',
      '--horizontal-pod-autoscaler-cpu-initialization-period=1s',
    ]);
    try {
      const deployment = {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'scaled', namespace: 'default' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'scaled' } },
          template: {
            metadata: { labels: { app: 'scaled' } },
            spec: {
              nodeName: 'topsim-0',
              containers: [{ name: 'web', image: 'nginx', resources: { requests: { cpu: '100m' } } }],
            },
          },
        },
      };
      expect((await run(['create', '-f', '-'], JSON.stringify(deployment))).code).toBe(0);
      // the simulated pods use half of their request: 50% against a 25% target doubles them
      expect(
        (await run(['autoscale', 'deployment', 'scaled', '--min=1', '--max=2', '--cpu-percent=25'])).code,
      ).toBe(0);
      await eventually(
        async () => {
          const r = await run([
            'get',
            'hpa',
            'scaled',
            '-o',
            'jsonpath={.status.currentCPUUtilizationPercentage}/{.status.desiredReplicas}',
          ]);
          return r.stdout === '50/2' ? true : undefined;
        },
        'the autoscaler to see 50% and want 2 replicas',
        45_000,
      );
      await eventually(async () => {
        const r = await run(['get', 'deployment', 'scaled', '-o', 'jsonpath={.spec.replicas}']);
        return r.stdout === '2' ? true : undefined;
      }, 'the Deployment scaled to 2');
    } finally {
      await run(['delete', 'hpa,deployment', 'scaled', '--wait=false']);
      await manager.stop();
    }
  }, 90_000);

  it('forbids pod metrics to a user without get on metrics.k8s.io pods', async () => {
    await run(['create', 'rolebinding', 'viewer-view', '--clusterrole=view', '--user=viewer']);
    const denied = await run([
      '--as=viewer',
      'get',
      '--raw',
      '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/sim',
    ]);
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain('(Forbidden)');
    expect(denied.stderr).toContain('cannot get resource "pods" in API group "metrics.k8s.io"');
    const top = await run(['--as=viewer', 'top', 'pods']);
    expect(top.code).not.toBe(0);
    expect(top.stderr).toContain('cannot list resource "pods" in API group "metrics.k8s.io"');
    await run(['create', 'role', 'metrics-reader', '--verb=get,list', '--resource=pods.metrics.k8s.io']);
    await run(['create', 'rolebinding', 'viewer-metrics', '--role=metrics-reader', '--user=viewer']);
    const allowed = await eventually(async () => {
      const r = await run(['--as=viewer', 'top', 'pods', 'sim']);
      return r.code === 0 ? r : undefined;
    }, 'metrics allowed');
    expect(rows(allowed.stdout).get('sim')).toEqual(['sim', '100m', '32Mi']);
  }, 60_000);
});
