import https from 'node:https';
import { DEFAULT_FEATURE_GATES, FeatureGate } from '@orch/component-base';
import { gunzipSync } from 'node:zlib';
import { startTestAPIServer, type TestAPIServer } from '../testing/test-apiserver';
import { httpsRequest } from '../testing/https-request';

describe('orch-apiserver resource API', () => {
  let s: TestAPIServer;
  const req = (path: string, options: Parameters<typeof httpsRequest>[1] = {}) =>
    httpsRequest(s.url + path, { ca: s.ca, ...options });
  const cms = '/api/v1/namespaces/default/configmaps';

  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: [] });
  });
  afterAll(() => s.close());

  it('answers objects with their selfLink at the version asked for: create, get, list, watch, scale', async () => {
    const deployments = '/apis/apps/v1/namespaces/default/deployments';
    const body = {
      metadata: { name: 'linked', selfLink: '/not/kept' },
      spec: {
        selector: { matchLabels: { app: 'l' } },
        template: { metadata: { labels: { app: 'l' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      },
    };
    const watch = req(`${deployments}?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3Dlinked`);
    await new Promise((r) => setTimeout(r, 200));
    const created = await req(deployments, { method: 'POST', body });
    expect(created.status).toBe(201);
    const link = `${deployments}/linked`;
    expect(created.json.metadata.selfLink).toBe(link);
    expect((await req(`${deployments}/linked`)).json.metadata.selfLink).toBe(link);
    expect((await req(deployments)).json.items[0].metadata.selfLink).toBe(link);
    expect((await req(`${deployments}/linked/scale`)).json.metadata.selfLink).toBe(`${link}/scale`);
    const events = (await watch).body
      .toString()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events[0].object.metadata.selfLink).toBe(link);
    // cluster-scoped, core group; and a server-side dry run
    expect((await req('/api/v1/namespaces/default')).json.metadata.selfLink).toBe(
      '/api/v1/namespaces/default',
    );
    const dry = await req(`${cms}?dryRun=All`, { method: 'POST', body: { metadata: { name: 'dry' } } });
    expect(dry.json.metadata.selfLink).toBe(`${cms}/dry`);
    // never stored: storage holds the object without it
    const stored = await s.server.storage.get('/registry/apps/deployments/default/linked');
    expect(JSON.parse(stored!.value.toString()).metadata).not.toHaveProperty('selfLink');
  });

  it("drops the zeros of fields Go holds as plain values, as decoding into Kubernetes' types does", async () => {
    const deployments = '/apis/apps/v1/namespaces/default/deployments';
    const labels = { app: 'zeros' };
    const body = {
      metadata: { name: 'zeros', generateName: '', resourceVersion: '' },
      spec: {
        replicas: 0, // a pointer in Go: kept
        minReadySeconds: 0,
        paused: false,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels, namespace: '' },
          spec: {
            hostNetwork: false,
            terminationGracePeriodSeconds: 0, // a pointer in Go: kept
            containers: [
              { name: 'c', image: 'i', stdin: false, ports: [{ containerPort: 80, hostPort: 0 }] },
            ],
          },
        },
      },
    };
    const created = await req(`${deployments}?fieldManager=writer`, { method: 'POST', body });
    expect(created.status).toBe(201);
    const { metadata, spec } = created.json;
    expect(metadata.generateName).toBeUndefined();
    expect(spec).toMatchObject({ replicas: 0 });
    expect(spec.minReadySeconds).toBeUndefined();
    expect(spec.paused).toBeUndefined();
    expect(spec.template.metadata).toEqual({ labels });
    expect(spec.template.spec.hostNetwork).toBeUndefined();
    expect(spec.template.spec.terminationGracePeriodSeconds).toBe(0);
    expect(spec.template.spec.containers[0].stdin).toBeUndefined();
    expect(spec.template.spec.containers[0].ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
    // nor does the writer own them
    const owned = JSON.stringify(metadata.managedFields[0].fieldsV1);
    expect(owned).not.toContain('f:paused');
    expect(owned).not.toContain('f:hostNetwork');
    expect(owned).toContain('f:replicas');
    // a merge patch setting one to its zero unsets it
    const paused = await req(`${deployments}/zeros`, {
      method: 'PATCH',
      body: { spec: { paused: true } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(paused.json.spec.paused).toBe(true);
    const resumed = await req(`${deployments}/zeros`, {
      method: 'PATCH',
      body: { spec: { paused: false } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(resumed.status).toBe(200);
    expect(resumed.json.spec.paused).toBeUndefined();
  });

  it('creates, reads, replaces and deletes an object with Kubernetes status codes', async () => {
    const created = await req(cms, {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } },
    });
    expect(created.status).toBe(201);
    expect(created.json.metadata).toMatchObject({ name: 'a', namespace: 'default' });
    expect(created.json.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.json.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const rv = created.json.metadata.resourceVersion;

    const again = await req(cms, { method: 'POST', body: { metadata: { name: 'a' } } });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({
      kind: 'Status',
      reason: 'AlreadyExists',
      message: 'configmaps "a" already exists',
      code: 409,
    });

    const got = await req(`${cms}/a`);
    expect(got.json.data).toEqual({ k: 'v' });

    const stale = await req(`${cms}/a`, {
      method: 'PUT',
      body: { metadata: { name: 'a', resourceVersion: '1' + rv }, data: {} },
    });
    expect(stale.status).toBe(409);
    expect(stale.json.reason).toBe('Conflict');
    expect(stale.json.message).toContain('the object has been modified');

    const replaced = await req(`${cms}/a`, {
      method: 'PUT',
      body: { metadata: { name: 'a', resourceVersion: rv }, data: { k: 'w' } },
    });
    expect(replaced.status).toBe(200);
    expect(Number(replaced.json.metadata.resourceVersion)).toBeGreaterThan(Number(rv));
    expect(replaced.json.metadata.uid).toBe(created.json.metadata.uid);

    const deleted = await req(`${cms}/a`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(deleted.json).toMatchObject({
      kind: 'Status',
      status: 'Success',
      code: 200,
      details: { name: 'a', kind: 'configmaps' },
    });
    const missing = await req(`${cms}/a`);
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ reason: 'NotFound', message: 'configmaps "a" not found' });
  });

  it('exports an object with export=true (deprecated): without what a user cannot set; exact keeps the namespace', async () => {
    const deployments = '/apis/apps/v1/namespaces/default/deployments';
    const body = {
      metadata: { generateName: 'exported-', labels: { app: 'x' } },
      spec: {
        selector: { matchLabels: { app: 'x' } },
        template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      },
    };
    const created = await req(deployments, { method: 'POST', body });
    expect(created.status).toBe(201);
    const name = created.json.metadata.name;
    // the stored object has a status and a later generation, which an export does not carry
    const scaled = await req(`${deployments}/${name}/status`, {
      method: 'PUT',
      body: { ...created.json, status: { replicas: 1, observedGeneration: 1 } },
    });
    expect(scaled.status).toBe(200);
    const exported = await req(`${deployments}/${name}?export=true`);
    expect(exported.status).toBe(200);
    expect(String(exported.headers.warning)).toContain('deprecated');
    const m = exported.json.metadata;
    for (const field of ['uid', 'creationTimestamp', 'resourceVersion', 'selfLink', 'namespace', 'name'])
      expect({ field, value: m[field] }).toEqual({ field, value: undefined });
    expect(m).toMatchObject({ generateName: 'exported-', labels: { app: 'x' }, generation: 1 });
    expect(exported.json.spec).toEqual(created.json.spec);
    expect(exported.json.status).toEqual(created.json.status);
    const exact = (await req(`${deployments}/${name}?export=true&exact=true`)).json.metadata;
    expect(exact).toMatchObject({ name, namespace: 'default' });
    expect(exact.uid).toBeUndefined();
    // export=false is an ordinary get
    expect((await req(`${deployments}/${name}?export=false`)).json.metadata.uid).toBe(
      created.json.metadata.uid,
    );
  });

  it('rejects unknown fields under Strict and warns under Warn', async () => {
    const body = { metadata: { name: 'strict' }, data: {}, bogus: 1 };
    const strict = await req(`${cms}?fieldValidation=Strict`, { method: 'POST', body });
    expect(strict.status).toBe(400);
    // a decoded body's errors carry the decoder's prefix (kubectl create prints it); a patch's do not
    expect(strict.json.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus"',
    );
    const twice = await req(`${cms}?fieldValidation=Strict`, {
      method: 'POST',
      body: '{"metadata":{"name":"twice"},"data":{},"data":{}}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(twice.json.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "data"',
    );
    await req(cms, { method: 'POST', body: { metadata: { name: 'patched' } } });
    const patched = await req(`${cms}/patched?fieldValidation=Strict`, {
      method: 'PATCH',
      body: '{"bogus":1}',
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(patched.status).toBe(400);
    expect(patched.json.message).toBe('strict decoding error: unknown field "bogus"');
    const warn = await req(`${cms}?fieldValidation=Warn`, { method: 'POST', body });
    expect(warn.status).toBe(201);
    expect(String(warn.headers.warning)).toContain('unknown field \\"bogus\\"');
    expect(warn.json.bogus).toBeUndefined();
  });

  it('answers validation failures with 422 Invalid and causes', async () => {
    const bad = await req(cms, { method: 'POST', body: { metadata: { name: 'Not_Valid' } } });
    expect(bad.status).toBe(422);
    expect(bad.json.reason).toBe('Invalid');
    expect(bad.json.details.causes[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'metadata.name' });
    expect(bad.json.message).toMatch(
      /^ConfigMap "Not_Valid" is invalid: metadata.name: Invalid value: "Not_Valid": a lowercase RFC 1123 subdomain/,
    );
  });

  it('lists in consistent chunks with continue tokens and remainingItemCount', async () => {
    for (let i = 0; i < 5; i++)
      await req('/api/v1/namespaces/chunks/configmaps', {
        method: 'POST',
        body: { metadata: { name: `c${i}` } },
      });
    const first = await req('/api/v1/namespaces/chunks/configmaps?limit=2');
    expect(first.json.items.map((i: any) => i.metadata.name)).toEqual(['c0', 'c1']);
    expect(first.json.metadata.remainingItemCount).toBe(3);
    await req('/api/v1/namespaces/chunks/configmaps', {
      method: 'POST',
      body: { metadata: { name: 'c2a' } },
    });
    const second = await req(
      `/api/v1/namespaces/chunks/configmaps?limit=2&continue=${encodeURIComponent(first.json.metadata.continue)}`,
    );
    expect(second.json.items.map((i: any) => i.metadata.name)).toEqual(['c2', 'c3']);
    expect(second.json.metadata.resourceVersion).toBe(first.json.metadata.resourceVersion);
    const third = await req(
      `/api/v1/namespaces/chunks/configmaps?limit=2&continue=${encodeURIComponent(second.json.metadata.continue)}`,
    );
    expect(third.json.items.map((i: any) => i.metadata.name)).toEqual(['c4']);
    expect(third.json.metadata.continue).toBeUndefined();
  });

  it('selects by label and field, and refuses fields a kind does not support', async () => {
    await req(cms, { method: 'POST', body: { metadata: { name: 'l1', labels: { app: 'web' } } } });
    await req(cms, { method: 'POST', body: { metadata: { name: 'l2', labels: { app: 'db' } } } });
    const byLabel = await req(`${cms}?labelSelector=${encodeURIComponent('app in (web)')}`);
    expect(byLabel.json.items.map((i: any) => i.metadata.name)).toEqual(['l1']);
    const byField = await req(`${cms}?fieldSelector=metadata.name%3Dl2`);
    expect(byField.json.items.map((i: any) => i.metadata.name)).toEqual(['l2']);
    const bad = await req(`${cms}?fieldSelector=spec.foo%3Dx`);
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe('field label not supported: spec.foo');
  });

  it('serves tables for kubectl get', async () => {
    const t = await req(`${cms}/l1`, {
      headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' },
    });
    expect(t.headers['content-type']).toBe('application/json;as=Table;v=v1;g=meta.k8s.io');
    expect(t.json.kind).toBe('Table');
    expect(t.json.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Data', 'Age']);
    expect(t.json.rows[0].cells.slice(0, 2)).toEqual(['l1', 0]);
    expect(t.json.rows[0].object.kind).toBe('PartialObjectMetadata');
    const unacceptable = await req(`${cms}/l1`, { headers: { Accept: 'text/html' } });
    expect(unacceptable.status).toBe(406);
  });

  it('gzips large answers when the client accepts it', async () => {
    for (let i = 0; i < 40; i++) {
      await req('/api/v1/namespaces/big/configmaps', {
        method: 'POST',
        body: { metadata: { name: `big-${i}` }, data: { blob: 'x'.repeat(4096) } },
      });
    }
    const zipped = await req('/api/v1/namespaces/big/configmaps', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    const list = JSON.parse(gunzipSync(zipped.body).toString());
    expect(list.items).toHaveLength(40);
    const plain = await req('/api/v1/namespaces/big/configmaps');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json.items).toHaveLength(40);
  });

  it('runs dry-run writes without persisting', async () => {
    const dry = await req(`${cms}?dryRun=All`, { method: 'POST', body: { metadata: { name: 'dry' } } });
    expect(dry.status).toBe(201);
    expect((await req(`${cms}/dry`)).status).toBe(404);
    const badDry = await req(`${cms}?dryRun=Yes`, { method: 'POST', body: { metadata: { name: 'dry' } } });
    expect(badDry.status).toBe(422);
  });

  it('patches with merge and JSON patches', async () => {
    await req(cms, { method: 'POST', body: { metadata: { name: 'p' }, data: { a: '1', b: '2' } } });
    const merged = await req(`${cms}/p`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: { data: { a: null, c: '3' } },
    });
    expect(merged.json.data).toEqual({ b: '2', c: '3' });
    const jp = await req(`${cms}/p`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json-patch+json' },
      body: [{ op: 'replace', path: '/data/b', value: 'x' }],
    });
    expect(jp.json.data).toEqual({ b: 'x', c: '3' });
    const wrong = await req(`${cms}/p`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'text/plain' },
      body: '{}',
    });
    expect(wrong.status).toBe(415);
  });

  it("applies strategic merge patches by the kind's merge keys", async () => {
    const deploy = '/apis/apps/v1/namespaces/default/deployments';
    const created = await req(deploy, {
      method: 'POST',
      body: {
        metadata: { name: 'smp' },
        spec: {
          selector: { matchLabels: { app: 'smp' } },
          template: {
            metadata: { labels: { app: 'smp' } },
            spec: {
              containers: [
                { name: 'a', image: 'nginx:1' },
                { name: 'b', image: 'redis:7' },
              ],
            },
          },
        },
      },
    });
    expect(created.status).toBe(201);
    expect(created.json.metadata.generation).toBe(1);
    const patched = await req(`${deploy}/smp`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
      body: { spec: { template: { spec: { containers: [{ name: 'b', image: 'redis:8' }] } } } },
    });
    expect(patched.status).toBe(200);
    expect(patched.json.spec.template.spec.containers.map((c: any) => `${c.name}=${c.image}`)).toEqual([
      'a=nginx:1',
      'b=redis:8',
    ]);
    expect(patched.json.metadata.generation).toBe(2);
    const bad = await req(`${deploy}/smp`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
      body: { spec: { template: { spec: { containers: [{ image: 'x' }] } } } },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain('does not contain declared merge key: name');
  });

  it('streams watch events from a resourceVersion', async () => {
    const list = await req(`${cms}?labelSelector=w%3D1`);
    const rv = list.json.metadata.resourceVersion;
    const events: any[] = [];
    const done = new Promise<void>((resolve, reject) => {
      const r = https.get(
        `${s.url}${cms}?watch=1&labelSelector=w%3D1&resourceVersion=${rv}&timeoutSeconds=5`,
        { ca: s.ca },
        (res) => {
          let buf = '';
          res.on('data', (c: Buffer) => {
            buf += c.toString();
            let i;
            while ((i = buf.indexOf('\n')) >= 0) {
              const line = buf.slice(0, i).trim();
              buf = buf.slice(i + 1);
              if (line) events.push(JSON.parse(line));
              if (events.length === 4) {
                r.destroy();
                resolve();
              }
            }
          });
        },
      );
      r.on('error', (e) => (events.length === 4 ? resolve() : reject(e)));
    });
    await new Promise((r) => setTimeout(r, 100));
    await req(cms, { method: 'POST', body: { metadata: { name: 'w', labels: { w: '1' } } } });
    await req(`${cms}/w`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: { data: { x: 'y' } },
    });
    await req(`${cms}/w`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: { metadata: { labels: { w: '2' } } },
    });
    await req(cms, { method: 'POST', body: { metadata: { name: 'w2', labels: { w: '1' } } } });
    await done;
    expect(events.map((e) => `${e.type}:${e.object.metadata.name}`)).toEqual([
      'ADDED:w',
      'MODIFIED:w',
      'DELETED:w',
      'ADDED:w2',
    ]);
  });

  it('creates namespaces Active with the kubernetes finalizer, keeping the ones given', async () => {
    const plain = await req('/api/v1/namespaces', { method: 'POST', body: { metadata: { name: 'team-a' } } });
    expect(plain.json.status).toEqual({ phase: 'Active' });
    expect(plain.json.spec.finalizers).toEqual(['kubernetes']);
    const custom = await req('/api/v1/namespaces', {
      method: 'POST',
      body: { metadata: { name: 'team-b' }, spec: { finalizers: ['example.com/x'] } },
    });
    expect(custom.json.spec.finalizers).toEqual(['example.com/x', 'kubernetes']);
  });

  it('serves discovery and version', async () => {
    const version = await req('/version');
    expect(version.json).toMatchObject({ major: '1' });
    const core = await req('/api/v1');
    const pods = core.json.resources.find((r: any) => r.name === 'pods');
    expect(pods).toMatchObject({ namespaced: true, kind: 'Pod', shortNames: ['po'] });
    expect(core.json.resources.find((r: any) => r.name === 'pods/binding')).toMatchObject({
      kind: 'Binding',
      verbs: ['create'],
    });
    const groups = await req('/apis');
    expect(groups.json.groups.map((g: any) => g.name)).toEqual(
      expect.arrayContaining(['apps', 'batch', 'rbac.authorization.k8s.io']),
    );
    const apps = await req('/apis/apps/v1');
    expect(apps.json.resources.find((r: any) => r.name === 'deployments/scale')).toMatchObject({
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
    });
    expect((await req('/apis/nope/v1')).status).toBe(404);
  });
});

/** The default feature gates with `values` set, as --feature-gates sets them. */
function gates(values: Record<string, boolean>): FeatureGate {
  const g = new FeatureGate(DEFAULT_FEATURE_GATES);
  expect(g.set(values)).toEqual([]);
  return g;
}

describe('APIServer with the APIResponseCompression, RemainingItemCount, DryRun and ServerSideApply gates off, RemoveSelfLink on', () => {
  let s: TestAPIServer;
  beforeAll(async () => {
    s = await startTestAPIServer({
      admissionPlugins: [],
      featureGates: gates({
        APIResponseCompression: false,
        RemainingItemCount: false,
        DryRun: false,
        ServerSideApply: false,
        RemoveSelfLink: true,
      }),
    });
  });
  afterAll(() => s.close());

  it('refuses dry runs of every write, as Kubernetes does with the gate off, and does the others', async () => {
    const path = '/api/v1/namespaces/orch-public/configmaps';
    const write = (method: string, url: string, body?: unknown, type?: string) =>
      httpsRequest(`${s.url}${url}`, {
        ca: s.ca,
        method,
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: type ? { 'Content-Type': type } : {},
      });
    expect((await write('POST', path, { metadata: { name: 'kept' } })).status).toBe(201);
    for (const [method, url, body, type] of [
      ['POST', `${path}?dryRun=All`, { metadata: { name: 'dry' } }],
      ['PATCH', `${path}/kept?dryRun=All`, { data: { a: '1' } }, 'application/merge-patch+json'],
      ['DELETE', `${path}/kept?dryRun=All`],
    ] as [string, string, unknown?, string?][]) {
      const res = await write(method, url, body, type);
      expect({ method, status: res.status, message: res.json.message, reason: res.json.reason }).toEqual({
        method,
        status: 400,
        message: 'the dryRun beta feature is disabled',
        reason: 'BadRequest',
      });
    }
    expect((await write('GET', `${path}/kept?dryRun=All`)).status).toBe(200);
  });

  it('refuses apply patches and keeps no managedFields, as Kubernetes does with ServerSideApply off', async () => {
    const path = '/api/v1/namespaces/orch-node-lease/configmaps';
    const send = (method: string, url: string, body: unknown, type = 'application/json') =>
      httpsRequest(`${s.url}${path}${url}`, {
        ca: s.ca,
        method,
        body: typeof body === 'string' ? body : JSON.stringify(body),
        headers: { 'Content-Type': type },
      });
    const entry = {
      manager: 'someone',
      operation: 'Update',
      apiVersion: 'v1',
      fieldsType: 'FieldsV1',
      fieldsV1: {},
    };
    const created = await send('POST', '?fieldManager=creator', {
      metadata: { name: 'untracked', managedFields: [entry] },
      data: { a: '1' },
    });
    expect(created.status).toBe(201);
    expect(created.json.metadata).not.toHaveProperty('managedFields');
    const patched = await send('PATCH', '/untracked', { data: { b: '2' } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    expect(patched.json.metadata).not.toHaveProperty('managedFields');
    const replaced = await send('PUT', '/untracked', {
      ...patched.json,
      metadata: { ...patched.json.metadata, managedFields: [entry] },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.json.data).toEqual({ a: '1', b: '2' });
    const got = await httpsRequest(`${s.url}${path}/untracked`, { ca: s.ca });
    expect(got.json.metadata).not.toHaveProperty('managedFields');

    const applied = await send(
      'PATCH',
      '/untracked?fieldManager=applier',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: untracked\ndata:\n  c: "3"\n',
      'application/apply-patch+yaml',
    );
    expect({ status: applied.status, reason: applied.json.reason, message: applied.json.message }).toEqual({
      status: 415,
      reason: 'UnsupportedMediaType',
      message:
        'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json',
    });
    expect((await httpsRequest(`${s.url}${path}/untracked`, { ca: s.ca })).json.data).toEqual({
      a: '1',
      b: '2',
    });
    // nor does the OpenAPI document offer apply
    const openapi = (await httpsRequest(`${s.url}/openapi/v2`, { ca: s.ca })).json;
    expect(openapi.paths['/api/v1/namespaces/{namespace}/configmaps/{name}'].patch.consumes).toEqual([
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
    ]);
  });

  it('lists in chunks without remainingItemCount', async () => {
    const path = '/api/v1/namespaces/default/secrets';
    for (const name of ['a', 'b', 'c'])
      await httpsRequest(`${s.url}${path}`, { ca: s.ca, method: 'POST', body: { metadata: { name } } });
    const page = (await httpsRequest(`${s.url}${path}?limit=1`, { ca: s.ca })).json;
    expect(page.items).toHaveLength(1);
    expect(page.metadata.continue).toBeTruthy();
    expect(page.metadata).not.toHaveProperty('remainingItemCount');
    // and its objects without selfLink
    expect(page.items[0].metadata).not.toHaveProperty('selfLink');
    const got = await httpsRequest(`${s.url}${path}/a`, { ca: s.ca });
    expect(got.json.metadata).not.toHaveProperty('selfLink');
  });

  it('answers in plain bytes even to a client that accepts gzip', async () => {
    const path = '/api/v1/namespaces/default/configmaps';
    for (let i = 0; i < 40; i++) {
      const created = await httpsRequest(`${s.url}${path}`, {
        ca: s.ca,
        method: 'POST',
        body: { metadata: { name: `big-${i}` }, data: { blob: 'x'.repeat(4096) } },
      });
      expect(created.status).toBe(201);
    }
    const list = await httpsRequest(`${s.url}${path}`, { ca: s.ca, headers: { 'Accept-Encoding': 'gzip' } });
    expect(list.body.length).toBeGreaterThan(128 * 1024);
    expect(list.headers['content-encoding']).toBeUndefined();
    expect(list.json.items).toHaveLength(40);
  });
});

describe('APIServer with the APIListChunking gate off', () => {
  let s: TestAPIServer;
  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: [], featureGates: gates({ APIListChunking: false }) });
  });
  afterAll(() => s.close());

  it('answers a list whole, ignoring limit and continue', async () => {
    const path = '/api/v1/namespaces/default/secrets';
    for (const name of ['a', 'b', 'c'])
      await httpsRequest(`${s.url}${path}`, { ca: s.ca, method: 'POST', body: { metadata: { name } } });
    const list = (await httpsRequest(`${s.url}${path}?limit=1&continue=bogus`, { ca: s.ca })).json;
    expect(list.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['a', 'b', 'c']);
    expect(list.metadata).not.toHaveProperty('continue');
    expect(list.metadata).not.toHaveProperty('remainingItemCount');
  });
});
