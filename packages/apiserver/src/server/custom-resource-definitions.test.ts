import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_NESTING_DEPTH } from '../negotiation/check-decoded';
import { startTestAPIServer, type TestAPIServer } from '../testing/test-apiserver';
import { httpsRequest, type HttpsResponse } from '../testing/https-request';
import { eventually } from '../testing/eventually';
import { SqliteStorage } from '../storage/embedded/sqlite-storage';

type Json = Record<string, any>;

/** A CRD as `kubectl apply -f` sends it: widgets.example.com, namespaced, status and scale. */
function widgetsCRD(extra: Json = {}): Json {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget', shortNames: ['wd'], categories: ['all'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: {
            status: {},
            scale: {
              specReplicasPath: '.spec.replicas',
              statusReplicasPath: '.status.replicas',
              labelSelectorPath: '.status.selector',
            },
          },
          additionalPrinterColumns: [
            { name: 'Size', type: 'string', jsonPath: '.spec.size' },
            { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  required: ['size'],
                  properties: {
                    size: { type: 'string', enum: ['small', 'large'] },
                    replicas: { type: 'integer', minimum: 0, default: 1 },
                    color: { type: 'string', default: 'blue' },
                    nickname: { type: 'string', nullable: true, default: 'none' },
                    contact: { type: 'string', format: 'email' },
                    since: { type: 'string', format: 'date' },
                    note: { type: 'string', format: 'unknown-format' },
                    pair: {
                      type: 'object',
                      properties: { a: { type: 'string' }, b: { type: 'string' } },
                      oneOf: [{ required: ['a'] }, { required: ['b'] }],
                    },
                    level: { type: 'string', not: { enum: ['forbidden'] } },
                    code: {
                      type: 'string',
                      allOf: [{ maxLength: 4 }],
                      anyOf: [{ pattern: '^x' }, { pattern: '^y' }],
                    },
                    port: { 'x-kubernetes-int-or-string': true },
                    extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                    tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
                    ports: {
                      type: 'array',
                      items: {
                        type: 'object',
                        properties: { name: { type: 'string' }, port: { type: 'integer' } },
                      },
                      'x-kubernetes-list-type': 'map',
                      'x-kubernetes-list-map-keys': ['name'],
                    },
                  },
                },
                status: {
                  type: 'object',
                  properties: { replicas: { type: 'integer' }, selector: { type: 'string' } },
                },
              },
            },
          },
        },
        { name: 'v1beta1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
      ],
      ...extra,
    },
  };
}

