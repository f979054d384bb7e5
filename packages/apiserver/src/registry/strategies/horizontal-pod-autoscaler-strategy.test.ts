import { startTestAPIServer, type TestAPIServer } from '../../testing/test-apiserver';
import { httpsRequest } from '../../testing/https-request';

const annotation = 'autoscaling.alpha.kubernetes.io/conditions';
const path = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
const conditions = (reason: string) =>
  JSON.stringify([{ type: 'AbleToScale', status: 'True', reason, message: 'm' }]);

/** The conditions autoscaling/v1 carries in an annotation are status, as in Kubernetes. */
describe('the conditions annotation of a HorizontalPodAutoscaler', () => {
  let s: TestAPIServer;
  const req = (p: string, options: Parameters<typeof httpsRequest>[1] = {}) =>
    httpsRequest(s.url + p, { ca: s.ca, headers: { authorization: 'Bearer admin-token' }, ...options });
  const put = async (suffix: string, change: (obj: any) => void) => {
    const current = (await req(`${path}/web`)).json;
    change(current);
    return req(`${path}/web${suffix}`, { method: 'PUT', body: current });
  };

  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: [] });
  });
  afterAll(() => s.close());

  it('is dropped on create, written through status only, kept by updates of the main resource', async () => {
    const created = await req(path, {
      method: 'POST',
      body: {
        apiVersion: 'autoscaling/v1',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'web', annotations: { [annotation]: conditions('Create'), keep: 'me' } },
        spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 3 },
      },
    });
    expect(created.status).toBe(201);
    expect(created.json.metadata.annotations).toEqual({ keep: 'me' });

    const status = await put('/status', (hpa) => {
      hpa.metadata.annotations = { [annotation]: conditions('Status'), other: 'ignored' };
      hpa.status = { currentReplicas: 1, desiredReplicas: 1 };
    });
    expect(status.status).toBe(200);
    expect(status.json.metadata.annotations).toEqual({ keep: 'me', [annotation]: conditions('Status') });
    expect(status.json.status).toEqual({ currentReplicas: 1, desiredReplicas: 1 });

    const update = await put('', (hpa) => {
      hpa.metadata.annotations = { [annotation]: conditions('Update'), other: 'kept' };
      hpa.spec.maxReplicas = 4;
    });
    expect(update.status).toBe(200);
    expect(update.json.metadata.annotations).toEqual({ other: 'kept', [annotation]: conditions('Status') });
    expect(update.json.spec.maxReplicas).toBe(4);
  });
});
