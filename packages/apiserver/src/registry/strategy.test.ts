import { startTestAPIServer, type TestAPIServer } from '../testing/test-apiserver';
import { httpsRequest } from '../testing/https-request';

describe('Strategy: metadata.generation', () => {
  let s: TestAPIServer;
  const post = (path: string, body: unknown) =>
    httpsRequest(s.url + path, { ca: s.ca, method: 'POST', body });

  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: [] });
  });
  afterAll(() => s.close());

  it('is kept for workloads and not for pods, services, claims or quotas, as in Kubernetes 1.29', async () => {
    const ns = '/api/v1/namespaces/default';
    const pod = await post(`${ns}/pods`, {
      metadata: { name: 'p', generation: 5 },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    });
    const svc = await post(`${ns}/services`, { metadata: { name: 's' }, spec: { ports: [{ port: 80 }] } });
    const pvc = await post(`${ns}/persistentvolumeclaims`, {
      metadata: { name: 'c' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    const quota = await post(`${ns}/resourcequotas`, {
      metadata: { name: 'q' },
      spec: { hard: { pods: '10' } },
    });
    const namespace = await post('/api/v1/namespaces', { metadata: { name: 'gen' } });
    for (const r of [pod, svc, pvc, quota, namespace]) {
      expect(r.status).toBe(201);
      expect(r.json.metadata).not.toHaveProperty('generation');
    }
    const deployment = await post('/apis/apps/v1/namespaces/default/deployments', {
      metadata: { name: 'd' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    });
    expect(deployment.status).toBe(201);
    expect(deployment.json.metadata.generation).toBe(1);
  });
});

describe('Strategy: status', () => {
  let s: TestAPIServer;
  const req = (path: string, method: string, body?: unknown) =>
    httpsRequest(s.url + path, { ca: s.ca, method, body });
  const cronjobs = '/apis/batch/v1/namespaces/default/cronjobs';
  const cronjob = {
    metadata: { name: 'cj' },
    spec: {
      schedule: '*/5 * * * *',
      jobTemplate: {
        spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } } },
      },
    },
  };

  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: [] });
  });
  afterAll(() => s.close());

  it('is an empty struct, not absent, before anything writes it, and stays one', async () => {
    const created = await req(cronjobs, 'POST', cronjob);
    expect(created.status).toBe(201);
    expect(created.json.status).toEqual({});
    expect((await req(`${cronjobs}/cj`, 'GET')).json.status).toEqual({});
    // a status write without status leaves the empty struct
    const { status: _status, ...withoutStatus } = created.json;
    const written = await req(`${cronjobs}/cj/status`, 'PUT', withoutStatus);
    expect(written.status).toBe(200);
    expect(written.json.status).toEqual({});
    const replaced = await req(`${cronjobs}/cj`, 'PUT', withoutStatus);
    expect(replaced.status).toBe(200);
    expect(replaced.json.status).toEqual({});
  });
});
