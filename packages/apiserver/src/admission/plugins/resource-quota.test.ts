import { httpsRequest } from '../../testing/https-request';
import { startTestAPIServer, type TestAPIServer } from '../../testing/test-apiserver';

/** ResourceQuota admission through a server running the default plugins; quota status is set as its controller would. */
describe('ResourceQuota admission', () => {
  let s: TestAPIServer;
  const call = (method: string, path: string, body?: unknown) =>
    httpsRequest(s.url + path, { ca: s.ca, method, body });
  const quotas = (ns: string) => `/api/v1/namespaces/${ns}/resourcequotas`;
  const createNamespace = async (name: string) => {
    expect((await call('POST', '/api/v1/namespaces', { metadata: { name } })).status).toBe(201);
    const sa = await call('POST', `/api/v1/namespaces/${name}/serviceaccounts`, {
      metadata: { name: 'default' },
    });
    expect(sa.status).toBe(201);
  };
  const createPod = (ns: string, name: string, resources?: unknown, spec: Record<string, unknown> = {}) =>
    call('POST', `/api/v1/namespaces/${ns}/pods`, {
      metadata: { name },
      spec: { containers: [{ name: 'app', image: 'busybox', ...(resources ? { resources } : {}) }], ...spec },
    });
  /** Creates a quota and gives it the status its controller would: hard as spec.hard, and `used`. */
  const createQuota = async (
    ns: string,
    name: string,
    hard: Record<string, string>,
    used: Record<string, string>,
    spec: Record<string, unknown> = {},
  ) => {
    const created = await call('POST', quotas(ns), { metadata: { name }, spec: { hard, ...spec } });
    expect(created.status).toBe(201);
    const status = await call('PUT', `${quotas(ns)}/${name}/status`, {
      ...created.json,
      status: { hard, used },
    });
    expect(status.status).toBe(200);
  };
  const used = async (ns: string, name: string) =>
    (await call('GET', `${quotas(ns)}/${name}`)).json.status.used;
  const forbidden = (r: { status: number; json: any }, message: string) => {
    expect({ status: r.status, json: r.json }).toMatchObject({
      status: 403,
      json: { kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403, message },
    });
  };

  beforeAll(async () => {
    s = await startTestAPIServer();
    for (const ns of ['quota', 'scoped', 'counts', 'svc']) await createNamespace(ns);
  });
  afterAll(() => s.close());

  it('enforces a quota only once its status.hard is set', async () => {
    const created = await call('POST', quotas('quota'), {
      metadata: { name: 'compute' },
      spec: { hard: { pods: '2', 'requests.cpu': '1' } },
    });
    expect(created.status).toBe(201);
    // no status yet: the pod, stating no cpu, is admitted
    expect((await createPod('quota', 'early')).status).toBe(201);
    const status = await call('PUT', `${quotas('quota')}/compute/status`, {
      ...created.json,
      status: { hard: { pods: '2', 'requests.cpu': '1' }, used: { pods: '1', 'requests.cpu': '0' } },
    });
    expect(status.status).toBe(200);
  });

  it('refuses a pod that does not state the cpu a quota limits', async () => {
    forbidden(
      await createPod('quota', 'no-cpu'),
      'pods "no-cpu" is forbidden: failed quota: compute: must specify requests.cpu',
    );
  });

  it('charges an admitted pod to status.used, and a dry run to nothing', async () => {
    const dry = await call('POST', '/api/v1/namespaces/quota/pods?dryRun=All', {
      metadata: { name: 'dry' },
      spec: { containers: [{ name: 'app', image: 'busybox', resources: { requests: { cpu: '600m' } } }] },
    });
    expect(dry.status).toBe(201);
    expect(await used('quota', 'compute')).toEqual({ pods: '1', 'requests.cpu': '0' });
    expect((await createPod('quota', 'second', { requests: { cpu: '600m' } })).status).toBe(201);
    expect(await used('quota', 'compute')).toEqual({ pods: '2', 'requests.cpu': '600m' });
  });

  it('refuses what would exceed the quota, naming each exceeded resource', async () => {
    forbidden(
      await createPod('quota', 'third', { requests: { cpu: '500m' } }),
      'pods "third" is forbidden: exceeded quota: compute, requested: pods=1,requests.cpu=500m, used: pods=2,requests.cpu=600m, limited: pods=2,requests.cpu=1',
    );
    expect(await used('quota', 'compute')).toEqual({ pods: '2', 'requests.cpu': '600m' });
  });

  it('lets concurrent creates take no more than the quota allows', async () => {
    await createQuota(
      'counts',
      'objects',
      { configmaps: '3', 'count/secrets': '10' },
      { configmaps: '0', 'count/secrets': '0' },
    );
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call('POST', '/api/v1/namespaces/counts/configmaps', { metadata: { name: `cm-${i}` } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 403, 403, 403, 403, 403]);
    const refused = results.find((r) => r.status === 403)!;
    expect(refused.json.message).toMatch(
      /^configmaps "cm-\d" is forbidden: exceeded quota: objects, requested: configmaps=1, used: configmaps=3, limited: configmaps=3$/,
    );
    expect(await used('counts', 'objects')).toEqual({ configmaps: '3', 'count/secrets': '0' });
    expect(
      (await call('POST', '/api/v1/namespaces/counts/secrets', { metadata: { name: 's' } })).status,
    ).toBe(201);
    expect(await used('counts', 'objects')).toEqual({ configmaps: '3', 'count/secrets': '1' });
  });

  it('applies scoped quotas only to the pods in their scope', async () => {
    await createQuota('scoped', 'best-effort', { pods: '0' }, { pods: '0' }, { scopes: ['BestEffort'] });
    forbidden(
      await createPod('scoped', 'be'),
      'pods "be" is forbidden: exceeded quota: best-effort, requested: pods=1, used: pods=0, limited: pods=0',
    );
    expect((await createPod('scoped', 'burstable', { requests: { memory: '10Mi' } })).status).toBe(201);
    await createQuota('scoped', 'deadline', { pods: '0' }, { pods: '0' }, { scopes: ['Terminating'] });
    const r = await createPod(
      'scoped',
      'job-like',
      { requests: { memory: '10Mi' } },
      { activeDeadlineSeconds: 30 },
    );
    forbidden(
      r,
      'pods "job-like" is forbidden: exceeded quota: deadline, requested: pods=1, used: pods=0, limited: pods=0',
    );
  });

  it('charges a service update by what it adds: a type change to NodePort takes node ports', async () => {
    await createQuota(
      'svc',
      'ports',
      { services: '5', 'services.nodeports': '1' },
      {
        services: '0',
        'services.nodeports': '0',
      },
    );
    const created = await call('POST', '/api/v1/namespaces/svc/services', {
      metadata: { name: 'web' },
      spec: {
        ports: [
          { name: 'a', port: 80 },
          { name: 'b', port: 81 },
        ],
      },
    });
    expect(created.status).toBe(201);
    expect(await used('svc', 'ports')).toEqual({ services: '1', 'services.nodeports': '0' });
    const changed = await call('PUT', '/api/v1/namespaces/svc/services/web', {
      ...created.json,
      spec: { ...created.json.spec, type: 'NodePort' },
    });
    forbidden(
      changed,
      'services "web" is forbidden: exceeded quota: ports, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1',
    );
    expect(await used('svc', 'ports')).toEqual({ services: '1', 'services.nodeports': '0' });
  });

  it('leaves namespaces without quotas alone', async () => {
    expect((await createPod('svc', 'free')).status).toBe(201);
  });
});
