import { parse as parseYAML } from 'yaml';
import { startTestAPIServer, type TestAPIServer } from '../testing/test-apiserver';
import { httpsRequest } from '../testing/https-request';

/** Tables as kubectl asks for them (doc 1, Table envelope), through a running orch-apiserver. */
describe('Table answers', () => {
  let s: TestAPIServer;
  const req = (path: string, accept: string) =>
    httpsRequest(s.url + path, { ca: s.ca, headers: { Accept: accept } });
  const table = (version = 'v1', group = 'meta.k8s.io', type = 'application/json') =>
    `${type};as=Table;v=${version};g=${group}`;
  const cms = '/api/v1/namespaces/tables/configmaps';
  const deployments = '/apis/apps/v1/namespaces/tables/deployments';

  beforeAll(async () => {
    s = await startTestAPIServer();
    const post = (path: string, body: unknown) =>
      httpsRequest(s.url + path, { ca: s.ca, method: 'POST', body });
    await post('/api/v1/namespaces', { metadata: { name: 'tables' } });
    for (const [i, name] of ['a', 'b', 'c', 'd', 'e'].entries()) {
      const data = Object.fromEntries(Array.from({ length: i }, (_, k) => [`k${k}`, 'v']));
      expect((await post(cms, { metadata: { name, labels: { app: 'tables' } }, data })).status).toBe(201);
    }
    const labels = { app: 'web' };
    const created = await post(deployments, {
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            containers: [
              { name: 'app', image: 'nginx:1.25' },
              { name: 'side', image: 'busybox' },
            ],
          },
        },
      },
    });
    expect(created.status).toBe(201);
  });
  afterAll(() => s.close());

  it.each([
    ['meta.k8s.io', 'v1'],
    ['meta.k8s.io', 'v1beta1'],
    ['meta.orch.io', 'v1'],
    ['meta.orch.io', 'v1beta1'],
  ])('answers a get in the group %s and version %s asked for', async (group, version) => {
    const r = await req(`${cms}/c`, table(version, group));
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe(table(version, group));
    expect(r.json).toMatchObject({ kind: 'Table', apiVersion: `${group}/${version}` });
    expect(r.json.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Data', 'Age']);
    expect(r.json.rows).toHaveLength(1);
    expect(r.json.rows[0].cells.slice(0, 2)).toEqual(['c', 2]);
    // rows carry the object's metadata by default, in the Table's group and version
    expect(r.json.rows[0].object).toMatchObject({
      kind: 'PartialObjectMetadata',
      apiVersion: `${group}/${version}`,
      metadata: { name: 'c', namespace: 'tables', labels: { app: 'tables' } },
    });
  });

  it('carries in each row the metadata, the whole object or nothing, as includeObject asks', async () => {
    const object = await req(`${cms}?includeObject=Object`, table());
    const full = await httpsRequest(`${s.url}${cms}/b`, { ca: s.ca });
    expect(object.json.rows[1].object).toEqual(full.json);
    const none = await req(`${cms}?includeObject=None`, table());
    expect(none.json.rows).toHaveLength(5);
    for (const row of none.json.rows) expect(row).not.toHaveProperty('object');
    const metadata = await req(`${cms}?includeObject=Metadata`, table());
    expect(metadata.json.rows[1].object).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: full.json.metadata,
    });
  });

  it('pages a list with limit and continue, the list metadata in the Table', async () => {
    const first = await req(`${cms}?limit=2`, table());
    expect(first.json.rows.map((r: { cells: unknown[] }) => r.cells[0])).toEqual(['a', 'b']);
    expect(first.json.metadata).toMatchObject({ remainingItemCount: 3 });
    expect(first.json.metadata.continue).toEqual(expect.any(String));
    expect(first.json.metadata.resourceVersion).toMatch(/^\d+$/);
    const rest = await req(
      `${cms}?limit=10&continue=${encodeURIComponent(first.json.metadata.continue)}`,
      table(),
    );
    expect(rest.json.rows.map((r: { cells: unknown[] }) => r.cells[0])).toEqual(['c', 'd', 'e']);
    expect(rest.json.metadata.continue ?? '').toBe('');
    expect(rest.json.metadata.resourceVersion).toBe(first.json.metadata.resourceVersion);
  });

  it("declares a kind's -o wide columns with priority 1, and fills every cell", async () => {
    const r = await req(deployments, table());
    const columns = r.json.columnDefinitions.map((c: { name: string; priority: number }) => [
      c.name,
      c.priority,
    ]);
    expect(columns).toEqual([
      ['Name', 0],
      ['Ready', 0],
      ['Up-to-date', 0],
      ['Available', 0],
      ['Age', 0],
      ['Containers', 1],
      ['Images', 1],
      ['Selector', 1],
    ]);
    expect(r.json.columnDefinitions[0]).toMatchObject({ type: 'string', format: 'name' });
    const [row] = r.json.rows;
    expect(row.cells).toHaveLength(8);
    expect(row.cells[0]).toBe('web');
    expect(row.cells.slice(5)).toEqual(['app,side', 'nginx:1.25,busybox', 'app=web']);
  });

  it('answers Tables in YAML, and never in protobuf, as Kubernetes does', async () => {
    const yaml = await req(`${cms}/a`, table('v1', 'meta.k8s.io', 'application/yaml'));
    expect(yaml.status).toBe(200);
    expect(yaml.headers['content-type']).toBe(table('v1', 'meta.k8s.io', 'application/yaml'));
    const parsed = parseYAML(yaml.body.toString());
    expect(parsed).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect(parsed.rows[0].cells[0]).toBe('a');

    const pbTable = table('v1', 'meta.k8s.io', 'application/vnd.kubernetes.protobuf');
    const refused = await req(`${cms}/a`, pbTable);
    expect(refused.status).toBe(406);
    expect(refused.json).toMatchObject({ kind: 'Status', code: 406, reason: 'NotAcceptable' });
    // with a fallback in the list, the fallback is served
    const fallback = await req(`${cms}/a`, `${pbTable}, ${table()}`);
    expect(fallback.status).toBe(200);
    expect(fallback.json.kind).toBe('Table');
    const plain = await req(`${cms}/a`, `${pbTable}, application/json`);
    expect(plain.json).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'a' } });
  });

  it('streams a watch as Tables of one row each, the columns declared in the first event only', async () => {
    const r = await req(
      `${cms}?watch=1&timeoutSeconds=1&labelSelector=app%3Dtables&includeObject=None`,
      table(),
    );
    expect(r.status).toBe(200);
    // the media type alone, as Kubernetes names a watch's
    expect(r.headers['content-type']).toBe('application/json');
    const events = r.body
      .toString()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'ADDED', 'ADDED', 'ADDED', 'ADDED']);
    for (const e of events) {
      expect(e.object).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
      expect(e.object.rows).toHaveLength(1);
      expect(e.object.rows[0]).not.toHaveProperty('object');
    }
    expect(events[0].object.columnDefinitions.map((c: { name: string }) => c.name)).toEqual([
      'Name',
      'Data',
      'Age',
    ]);
    for (const e of events.slice(1)) expect(e.object.columnDefinitions ?? []).toEqual([]);
    expect(events.map((e) => e.object.rows[0].cells[0])).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});
