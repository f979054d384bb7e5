import { startTestAPIServer, type TestAPIServer } from '../../testing/test-apiserver';
import { httpsRequest, type HttpsRequestOptions } from '../../testing/https-request';
import { eventually } from '../../testing/eventually';
import { NAMESPACE_NAME_LABEL } from './namespace-strategy';

describe('namespaces', () => {
  let s: TestAPIServer;
  const req = (path: string, options: HttpsRequestOptions = {}) =>
    httpsRequest(s.url + path, { ca: s.ca, ...options });
  const merge = { 'Content-Type': 'application/merge-patch+json' };

  beforeAll(async () => {
    s = await startTestAPIServer();
  });
  afterAll(() => s.close());

  it('is set on create, from a generated name too, and on the bootstrap namespaces', async () => {
    const named = await req('/api/v1/namespaces', {
      method: 'POST',
      body: { metadata: { name: 'team-a', labels: { [NAMESPACE_NAME_LABEL]: 'other', team: 'a' } } },
    });
    expect(named.status).toBe(201);
    expect(named.json.metadata.labels).toEqual({ [NAMESPACE_NAME_LABEL]: 'team-a', team: 'a' });
    const generated = await req('/api/v1/namespaces', {
      method: 'POST',
      body: { metadata: { generateName: 'gen-' } },
    });
    expect(generated.status).toBe(201);
    expect(generated.json.metadata.labels[NAMESPACE_NAME_LABEL]).toBe(generated.json.metadata.name);
    const list = await req(
      `/api/v1/namespaces?labelSelector=${encodeURIComponent(`${NAMESPACE_NAME_LABEL}=default`)}`,
    );
    expect(list.json.items.map((n: { metadata: { name: string } }) => n.metadata.name)).toEqual(['default']);
  });

  it('cannot be changed or removed by an update', async () => {
    for (const value of ['changed', null]) {
      const r = await req('/api/v1/namespaces/team-a', {
        method: 'PATCH',
        headers: merge,
        body: JSON.stringify({ metadata: { labels: { [NAMESPACE_NAME_LABEL]: value, team: 'b' } } }),
      });
      expect(r.status).toBe(200);
      expect(r.json.metadata.labels).toEqual({ [NAMESPACE_NAME_LABEL]: 'team-a', team: 'b' });
    }
  });

  it('are not deleted as a collection: 405, and no deletecollection in discovery', async () => {
    const r = await req('/api/v1/namespaces', { method: 'DELETE' });
    expect(r.status).toBe(405);
    expect(r.json).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed', code: 405 });
    expect((await req('/api/v1/namespaces/team-a')).status).toBe(200);
    const resources = (await req('/api/v1')).json.resources as { name: string; verbs: string[] }[];
    expect(resources.find((x) => x.name === 'namespaces')?.verbs).toEqual([
      'create',
      'delete',
      'get',
      'list',
      'patch',
      'update',
      'watch',
    ]);
  });

  it('that are system ones come back once deleted, as Kubernetes re-creates them', async () => {
    const quick = await startTestAPIServer({ systemNamespacesIntervalMs: 200 });
    try {
      const lease = `${quick.url}/api/v1/namespaces/orch-node-lease`;
      const deleted = await httpsRequest(lease, { ca: quick.ca, method: 'DELETE' });
      expect(deleted.status).toBe(200);
      // Terminating until the namespace controller (not running here) finalizes it
      const finalize = await httpsRequest(`${lease}/finalize`, {
        ca: quick.ca,
        method: 'PUT',
        body: {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: 'orch-node-lease' },
          spec: { finalizers: [] },
        },
      });
      expect(finalize.status).toBe(200);
      const back = await eventually(async () => {
        const r = await httpsRequest(lease, { ca: quick.ca });
        return r.status === 200 && !r.json.metadata.deletionTimestamp ? r.json : undefined;
      }, 'orch-node-lease created again');
      expect(back.status.phase).toBe('Active');
      expect(back.metadata.uid).not.toBe(deleted.json.metadata?.uid);
    } finally {
      await quick.close();
    }
  });
});
