import { startTestAPIServer, type TestAPIServer } from '../../testing/test-apiserver';
import { httpsRequest } from '../../testing/https-request';

const annotation = 'deprecated.daemonset.template.generation';
const path = '/apis/apps/v1/namespaces/default/daemonsets';

/** The template generation apps/v1 carries in an annotation: the server's, as in Kubernetes. */
describe('a DaemonSet template generation', () => {
  let s: TestAPIServer;
  const req = (p: string, options: Parameters<typeof httpsRequest>[1] = {}) =>
    httpsRequest(s.url + p, { ca: s.ca, headers: { authorization: 'Bearer admin-token' }, ...options });
  const daemonSet = (image: string, annotations?: Record<string, string>) => ({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', ...(annotations ? { annotations } : {}) },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image }] } },
    },
  });
  const put = async (body: object) => {
    const current = (await req(`${path}/agent`)).json;
    return req(`${path}/agent`, {
      method: 'PUT',
      body: {
        ...body,
        metadata: {
          ...(body as { metadata: object }).metadata,
          resourceVersion: current.metadata.resourceVersion,
        },
      },
    });
  };

  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: [] });
  });
  afterAll(() => s.close());

  it('is 1 on create, kept by updates that leave the template alone, one more when it changes', async () => {
    const created = await req(path, { method: 'POST', body: daemonSet('agent:1', { [annotation]: '7' }) });
    expect(created.status).toBe(201);
    expect(created.json.metadata.annotations).toEqual({ [annotation]: '1' });
    expect(created.json.metadata.generation).toBe(1);
    // the counts Kubernetes always writes, 0 until the controller counts
    expect(created.json.status).toEqual({
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      desiredNumberScheduled: 0,
      numberReady: 0,
    });

    // an update without the annotation, or naming another value, keeps the stored one
    const relabelled = await put({ ...daemonSet('agent:1', { note: 'x' }) });
    expect(relabelled.json.metadata.annotations).toEqual({ note: 'x', [annotation]: '1' });
    const forged = await put(daemonSet('agent:1', { [annotation]: '9' }));
    expect(forged.json.metadata.annotations).toEqual({ [annotation]: '1' });

    const changed = await put(daemonSet('agent:2'));
    expect(changed.json.metadata.annotations).toEqual({ [annotation]: '2' });
    expect(changed.json.metadata.generation).toBe(2);
    const patched = await req(`${path}/agent`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
      body: { spec: { template: { spec: { containers: [{ name: 'a', image: 'agent:3' }] } } } },
    });
    expect(patched.json.metadata.annotations).toEqual({ [annotation]: '3' });

    // the status subresource changes nothing else
    const status = await req(`${path}/agent/status`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: { metadata: { annotations: { [annotation]: '5' } }, status: { numberReady: 1 } },
    });
    expect(status.status).toBe(200);
    expect(status.json.metadata.annotations).toEqual({ [annotation]: '3' });
    expect(status.json.status).toMatchObject({ numberReady: 1, desiredNumberScheduled: 0 });
  });
});