describe('CustomResourceDefinitions', () => {
  let s: TestAPIServer;
  const req = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    httpsRequest(s.url + path, { ca: s.ca, method, body, headers });
  const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
  const widgets = '/apis/example.com/v1/namespaces/default/widgets';
  const established = (r: HttpsResponse) =>
    r.json?.status?.conditions?.some((c: Json) => c.type === 'Established' && c.status === 'True');

  beforeAll(async () => {
    s = await startTestAPIServer();
  });
  afterAll(() => s.close());

  it.each([
    [
      'a name that is not plural.group',
      { metadata: { name: 'gadgets.example.com' } },
      'metadata.name: Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group',
    ],
    [
      'a group without a dot',
      { metadata: { name: 'widgets.example' }, spec: { group: 'example' } },
      'spec.group: Invalid value: "example": should be a domain with at least one dot',
    ],
    [
      'a bad scope',
      { spec: { scope: 'Global' } },
      'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
    ],
    [
      'two storage versions',
      {
        spec: {
          versions: [true, true].map((storage, i) => ({
            name: `v${i + 1}`,
            served: true,
            storage,
            schema: { openAPIV3Schema: { type: 'object' } },
          })),
        },
      },
      'must have exactly one version marked as storage version',
    ],
    [
      'a version without schema',
      { spec: { versions: [{ name: 'v1', served: true, storage: true }] } },
      'spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required',
    ],
    [
      'a root that is not an object',
      {
        spec: {
          versions: [
            { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'string' } } },
          ],
        },
      },
      'spec.versions[0].schema.openAPIV3Schema.type: Invalid value: "string": must be object at the root',
    ],
    [
      'an uppercase plural',
      { metadata: { name: 'Widgets.example.com' }, spec: { names: { plural: 'Widgets', kind: 'Widget' } } },
      'spec.names.plural: Invalid value: "Widgets"',
    ],
  ])('refuses %s with 422 Invalid', async (_what, patch: Json, message) => {
    const base = widgetsCRD();
    const body = {
      ...base,
      metadata: { ...base.metadata, ...patch.metadata },
      spec: { ...base.spec, ...patch.spec },
    };
    const r = await req('POST', crds, body);
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ kind: 'Status', reason: 'Invalid' });
    expect(r.json.message).toContain(message);
  });

  describe('serving a definition', () => {
    /** Creates a small Widget with `spec` added. */
    const widget = (name: string, spec: Record<string, unknown>) =>
      req('POST', widgets, {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name },
        spec: { size: 'small', ...spec },
      });

    beforeAll(async () => {
      const r = await req('POST', crds, widgetsCRD());
      expect(r.status).toBe(201);
      expect(r.json.status.storedVersions).toEqual(['v1']);
      expect(r.json.spec.names).toMatchObject({ singular: 'widget', listKind: 'WidgetList' });
      expect(r.json.spec.conversion).toEqual({ strategy: 'None' });
    });

    it('becomes Established with its names accepted', async () => {
      const r = await eventually(async () => {
        const got = await req('GET', `${crds}/widgets.example.com`);
        return established(got) && got;
      }, 'Established');
      const conditions = Object.fromEntries(r.json.status.conditions.map((c: Json) => [c.type, c]));
      expect(conditions.NamesAccepted).toMatchObject({
        status: 'True',
        reason: 'NoConflicts',
        message: 'no conflicts found',
      });
      expect(conditions.Established).toMatchObject({
        status: 'True',
        reason: 'InitialNamesAccepted',
        message: 'the initial names have been accepted',
      });
      expect(r.json.status.acceptedNames).toMatchObject({
        plural: 'widgets',
        kind: 'Widget',
        shortNames: ['wd'],
      });
    });

    it('is listed in discovery', async () => {
      const groups = await req('GET', '/apis');
      const group = groups.json.groups.find((g: Json) => g.name === 'example.com');
      expect(group.preferredVersion.version).toBe('v1');
      expect(group.versions.map((v: Json) => v.version)).toEqual(['v1', 'v1beta1']);
      const list = await req('GET', '/apis/example.com/v1');
      const byName = Object.fromEntries(list.json.resources.map((r: Json) => [r.name, r]));
      expect(byName.widgets).toMatchObject({
        singularName: 'widget',
        namespaced: true,
        kind: 'Widget',
        shortNames: ['wd'],
        categories: ['all'],
      });
      expect(byName.widgets.verbs).toEqual(
        expect.arrayContaining(['create', 'get', 'list', 'watch', 'deletecollection']),
      );
      expect(byName['widgets/status'].verbs).toEqual(['get', 'patch', 'update']);
      expect(byName['widgets/scale']).toMatchObject({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
      const crdList = await req('GET', '/apis/apiextensions.k8s.io/v1');
      expect(crdList.json.resources[0]).toMatchObject({
        name: 'customresourcedefinitions',
        namespaced: false,
        shortNames: ['crd', 'crds'],
        categories: ['api-extensions'],
      });
    });

    it('creates, prunes, defaults and validates custom resources', async () => {
      const created = await req('POST', widgets, {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w1' },
        spec: { size: 'small', unknown: 'x', port: 'http', extra: { any: { thing: 1 } } },
        status: { replicas: 9 },
      });
      expect(created.status).toBe(201);
      expect(created.json.spec).toEqual({
        size: 'small',
        replicas: 1,
        color: 'blue',
        nickname: 'none',
        port: 'http',
        extra: { any: { thing: 1 } },
      });
      expect(created.json.status).toBeUndefined();
      expect(created.json.metadata.generation).toBe(1);
      const bad = await req('POST', widgets, {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w2' },
        spec: { size: 'huge', replicas: 'three' },
      });
      expect(bad.status).toBe(422);
      expect(bad.json.message).toContain(
        'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
      );
      const missing = await req('POST', widgets, {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w3' },
        spec: {},
      });
      expect(missing.status).toBe(422);
      expect(missing.json.message).toContain('spec.size: Required value');
      const badName = await req('POST', widgets, {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'Bad_Name' },
        spec: { size: 'small' },
      });
      expect(badName.status).toBe(422);
    });

    it('keeps an explicit null in a nullable field, undefaulted; prunes it elsewhere, then defaults', async () => {
      const created = await req('POST', widgets, {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w-null' },
        spec: { size: 'small', nickname: null, color: null },
      });
      expect(created.status).toBe(201);
      expect(created.json.spec).toEqual({ size: 'small', replicas: 1, color: 'blue', nickname: null });
      const read = await req('GET', `${widgets}/w-null`);
      expect(read.json.spec.nickname).toBeNull();
      const unset = await req('POST', widgets, {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w-unset' },
        spec: { size: 'small' },
      });
      expect(unset.json.spec.nickname).toBe('none');
      for (const name of ['w-null', 'w-unset']) await req('DELETE', `${widgets}/${name}`);
    });

    it('checks the string formats Kubernetes knows, and only those', async () => {
      const bad = await widget('w-format', { contact: 'not-an-email', since: '2024-13-45' });
      expect(bad.status).toBe(422);
      expect(bad.json.message).toContain(
        'spec.contact: Invalid value: "not-an-email": spec.contact in body must be of type email: "not-an-email"',
      );
      expect(bad.json.message).toContain(
        'spec.since: Invalid value: "2024-13-45": spec.since in body must be of type date: "2024-13-45"',
      );
      const good = await widget('w-format', { contact: 'ops@example.com', since: '2024-02-29', note: 'x' });
      expect(good.status).toBe(201);
      await req('DELETE', `${widgets}/w-format`);
    });

    it('checks oneOf, anyOf, allOf and not', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [
          { pair: {} },
          'spec.pair: Invalid value: "object": spec.pair must validate one and only one schema (oneOf). Found none valid',
        ],
        [
          { pair: { a: '1', b: '2' } },
          'spec.pair: Invalid value: "object": spec.pair must validate one and only one schema (oneOf). Found 2 valid alternatives',
        ],
        [
          { level: 'forbidden' },
          'spec.level: Invalid value: "string": spec.level must not validate the schema (not)',
        ],
        [{ code: 'xlong' }, 'spec.code: Too long: must have at most 4 bytes'],
        [
          { code: 'zz' },
          'spec.code: Invalid value: "string": spec.code must validate at least one schema (anyOf)',
        ],
      ];
      for (const [spec, message] of cases) {
        const res = await widget('w-comb', spec);
        expect([spec, res.status, res.json.message]).toEqual([spec, 422, expect.stringContaining(message)]);
      }
      const good = await widget('w-comb', { pair: { a: '1' }, level: 'ok', code: 'x1' });
      expect(good.status).toBe(201);
      await req('DELETE', `${widgets}/w-comb`);
    });

    it('refuses repeated items of sets and maps (x-kubernetes-list-type) with 422', async () => {
      const widget = (name: string, spec: Json) => ({
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name },
        spec: { size: 'small', ...spec },
      });
      const bad = await req(
        'POST',
        widgets,
        widget('repeats', {
          tags: ['a', 'b', 'a'],
          ports: [
            { name: 'http', port: 80 },
            { name: 'http', port: 8080 },
          ],
        }),
      );
      expect(bad.status).toBe(422);
      expect(bad.json.details.causes).toEqual(
        expect.arrayContaining([
          { reason: 'FieldValueDuplicate', message: 'Duplicate value: "a"', field: 'spec.tags[2]' },
          {
            reason: 'FieldValueDuplicate',
            message: 'Duplicate value: map[string]interface {}{"name":"http"}',
            field: 'spec.ports[1]',
          },
        ]),
      );
      const fine = await req(
        'POST',
        widgets,
        widget('distinct', {
          tags: ['a', 'b'],
          ports: [
            { name: 'http', port: 80 },
            { name: 'https', port: 80 },
          ],
        }),
      );
      expect(fine.status).toBe(201);
      expect((await req('DELETE', `${widgets}/distinct`)).status).toBe(200);
    });

    it('serves every served version, objects carrying the version asked for', async () => {
      const v1beta1 = await req('GET', '/apis/example.com/v1beta1/namespaces/default/widgets/w1');
      expect(v1beta1.status).toBe(200);
      expect(v1beta1.json.apiVersion).toBe('example.com/v1beta1');
      const list = await req('GET', widgets);
      expect(list.json).toMatchObject({ kind: 'WidgetList', apiVersion: 'example.com/v1' });
      expect(list.json.items.map((i: Json) => i.metadata.name)).toEqual(['w1']);
    });

    it('answers a strategic merge patch with 415 and applies merge and JSON patches', async () => {
      const smp = await req(
        'PATCH',
        `${widgets}/w1`,
        { spec: { size: 'large' } },
        { 'Content-Type': 'application/strategic-merge-patch+json' },
      );
      expect(smp.status).toBe(415);
      expect(smp.json).toMatchObject({
        reason: 'UnsupportedMediaType',
        message:
          'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
      });
      const merge = await req('PATCH', `${widgets}/w1`, JSON.stringify({ spec: { size: 'large' } }), {
        'Content-Type': 'application/merge-patch+json',
      });
      expect(merge.status).toBe(200);
      expect(merge.json.spec.size).toBe('large');
      expect(merge.json.metadata.generation).toBe(2);
      const json = await req(
        'PATCH',
        `${widgets}/w1`,
        JSON.stringify([{ op: 'replace', path: '/spec/color', value: 'red' }]),
        { 'Content-Type': 'application/json-patch+json' },
      );
      expect(json.status).toBe(200);
      expect(json.json.spec.color).toBe('red');
    });

    it(`keeps a resource nested ${MAX_NESTING_DEPTH} levels deep: read as JSON and YAML, patched and applied`, async () => {
      // root and spec, then extra and the objects in it down to the deepest level accepted
      const levels = MAX_NESTING_DEPTH - 2;
      const deep = '{"a":'.repeat(levels - 1) + '{"a":"x"}' + '}'.repeat(levels - 1);
      const body = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"deep"},"spec":{"size":"small","extra":${deep}}}`;
      const created = await req('POST', widgets, body, { 'Content-Type': 'application/json' });
      expect(created.status).toBe(201);
      const got = await req('GET', `${widgets}/deep`);
      expect(got.body.toString()).toContain(deep);
      for (const path of [`${widgets}/deep`, widgets]) {
        const yaml = await req('GET', path, undefined, { Accept: 'application/yaml' });
        expect([path, yaml.status]).toEqual([path, 200]);
        expect(yaml.body.toString()).toContain(deep);
      }
      const patches: [string, string][] = [
        ['application/merge-patch+json', '{"spec":{"color":"red"}}'],
        ['application/json-patch+json', '[{"op":"replace","path":"/spec/color","value":"green"}]'],
        ['application/apply-patch+yaml', body.replace('"size":"small"', '"size":"large"')],
      ];
      for (const [type, patch] of patches) {
        const manager = type.startsWith('application/apply') ? '?fieldManager=deep&force=true' : '';
        const res = await req('PATCH', `${widgets}/deep${manager}`, patch, { 'Content-Type': type });
        expect([type, res.status]).toEqual([type, 200]);
      }
      const status = await req('PATCH', `${widgets}/deep/status`, '{"status":{"replicas":1}}', {
        'Content-Type': 'application/merge-patch+json',
      });
      expect(status.status).toBe(200);
      const after = (await req('GET', `${widgets}/deep`)).json;
      expect(after.spec).toMatchObject({ size: 'large', color: 'green' });
      expect(JSON.stringify(after.spec.extra)).toBe(deep);
      const deeper = await req(
        'POST',
        widgets,
        body.replace('"deep"', '"deeper"').replace('"x"', '{"a":"x"}'),
        {
          'Content-Type': 'application/json',
        },
      );
      expect(deeper.status).toBe(400);
      expect(deeper.json.message).toContain('exceeded max depth');
      expect((await req('DELETE', `${widgets}/deep`)).status).toBe(200);
    });

    it('changes status only through /status, without bumping generation', async () => {
      const got = (await req('GET', `${widgets}/w1`)).json;
      const st = await req('PUT', `${widgets}/w1/status`, {
        ...got,
        spec: { size: 'small' },
        status: { replicas: 2, selector: 'app=w' },
      });
      expect(st.status).toBe(200);
      expect(st.json.status).toEqual({ replicas: 2, selector: 'app=w' });
      expect(st.json.spec.size).toBe('large');
      expect(st.json.metadata.generation).toBe(got.metadata.generation);
      const main = await req('PUT', `${widgets}/w1`, { ...st.json, status: { replicas: 5 } });
      expect(main.json.status).toEqual({ replicas: 2, selector: 'app=w' });
      expect(main.json.metadata.generation).toBe(got.metadata.generation);
    });

    it('serves the scale subresource from the declared paths', async () => {
      const scale = await req('GET', `${widgets}/w1/scale`);
      expect(scale.json).toMatchObject({
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        spec: { replicas: 1 },
        status: { replicas: 2, selector: 'app=w' },
      });
      const patched = await req('PATCH', `${widgets}/w1/scale`, JSON.stringify({ spec: { replicas: 4 } }), {
        'Content-Type': 'application/merge-patch+json',
      });
      expect(patched.status).toBe(200);
      expect(patched.json.spec.replicas).toBe(4);
      expect((await req('GET', `${widgets}/w1`)).json.spec.replicas).toBe(4);
    });

    it('prints the printer columns in a Table', async () => {
      const t = await req('GET', widgets, undefined, {
        Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
      });
      expect(t.status).toBe(200);
      expect(t.json.columnDefinitions.map((c: Json) => [c.name, c.type])).toEqual([
        ['Name', 'string'],
        ['Size', 'string'],
        ['Replicas', 'integer'],
        ['Age', 'date'],
      ]);
      expect(t.json.rows[0].cells.slice(0, 3)).toEqual(['w1', 'large', 4]);
    });

    it('answers protobuf-first clients in JSON', async () => {
      const r = await req('GET', `${widgets}/w1`, undefined, {
        Accept: 'application/vnd.kubernetes.protobuf, application/json',
      });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/json');
    });

    it('watches custom resources', async () => {
      const events: string[] = [];
      const list = await req('GET', widgets);
      const done = httpsRequest(
        `${s.url}${widgets}?watch=true&timeoutSeconds=2&resourceVersion=${list.json.metadata.resourceVersion}`,
        { ca: s.ca },
      );
      await new Promise((r) => setTimeout(r, 200));
      await req('POST', widgets, {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w-watch' },
        spec: { size: 'small' },
      });
      const body = (await done).body.toString();
      for (const line of body.trim().split('\n')) {
        const e = JSON.parse(line);
        events.push(`${e.type} ${e.object.metadata.name}`);
      }
      expect(events).toContain('ADDED w-watch');
    });

    it('refuses names another definition of the group accepted', async () => {
      const clash = widgetsCRD();
      clash.metadata.name = 'gizmos.example.com';
      clash.spec.names = { plural: 'gizmos', singular: 'gizmo', kind: 'Widget' };
      expect((await req('POST', crds, clash)).status).toBe(201);
      const r = await eventually(async () => {
        const got = await req('GET', `${crds}/gizmos.example.com`);
        return got.json.status?.conditions?.some((c: Json) => c.type === 'NamesAccepted') && got;
      }, 'NamesAccepted');
      const conditions = Object.fromEntries(r.json.status.conditions.map((c: Json) => [c.type, c]));
      expect(conditions.NamesAccepted).toMatchObject({
        status: 'False',
        reason: 'KindConflict',
        message: '"Widget" is already in use',
      });
      expect(conditions.Established).toMatchObject({ status: 'False' });
      expect((await req('GET', '/apis/example.com/v1/namespaces/default/gizmos')).status).toBe(404);
      expect((await req('DELETE', `${crds}/gizmos.example.com`)).status).toBe(200);
    });

    it('keeps group, plural and scope immutable', async () => {
      const got = (await req('GET', `${crds}/widgets.example.com`)).json;
      const r = await req('PUT', `${crds}/widgets.example.com`, {
        ...got,
        spec: { ...got.spec, scope: 'Cluster' },
      });
      expect(r.status).toBe(422);
      expect(r.json.message).toContain('spec.scope: Invalid value: "Cluster": field is immutable');
    });

    it('takes a changed definition into account for later requests', async () => {
      const got = (await req('GET', `${crds}/widgets.example.com`)).json;
      got.spec.versions[0].additionalPrinterColumns = [
        { name: 'Color', type: 'string', jsonPath: '.spec.color' },
      ];
      const r = await req('PUT', `${crds}/widgets.example.com`, got);
      expect(r.status).toBe(200);
      await eventually(async () => {
        const t = await req('GET', widgets, undefined, {
          Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
        });
        return t.json.columnDefinitions.map((c: Json) => c.name).join(',') === 'Name,Color';
      }, 'new columns');
    });

    it('deletes the custom resources with the definition, then stops serving them', async () => {
      const del = await req('DELETE', `${crds}/widgets.example.com`);
      expect(del.status).toBe(200);
      await eventually(
        async () => (await req('GET', `${crds}/widgets.example.com`)).status === 404,
        'definition gone',
      );
      expect((await req('GET', widgets)).status).toBe(404);
      expect((await req('GET', '/apis/example.com/v1')).status).toBe(404);
      const stored = await s.server.storage.list('/registry/example.com/widgets/', {});
      expect(stored.items).toHaveLength(0);
    });
  });
});

describe('CustomResourceDefinitions across a restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-crd-restart-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finishes deleting a terminating definition found at start-up', async () => {
    const storage = new SqliteStorage(join(dir, 'orch.db'));
    const first = await startTestAPIServer({ storage });
    const req = (s: TestAPIServer, method: string, path: string, body?: unknown) =>
      httpsRequest(s.url + path, { ca: s.ca, method, body });
    const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
    const widgets = '/apis/example.com/v1/namespaces/default/widgets';
    expect((await req(first, 'POST', crds, widgetsCRD())).status).toBe(201);
    const held = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'held', finalizers: ['example.com/hold'] },
      spec: { size: 'small' },
    };
    await eventually(async () => (await req(first, 'POST', widgets, held)).status === 201, 'created');
    expect((await req(first, 'DELETE', `${crds}/widgets.example.com`)).status).toBe(200);
    // the object's own finalizer keeps it, and so the definition
    await eventually(
      async () => (await req(first, 'GET', `${widgets}/held`)).json?.metadata?.deletionTimestamp,
      'held object terminating',
    );
    await first.server.close();
    rmSync(first.dir, { recursive: true, force: true });

    const second = await startTestAPIServer({ storage });
    try {
      const got = await req(second, 'GET', `${widgets}/held`);
      expect(got.status).toBe(200);
      const release = await req(second, 'PUT', `${widgets}/held`, {
        ...got.json,
        metadata: { ...got.json.metadata, finalizers: [] },
      });
      expect(release.status).toBe(200);
      await eventually(
        async () => (await req(second, 'GET', `${crds}/widgets.example.com`)).status === 404,
        'definition gone',
      );
      expect((await storage.list('/registry/example.com/widgets/', {})).items).toHaveLength(0);
    } finally {
      await second.close();
      await storage.close();
    }
  }, 60_000);
});
