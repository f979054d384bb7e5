import { startTestAPIServer, type TestAPIServer } from '../testing/test-apiserver';
import { httpsRequest } from '../testing/https-request';

const pods = '/api/v1/namespaces/default/pods';

describe("a create's managedFields: what the writer sent and its defaults, not what admission added", () => {
  let s: TestAPIServer;
  const req = (path: string, options: Parameters<typeof httpsRequest>[1] = {}) =>
    httpsRequest(s.url + path, { ca: s.ca, ...options });

  beforeAll(async () => {
    s = await startTestAPIServer();
    const sa = await req('/api/v1/namespaces/default/serviceaccounts', {
      method: 'POST',
      body: { metadata: { name: 'default' } },
    });
    expect([201, 409]).toContain(sa.status);
  });
  afterAll(() => s.close());

  it('leaves the service account, tolerations and priority set by admission unowned', async () => {
    const created = await req(`${pods}?fieldManager=kubectl-run`, {
      method: 'POST',
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', labels: { run: 'p' } },
        spec: { containers: [{ name: 'p', image: 'nginx' }] },
      },
    });
    expect(created.status).toBe(201);
    const pod = created.json;
    // admission did set them
    expect(pod.spec.serviceAccountName).toBe('default');
    expect(pod.spec.tolerations).toHaveLength(2);
    expect(pod.spec.priority).toBe(0);
    const [entry] = pod.metadata.managedFields;
    expect(entry).toMatchObject({ manager: 'kubectl-run', operation: 'Update', apiVersion: 'v1' });
    expect(Object.keys(entry.fieldsV1['f:spec']).sort()).toEqual([
      'f:containers',
      'f:dnsPolicy',
      'f:enableServiceLinks',
      'f:restartPolicy',
      'f:schedulerName',
      'f:securityContext',
      'f:terminationGracePeriodSeconds',
    ]);
    expect(Object.keys(entry.fieldsV1['f:metadata'])).toEqual(['f:labels']);
  });
});
