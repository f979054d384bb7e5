import { PodKind, ResourceQuotaKind, type Pod, type ResourceQuota } from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor, StatusError } from '@orch/client';
import { startCluster, type Cluster } from './harness';

jest.setTimeout(60_000);

const NS = 'default';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster({ controllers: ['resourcequota'] }, ['ResourceQuota']);
});
afterAll(async () => {
  await cluster?.close();
});

const pods = () => clientFor(cluster.rest, PodKind);
const quotas = () => clientFor(cluster.rest, ResourceQuotaKind);

const createPod = (name: string, cpu: string, restartPolicy = 'Always') =>
  pods().create(
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: NS },
      spec: {
        restartPolicy,
        containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu } } }],
      },
    } as Pod,
    { namespace: NS },
  );

/** The quota once its status.used is `used`. */
const usedReaches = (name: string, used: Record<string, string>) =>
  eventually(
    async () => {
      const q: ResourceQuota = await quotas().get(name, { namespace: NS });
      return JSON.stringify(q.status?.used ?? {}) === JSON.stringify(used) ? q : undefined;
    },
    `quota ${name} to use ${JSON.stringify(used)}`,
  );

describe('resource quota', () => {
  it('is created with kubectl and gets its hard limits and usage from the controller', async () => {
    await cluster.kubectl(
      'create',
      'quota',
      'compute',
      '--hard=pods=2,requests.cpu=1,count/configmaps=5',
      '-n',
      NS,
    );
    const q = await usedReaches('compute', { 'count/configmaps': '0', pods: '0', 'requests.cpu': '0' });
    expect(q.status?.hard).toEqual({ 'count/configmaps': '5', pods: '2', 'requests.cpu': '1' });
  });

  it('frees what a pod used once it finishes', async () => {
    await createPod('once', '400m', 'Never');
    // the fake kubelet runs it to Succeeded; a finished pod counts no more
    await eventually(async () => (await pods().get('once', { namespace: NS })).status?.phase === 'Succeeded');
    await usedReaches('compute', { 'count/configmaps': '0', pods: '0', 'requests.cpu': '0' });
  });

  it('follows creates, refuses what exceeds it, and admits again once a delete frees quota', async () => {
    await createPod('a', '400m');
    // admission charges the quota as it admits
    expect((await quotas().get('compute', { namespace: NS })).status?.used).toEqual({
      'count/configmaps': '0',
      pods: '1',
      'requests.cpu': '400m',
    });
    await createPod('b', '400m');
    await usedReaches('compute', { 'count/configmaps': '0', pods: '2', 'requests.cpu': '800m' });

    const refused = await createPod('c', '400m').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StatusError);
    expect((refused as StatusError).status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message:
        'pods "c" is forbidden: exceeded quota: compute, requested: pods=1,requests.cpu=400m, used: pods=2,requests.cpu=800m, limited: pods=2,requests.cpu=1',
    });

    await pods().delete('a', { namespace: NS, gracePeriodSeconds: 0 });
    await usedReaches('compute', { 'count/configmaps': '0', pods: '1', 'requests.cpu': '400m' });
    await createPod('c', '400m');
    await usedReaches('compute', { 'count/configmaps': '0', pods: '2', 'requests.cpu': '800m' });
  });

  it('refuses through kubectl with the same words', async () => {
    await cluster.kubectl('create', 'configmap', 'one', '-n', NS);
    const out = await cluster
      .kubectl('run', 'd', '--image=nginx', '-n', NS)
      .catch((e: { stderr?: string }) => e.stderr ?? '');
    expect(out.trim()).toBe(
      'Error from server (Forbidden): pods "d" is forbidden: failed quota: compute: must specify requests.cpu',
    );
  });

  it('prints as Kubernetes prints it with kubectl describe and get', async () => {
    await usedReaches('compute', { 'count/configmaps': '1', pods: '2', 'requests.cpu': '800m' });
    const described = await cluster.kubectl('describe', 'quota', 'compute', '-n', NS);
    const lines = described.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Name:\s+compute$/);
    expect(lines[1]).toMatch(/^Namespace:\s+default$/);
    expect(lines.slice(2).map((l) => l.trim().split(/\s+/))).toEqual([
      ['Resource', 'Used', 'Hard'],
      ['--------', '----', '----'],
      ['count/configmaps', '1', '5'],
      ['pods', '2', '2'],
      ['requests.cpu', '800m', '1'],
    ]);
    const listed = (await cluster.kubectl('get', 'quota', '-n', NS)).trimEnd().split('\n');
    expect(listed[0]!.split(/\s+/)).toEqual(['NAME', 'AGE', 'REQUEST', 'LIMIT']);
    expect(listed[1]).toMatch(
      /^compute\s+\S+\s+count\/configmaps: 1\/5, pods: 2\/2, requests\.cpu: 800m\/1\s*$/,
    );
  });
});
