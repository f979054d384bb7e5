import { startTestAPIServer, type TestAPIServer } from '../testing/test-apiserver';
import { httpsRequest } from '../testing/https-request';
import { managerOrUserAgent } from './manager-name';

const deployments = '/apis/apps/v1/namespaces/default/deployments';
const applyType = { 'Content-Type': 'application/apply-patch+yaml' };

const deploymentYAML = (replicas: number, containers = ['nginx']) => `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
${containers.map((c) => `      - name: ${c}\n        image: ${c}:1\n        ports:\n        - containerPort: 80`).join('\n')}
`;

describe('server-side apply and managedFields through the apiserver', () => {
  let s: TestAPIServer;
  const req = (path: string, options: Parameters<typeof httpsRequest>[1] = {}) =>
    httpsRequest(s.url + path, { ca: s.ca, ...options });
  const apply = (name: string, body: string, query: string, path = deployments) =>
    req(`${path}/${name}?${query}`, { method: 'PATCH', body, headers: applyType });

  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: [] });
  });
  afterAll(() => s.close());

  it('derives the manager from the User-Agent as Kubernetes does', () => {
    expect(managerOrUserAgent(undefined, 'kubectl/v1.29.0 (linux/amd64) kubernetes/3f7a50f')).toBe('kubectl');
    expect(managerOrUserAgent('mine', 'kubectl/v1.29.0')).toBe('mine');
    expect(managerOrUserAgent(undefined, 'x'.repeat(200))).toHaveLength(128);
  });

  it('requires a fieldManager, refuses managedFields in the body and force on other patches', async () => {
    const missing = await apply('web', deploymentYAML(1), '');
    expect(missing.status).toBe(422);
    expect(missing.json).toMatchObject({
      reason: 'Invalid',
      message:
        'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
      details: { causes: [{ reason: 'FieldValueRequired', field: 'fieldManager' }] },
    });
    const withManaged = await apply(
      'web',
      JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', managedFields: [] },
      }),
      'fieldManager=a',
    );
    expect(withManaged.status).toBe(400);
    expect(withManaged.json.message).toBe('metadata.managedFields must be nil');
    const forced = await req(`${deployments}/web?force=true`, {
      method: 'PATCH',
      body: {},
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(forced.status).toBe(422);
  });

  it('refuses a configuration that is no typed value of the kind with 400, storing nothing', async () => {
    const config = (spec: object) =>
      JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'untyped' }, spec });
    const containers = (names: string[]) => ({
      selector: { matchLabels: { app: 'u' } },
      template: {
        metadata: { labels: { app: 'u' } },
        spec: { containers: names.map((name) => ({ name, image: 'nginx' })) },
      },
    });
    for (const [spec, message] of [
      [{ ...containers(['c']), bogus: 1 }, '.spec.bogus: field not declared in schema'],
      [containers(['c', 'c']), '.spec.template.spec.containers: duplicate entries for key [name="c"]'],
    ] as const) {
      const r = await apply('untyped', config(spec), 'fieldManager=a');
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({
        reason: 'BadRequest',
        message: `failed to create typed patch object: ${message}`,
      });
    }
    expect((await req(`${deployments}/untyped`)).status).toBe(404);
  });

  it('rule 10: apply is served by default, with JSON or YAML bodies', async () => {
    const cms = '/api/v1/namespaces/default/configmaps';
    const json = await apply(
      'j',
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'j' }, data: { a: '1' } }),
      'fieldManager=a',
      cms,
    );
    expect(json.status).toBe(201);
    const yaml = await apply(
      'j',
      'apiVersion: v1\nkind: ConfigMap\ndata:\n  a: "2"\n',
      'fieldManager=a',
      cms,
    );
    expect(yaml.status).toBe(200);
    expect(yaml.json.data).toEqual({ a: '2' });
    const wrongVersion = await apply('j', 'apiVersion: v2\nkind: ConfigMap\n', 'fieldManager=a', cms);
    expect(wrongVersion.status).toBe(400);
    expect(wrongVersion.json.message).toBe(
      'Incorrect version specified in apply patch. Specified patch version: v2, expected: v1',
    );
  });

  it('dryRun=All applies without persisting', async () => {
    const dry = await apply(
      'dry',
      deploymentYAML(1).replace('name: web', 'name: dry'),
      'fieldManager=a&dryRun=All',
    );
    expect(dry.status).toBe(201);
    expect(dry.json.metadata.managedFields[0]).toMatchObject({ manager: 'a', operation: 'Apply' });
    expect((await req(`${deployments}/dry`)).status).toBe(404);
  });

  it('creates with apply, conflicts with another manager, and forces', async () => {
    const created = await apply('web', deploymentYAML(2), 'fieldManager=kubectl');
    expect(created.status).toBe(201);
    expect(created.json.spec.replicas).toBe(2);
    expect(created.json.spec.progressDeadlineSeconds).toBe(600);
    expect(created.json.metadata.managedFields).toEqual([
      expect.objectContaining({
        manager: 'kubectl',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        fieldsType: 'FieldsV1',
      }),
    ]);

    const conflict = await apply('web', deploymentYAML(3), 'fieldManager=other');
    expect(conflict.status).toBe(409);
    expect(conflict.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Conflict',
      code: 409,
      message: 'Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas',
      details: {
        causes: [
          { reason: 'FieldManagerConflict', message: 'conflict with "kubectl"', field: '.spec.replicas' },
        ],
      },
    });

    const forced = await apply('web', deploymentYAML(3), 'fieldManager=other&force=true');
    expect(forced.status).toBe(200);
    expect(forced.json.spec.replicas).toBe(3);
    const other = forced.json.metadata.managedFields.find((e: any) => e.manager === 'other');
    expect(JSON.stringify(other.fieldsV1)).toContain('f:replicas');
    const kubectl = forced.json.metadata.managedFields.find((e: any) => e.manager === 'kubectl');
    expect(JSON.stringify(kubectl.fieldsV1)).not.toContain('f:replicas');
  });

  it('records Update entries for create, update and non-apply patches; ownership moves with changes', async () => {
    const cms = '/api/v1/namespaces/default/configmaps';
    const created = await req(cms, {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'u' }, data: { a: '1' } },
      headers: { 'User-Agent': 'kubectl/v1.29.0 (linux/amd64) kubernetes/3f7a50f' },
    });
    expect(created.json.metadata.managedFields).toEqual([
      {
        manager: 'kubectl',
        operation: 'Update',
        apiVersion: 'v1',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } },
      },
    ]);
    const patched = await req(`${cms}/u?fieldManager=kubectl-edit`, {
      method: 'PATCH',
      body: { data: { a: '2', b: '1' } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(patched.json.metadata.managedFields.map((e: any) => [e.manager, e.fieldsV1])).toEqual([
      ['kubectl', { 'f:data': {} }],
      ['kubectl-edit', { 'f:data': { 'f:a': {}, 'f:b': {} } }],
    ]);
    const put = await req(`${cms}/u?fieldManager=replacer`, {
      method: 'PUT',
      body: { ...patched.json, data: { a: '2', b: '1', c: '1' } },
    });
    expect(put.json.metadata.managedFields.map((e: any) => e.manager)).toEqual([
      'kubectl',
      'kubectl-edit',
      'replacer',
    ]);
    // an update never conflicts, even over applied fields
    await apply(
      'u',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: u}\ndata: {c: "1"}',
      'fieldManager=ssa',
    );
    const over = await req(`${cms}/u?fieldManager=kubectl-edit`, {
      method: 'PATCH',
      body: { data: { c: '9' } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(over.status).toBe(200);
    expect(over.json.metadata.managedFields.find((e: any) => e.manager === 'ssa')).toBeUndefined();
  });

  it('clears managedFields with a single empty entry (merge and JSON patch), not with an empty list', async () => {
    const cms = '/api/v1/namespaces/default/configmaps';
    await apply(
      'r',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: r}\ndata: {a: "1"}',
      'fieldManager=ssa',
      cms,
    );
    const empty = await req(`${cms}/r`, {
      method: 'PATCH',
      body: { metadata: { managedFields: [] } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(empty.json.metadata.managedFields.map((e: any) => e.manager)).toEqual(['ssa']);
    const reset = await req(`${cms}/r?fieldManager=resetter`, {
      method: 'PATCH',
      body: { metadata: { managedFields: [{}] }, data: { b: '2' } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(reset.json.metadata.managedFields).toEqual([
      expect.objectContaining({ manager: 'resetter', fieldsV1: { 'f:data': { 'f:b': {} } } }),
    ]);
    const jsonReset = await req(`${cms}/r`, {
      method: 'PATCH',
      body: [{ op: 'replace', path: '/metadata/managedFields', value: [{}] }],
      headers: { 'Content-Type': 'application/json-patch+json' },
    });
    expect(jsonReset.status).toBe(200);
    expect(jsonReset.json.metadata.managedFields).toBeUndefined();
    const invalid = await req(`${cms}/r`, {
      method: 'PATCH',
      body: {
        metadata: {
          managedFields: [
            { manager: 'x', operation: 'Nope', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} } },
          ],
        },
      },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.json.message).toContain(
      'metadata.managedFields[0].operation: Invalid value: "Nope": must be `Apply` or `Update`',
    );
  });

  it('tracks status and scale writers under their subresources', async () => {
    await apply('sub', deploymentYAML(1).replace('name: web', 'name: sub'), 'fieldManager=kubectl');
    const status = await req(`${deployments}/sub/status?fieldManager=controller`, {
      method: 'PATCH',
      body: { status: { replicas: 1 } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(status.status).toBe(200);
    expect(status.json.metadata.managedFields).toContainEqual(
      expect.objectContaining({
        manager: 'controller',
        operation: 'Update',
        subresource: 'status',
        fieldsV1: { 'f:status': { 'f:replicas': {} } },
      }),
    );
    const scaled = await req(`${deployments}/sub/scale?fieldManager=scaler`, {
      method: 'PATCH',
      body: { spec: { replicas: 4 } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(scaled.status).toBe(200);
    const got = (await req(`${deployments}/sub`)).json;
    expect(got.spec.replicas).toBe(4);
    expect(got.metadata.managedFields).toContainEqual(
      expect.objectContaining({
        manager: 'scaler',
        apiVersion: 'apps/v1',
        subresource: 'scale',
        fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      }),
    );
    const again = await apply(
      'sub',
      deploymentYAML(1).replace('name: web', 'name: sub'),
      'fieldManager=kubectl',
    );
    expect(again.status).toBe(409);
    expect(again.json.message).toBe(
      'Apply failed with 1 conflict: conflict with "scaler" with subresource "scale" using apps/v1: .spec.replicas',
    );
  });

  it("keeps a client-side apply annotation in step with kubectl's server-side applies", async () => {
    const cms = '/api/v1/namespaces/default/configmaps';
    const key = 'kubectl.kubernetes.io/last-applied-configuration';
    const first = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'la', annotations: {} },
      data: { a: '1' },
    };
    await req(`${cms}?fieldManager=kubectl-client-side-apply`, {
      method: 'POST',
      body: { ...first, metadata: { name: 'la', annotations: { [key]: JSON.stringify(first) } } },
    });
    const config = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'la' },
      data: { a: '1', b: '2' },
    };
    const applied = await apply('la', JSON.stringify(config), 'fieldManager=kubectl', cms);
    expect(JSON.parse(applied.json.metadata.annotations[key])).toEqual(config);
    const other = await apply(
      'la',
      JSON.stringify({ ...config, data: { c: '3' } }),
      'fieldManager=other',
      cms,
    );
    expect(JSON.parse(other.json.metadata.annotations[key])).toEqual(config);
  });

  it('prunes list items a manager applied before and omits now', async () => {
    await apply(
      'prune',
      deploymentYAML(1, ['a', 'b']).replace('name: web', 'name: prune'),
      'fieldManager=kubectl',
    );
    const out = await apply(
      'prune',
      deploymentYAML(1, ['a']).replace('name: web', 'name: prune'),
      'fieldManager=kubectl',
    );
    expect(out.status).toBe(200);
    expect(out.json.spec.template.spec.containers.map((c: any) => c.name)).toEqual(['a']);
  });

  it('serves applies and strategic merge patches concurrently', async () => {
    await apply('perf', deploymentYAML(1).replace('name: web', 'name: perf'), 'fieldManager=kubectl');
    const n = 200;
    let start = Date.now();
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        apply('perf', deploymentYAML(1 + (i % 3)).replace('name: web', 'name: perf'), 'fieldManager=kubectl'),
      ),
    );
    const applyRate = n / ((Date.now() - start) / 1000);
    start = Date.now();
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        req(`${deployments}/perf?fieldManager=smp`, {
          method: 'PATCH',
          body: { metadata: { labels: { n: String(i % 5) } } },
          headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
        }),
      ),
    );
    const smpRate = n / ((Date.now() - start) / 1000);
    process.stdout.write(`apply/s ${applyRate.toFixed(0)}, strategic merge patch/s ${smpRate.toFixed(0)}\n`);
    // a loose floor: the machine is shared; bench/ measures the targets
    expect(applyRate).toBeGreaterThan(20);
    expect(smpRate).toBeGreaterThan(20);
    const final = (await req(`${deployments}/perf`)).json;
    expect(final.metadata.managedFields.map((e: any) => e.manager)).toEqual(['kubectl', 'smp']);
  });
});
