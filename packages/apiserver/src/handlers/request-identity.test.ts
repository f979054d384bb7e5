import { startTestAPIServer, type TestAPIServer } from '../testing/test-apiserver';
import { httpsRequest, type HttpsResponse } from '../testing/https-request';

/**
 * What a request's body must agree on with its URL (name, namespace, uid, kind) and which bodies and
 * methods are refused before anything changes: the answers Kubernetes 1.29's handlers give.
 */
describe('request identity checks', () => {
  let s: TestAPIServer;
  const ns = 'ident';
  const req = (path: string, options: Parameters<typeof httpsRequest>[1] = {}) =>
    httpsRequest(s.url + path, { ca: s.ca, ...options });
  const pods = `/api/v1/namespaces/${ns}/pods`;
  const cms = `/api/v1/namespaces/${ns}/configmaps`;
  const merge = { 'Content-Type': 'application/merge-patch+json' };
  const jsonPatch = { 'Content-Type': 'application/json-patch+json' };

  const expectStatus = (r: HttpsResponse, code: number, reason: string, message?: string) => {
    expect({ status: r.status, kind: r.json?.kind, code: r.json?.code, reason: r.json?.reason }).toEqual({
      status: code,
      kind: 'Status',
      code,
      reason,
    });
    if (message !== undefined) expect(r.json.message).toBe(message);
  };

  const createPod = async (name: string) => {
    const r = await req(pods, {
      method: 'POST',
      body: { metadata: { name }, spec: { containers: [{ name: 'c', image: 'i' }] } },
    });
    expect(r.status).toBe(201);
  };
  const nodeOf = async (name: string) => (await req(`${pods}/${name}`)).json.spec.nodeName;

  const createCM = async (name: string) => {
    const r = await req(cms, {
      method: 'POST',
      body: { metadata: { name, labels: { keep: 'me' } }, data: { a: '1' } },
    });
    expect(r.status).toBe(201);
    return r.json;
  };

  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: [] });
    expect(
      (await req('/api/v1/namespaces', { method: 'POST', body: { metadata: { name: ns } } })).status,
    ).toBe(201);
  });
  afterAll(() => s.close());

  describe('pods/binding', () => {
    const binding = (metadata: Record<string, unknown>) => ({
      apiVersion: 'v1',
      kind: 'Binding',
      metadata,
      target: { kind: 'Node', name: 'n-fz' },
    });

    it('refuses a Binding naming another pod, or none, and binds neither', async () => {
      await createPod('p2');
      await createPod('p3');
      for (const metadata of [{ name: 'p3' }, {}]) {
        const r = await req(`${pods}/p2/binding`, { method: 'POST', body: binding(metadata) });
        expectStatus(r, 400, 'BadRequest', 'name in URL does not match name in Binding object');
      }
      expect(await nodeOf('p2')).toBeUndefined();
      expect(await nodeOf('p3')).toBeUndefined();
    });

    it('refuses a Binding in another namespace than the request, on the subresource and the collection', async () => {
      await createPod('p4');
      const message = 'the namespace of the provided object does not match the namespace sent on the request';
      const body = binding({ name: 'p4', namespace: 'elsewhere' });
      expectStatus(await req(`${pods}/p4/binding`, { method: 'POST', body }), 400, 'BadRequest', message);
      expectStatus(
        await req(`/api/v1/namespaces/${ns}/bindings`, { method: 'POST', body }),
        400,
        'BadRequest',
        message,
      );
      expect(await nodeOf('p4')).toBeUndefined();
      // the pod's own name and namespace bind it
      const ok = await req(`${pods}/p4/binding`, {
        method: 'POST',
        body: binding({ name: 'p4', namespace: ns }),
      });
      expect(ok.status).toBe(201);
      expect(await nodeOf('p4')).toBe('n-fz');
    });
  });

  describe('the scale subresource', () => {
    const workloads = [
      ['apps', 'deployments', 'd1'],
      ['apps', 'statefulsets', 's1'],
      ['apps', 'replicasets', 'r1'],
      ['', 'replicationcontrollers', 'rc1'],
    ] as const;
    const pathOf = (group: string, plural: string) =>
      group ? `/apis/${group}/v1/namespaces/${ns}/${plural}` : `/api/v1/namespaces/${ns}/${plural}`;
    const template = {
      metadata: { labels: { app: 'x' } },
      spec: { containers: [{ name: 'c', image: 'i' }] },
    };

    beforeAll(async () => {
      for (const [group, plural, name] of workloads) {
        const spec =
          plural === 'replicationcontrollers'
            ? { replicas: 2, selector: { app: 'x' }, template }
            : { replicas: 2, selector: { matchLabels: { app: 'x' } }, template, serviceName: 's' };
        const r = await req(pathOf(group, plural), { method: 'POST', body: { metadata: { name }, spec } });
        expect(r.status).toBe(201);
      }
    });

    it.each(workloads)(
      '%s %s: refuses a Scale of another name, kind or uid and scales nothing',
      async (group, plural, name) => {
        const path = `${pathOf(group, plural)}/${name}`;
        const scale = (await req(`${path}/scale`)).json;
        const put = (body: unknown) => req(`${path}/scale`, { method: 'PUT', body });
        const spec = { replicas: 1 };
        expectStatus(
          await put({ kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'other' }, spec }),
          400,
          'BadRequest',
          `the name of the object (other) does not match the name on the URL (${name})`,
        );
        expectStatus(
          await put({ kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: {}, spec }),
          400,
          'BadRequest',
          `the name of the object () does not match the name on the URL (${name})`,
        );
        expectStatus(
          await put({ kind: 'Deployment', apiVersion: 'apps/v1', metadata: { name }, spec }),
          400,
          'BadRequest',
          'Deployment in version "v1" cannot be handled as a Scale: converting (v1.Deployment) to (autoscaling.Scale): unknown conversion',
        );
        expectStatus(
          await put({ kind: 'Scale', apiVersion: 'apps/v1beta1', metadata: { name }, spec }),
          400,
          'BadRequest',
          'the API version in the data (apps/v1beta1) does not match the expected API version (autoscaling/v1)',
        );
        expectStatus(
          await put({ ...scale, metadata: { ...scale.metadata, uid: 'not-the-uid' }, spec }),
          409,
          'Conflict',
          `Operation cannot be fulfilled on ${plural}${group ? `.${group}` : ''} "${name}": Precondition failed: UID in precondition: not-the-uid, UID in object meta: ${scale.metadata.uid}`,
        );
        expectStatus(
          await req(`${path}/scale`, {
            method: 'PATCH',
            headers: merge,
            body: { metadata: { name: 'other' } },
          }),
          400,
          'BadRequest',
          `the name of the object (other) does not match the name on the URL (${name})`,
        );
        const after = (await req(path)).json;
        expect(after.spec.replicas).toBe(2);
        expect(after.metadata.resourceVersion).toBe(scale.metadata.resourceVersion);
        // its own Scale is taken
        const ok = await put({ ...scale, spec });
        expect(ok.status).toBe(200);
        expect((await req(path)).json.spec.replicas).toBe(1);
      },
    );
  });

  describe('DeleteOptions bodies', () => {
    const malformed = [
      ['a number of the wrong type', { gracePeriodSeconds: 'abc' }],
      ['an array', [1]],
      ['another kind', { kind: 'Pod', apiVersion: 'v1' }],
      ['an unknown version', { kind: 'DeleteOptions', apiVersion: 'bogus/v9' }],
      ['dryRun as a string', { dryRun: 'All' }],
      ['preconditions of the wrong type', { preconditions: { uid: 5 } }],
    ] as const;

    it.each(malformed)('a body with %s is a 400 and deletes nothing', async (_label, body) => {
      await createCM('del-one');
      const r = await req(`${cms}/del-one`, { method: 'DELETE', body });
      expectStatus(r, 400, 'BadRequest');
      expect((await req(`${cms}/del-one`)).status).toBe(200);
      const all = await req(cms, { method: 'DELETE', body });
      expectStatus(all, 400, 'BadRequest');
      expect((await req(`${cms}/del-one`)).status).toBe(200);
      expect((await req(`${cms}/del-one`, { method: 'DELETE' })).status).toBe(200);
    });

    it('names the field and the Go type a value does not fit', async () => {
      await createCM('del-msg');
      const r = await req(`${cms}/del-msg`, { method: 'DELETE', body: { gracePeriodSeconds: 'abc' } });
      expect(r.json.message).toBe(
        'json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64',
      );
      const dry = await req(`${cms}/del-msg`, { method: 'DELETE', body: { dryRun: 'All' } });
      expect(dry.json.message).toBe(
        'json: cannot unmarshal string into Go struct field DeleteOptions.dryRun of type []string',
      );
      const kind = await req(`${cms}/del-msg`, { method: 'DELETE', body: { kind: 'Pod', apiVersion: 'v1' } });
      expect(kind.json.message).toMatch(/^no kind "Pod" is registered for version "v1"/);
    });

    it.each([
      [{}],
      [{ kind: 'DeleteOptions' }],
      [{ apiVersion: 'v1', kind: 'DeleteOptions' }],
      [{ apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions' }],
      [{ apiVersion: 'meta.k8s.io/v1beta1' }],
      [{ apiVersion: 'meta.orch.io/v1', kind: 'DeleteOptions', gracePeriodSeconds: null }],
    ])('takes %j as DeleteOptions', async (body) => {
      await createCM('del-ok');
      const dry = await req(`${cms}/del-ok`, { method: 'DELETE', body: { ...body, dryRun: ['All'] } });
      expect(dry.status).toBe(200);
      expect((await req(`${cms}/del-ok`)).status).toBe(200);
      expect((await req(`${cms}/del-ok`, { method: 'DELETE', body })).status).toBe(200);
      expect((await req(`${cms}/del-ok`)).status).toBe(404);
    });
  });

  describe('updates and patches', () => {
    it('refuses a PUT or a patch leaving the object without its name, and changes nothing', async () => {
      const cm = await createCM('cm-noname');
      const put = await req(`${cms}/cm-noname`, {
        method: 'PUT',
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: {}, data: { a: '2' } },
      });
      expectStatus(
        put,
        400,
        'BadRequest',
        'the name of the object () does not match the name on the URL (cm-noname)',
      );
      const patch = await req(`${cms}/cm-noname`, {
        method: 'PATCH',
        headers: jsonPatch,
        body: [{ op: 'remove', path: '/metadata' }],
      });
      expectStatus(
        patch,
        400,
        'BadRequest',
        'the name of the object () does not match the name on the URL (cm-noname)',
      );
      const after = (await req(`${cms}/cm-noname`)).json;
      expect(after.metadata.labels).toEqual({ keep: 'me' });
      expect(after.data).toEqual({ a: '1' });
      expect(after.metadata.resourceVersion).toBe(cm.metadata.resourceVersion);
    });

    it('refuses a PUT of another uid as its precondition (409), and takes one without a uid', async () => {
      const cm = await createCM('cm-uid');
      const put = await req(`${cms}/cm-uid`, {
        method: 'PUT',
        body: { ...cm, metadata: { ...cm.metadata, uid: 'another-uid' }, data: { a: '2' } },
      });
      expectStatus(
        put,
        409,
        'Conflict',
        `Operation cannot be fulfilled on configmaps "cm-uid": Precondition failed: UID in precondition: another-uid, UID in object meta: ${cm.metadata.uid}`,
      );
      expect((await req(`${cms}/cm-uid`)).json.data).toEqual({ a: '1' });
      const { uid: _uid, ...metadata } = cm.metadata;
      const ok = await req(`${cms}/cm-uid`, { method: 'PUT', body: { ...cm, metadata, data: { a: '3' } } });
      expect(ok.status).toBe(200);
      expect(ok.json.metadata.uid).toBe(cm.metadata.uid);
    });

    it.each([
      ['uid', 'another-uid'],
      ['deletionTimestamp', '2030-01-01T00:00:00Z'],
      ['deletionGracePeriodSeconds', 30],
    ])('refuses a patch setting metadata.%s: field is immutable', async (field, value) => {
      const name = `cm-imm-${field.toLowerCase()}`;
      const cm = await createCM(name);
      const r = await req(`${cms}/${name}`, {
        method: 'PATCH',
        headers: merge,
        body: { metadata: { [field]: value }, data: { a: '2' } },
      });
      expectStatus(r, 422, 'Invalid');
      expect(r.json.details.causes).toContainEqual(
        expect.objectContaining({ field: `metadata.${field}`, reason: 'FieldValueInvalid' }),
      );
      expect(r.json.message).toContain(`metadata.${field}: Invalid value:`);
      expect(r.json.message).toContain('field is immutable');
      const after = (await req(`${cms}/${name}`)).json;
      expect(after.metadata.resourceVersion).toBe(cm.metadata.resourceVersion);
      expect(after.metadata[field]).toEqual(cm.metadata[field]);
    });

    it('still ignores a changed creationTimestamp, as Kubernetes resets it', async () => {
      const cm = await createCM('cm-created');
      const r = await req(`${cms}/cm-created`, {
        method: 'PATCH',
        headers: merge,
        body: { metadata: { creationTimestamp: '2001-01-01T00:00:00Z' }, data: { a: '2' } },
      });
      expect(r.status).toBe(200);
      expect(r.json.metadata.creationTimestamp).toBe(cm.metadata.creationTimestamp);
    });

    it('answers PATCH and PUT on a collection with 405 MethodNotAllowed', async () => {
      await createCM('cm-coll');
      for (const [method, headers, body] of [
        ['PATCH', merge, { metadata: { labels: { x: 'y' } } }],
        ['PUT', undefined, { metadata: { name: 'cm-coll' } }],
      ] as const) {
        const r = await req(cms, { method, headers, body });
        expectStatus(
          r,
          405,
          'MethodNotAllowed',
          'the server does not allow this method on the requested resource',
        );
      }
      expect((await req(`${cms}/cm-coll`)).json.metadata.labels).toEqual({ keep: 'me' });
    });
  });
});
