import { startTestAPIServer, type TestAPIServer } from '../testing/test-apiserver';
import { httpsRequest, type HttpsRequestOptions } from '../testing/https-request';

/** Bad list, watch, write and output options, answered as Kubernetes 1.29 answers them. */
describe('option errors through the resource handler', () => {
  let s: TestAPIServer;
  const ns = 'option-errors';
  const cms = `/api/v1/namespaces/${ns}/configmaps`;
  const req = (path: string, options: HttpsRequestOptions = {}) =>
    httpsRequest(s.url + path, { ca: s.ca, ...options });
  const accept = (value: string) => ({ headers: { Accept: value } });
  const table = 'application/json;as=Table;v=v1;g=meta.k8s.io';
  const meta = (as: string) => `application/json;as=${as};v=v1;g=meta.k8s.io`;

  beforeAll(async () => {
    s = await startTestAPIServer();
    await req('/api/v1/namespaces', { method: 'POST', body: { metadata: { name: ns } } });
    const created = await req(cms, { method: 'POST', body: { metadata: { name: 'a' }, data: { k: 'v' } } });
    expect(created.status).toBe(201);
  });
  afterAll(() => s.close());

  describe('watch', () => {
    it('refuses an unsupported field selector before the stream starts, as a list does', async () => {
      for (const path of [
        `${cms}?watch=1&timeoutSeconds=5&fieldSelector=bogus%3D1`,
        `${cms}?fieldSelector=bogus%3D1`,
      ]) {
        const r = await req(path);
        expect(r.status).toBe(400);
        expect(r.json).toMatchObject({
          kind: 'Status',
          reason: 'BadRequest',
          message: 'field label not supported: bogus',
        });
      }
    });

    it('refuses a bad includeObject of a Table watch before the stream starts', async () => {
      const r = await req(`${cms}?watch=1&timeoutSeconds=5&includeObject=Bogus`, accept(table));
      expect(r.status).toBe(400);
      expect(r.json.message).toBe(
        `Unable to convert to Table as requested: includeObject: Invalid value: "Bogus": must be 'Metadata', 'Object', 'None', or empty`,
      );
    });

    it('answers resourceVersionMatch and sendInitialEvents errors with 422 Invalid', async () => {
      const rvm = await req(`${cms}?watch=1&timeoutSeconds=5&resourceVersionMatch=NotOlderThan`);
      expect(rvm.status).toBe(422);
      expect(rvm.json).toMatchObject({
        reason: 'Invalid',
        message:
          'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
        details: { group: 'meta.k8s.io', kind: 'ListOptions' },
      });
      const initial = await req(`${cms}?watch=1&timeoutSeconds=5&sendInitialEvents=true`);
      expect(initial.status).toBe(422);
      expect(initial.json.message).toContain(
        'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      );
    });
  });

  describe('list', () => {
    it.each([
      [
        'resourceVersionMatch=Exact',
        'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
      ],
      [
        'resourceVersionMatch=Exact&resourceVersion=0',
        'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
      ],
      [
        'resourceVersionMatch=Bogus&resourceVersion=1',
        'resourceVersionMatch: Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""',
      ],
      ['sendInitialEvents=true', 'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list'],
    ])('answers %s with 422 Invalid', async (query, error) => {
      const r = await req(`${cms}?${query}`);
      expect(r.status).toBe(422);
      expect(r.json).toMatchObject({
        kind: 'Status',
        code: 422,
        reason: 'Invalid',
        message: `ListOptions.meta.k8s.io "" is invalid: ${error}`,
        details: { group: 'meta.k8s.io', kind: 'ListOptions' },
      });
    });

    it('refuses a bad includeObject of a Table, and ignores it otherwise', async () => {
      const r = await req(`${cms}?includeObject=Bogus`, accept(table));
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ reason: 'BadRequest' });
      expect(r.json.message).toMatch(
        /^Unable to convert to Table as requested: includeObject: Invalid value: "Bogus"/,
      );
      expect((await req(`${cms}/a?includeObject=Bogus`, accept(table))).status).toBe(400);
      expect((await req(`${cms}?includeObject=Bogus`)).status).toBe(200);
      expect((await req(`${cms}?includeObject=`, accept(table))).status).toBe(200);
    });
  });

  it('reports a label selector error with one prefix in list, watch and deletecollection', async () => {
    const message = "unable to parse requirement: found '!', expected: identifier";
    for (const [method, query] of [
      ['GET', 'labelSelector=!!'],
      ['GET', 'watch=1&timeoutSeconds=5&labelSelector=!!'],
      ['DELETE', 'labelSelector=!!'],
    ]) {
      const r = await req(`${cms}?${query}`, { method });
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ reason: 'BadRequest', message });
    }
  });

  describe('metadata-only answers', () => {
    it('refuses a PartialObjectMetadataList for one object with 406', async () => {
      const r = await req(`${cms}/a`, accept(meta('PartialObjectMetadataList')));
      expect(r.status).toBe(406);
      expect(r.json).toMatchObject({
        kind: 'Status',
        code: 406,
        reason: 'NotAcceptable',
        message:
          'you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)',
      });
    });

    it('refuses one PartialObjectMetadata for a list with 406', async () => {
      const r = await req(cms, accept(meta('PartialObjectMetadata')));
      expect(r.status).toBe(406);
      expect(r.json).toMatchObject({
        reason: 'NotAcceptable',
        message:
          'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)',
      });
    });

    it('serves the fitting kinds with their own Content-Type', async () => {
      const one = await req(`${cms}/a`, accept(meta('PartialObjectMetadata')));
      expect(one.status).toBe(200);
      expect(one.headers['content-type']).toBe(meta('PartialObjectMetadata'));
      expect(one.json).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'a' } });
      const list = await req(cms, accept(meta('PartialObjectMetadataList')));
      expect(list.status).toBe(200);
      expect(list.headers['content-type']).toBe(meta('PartialObjectMetadataList'));
      expect(list.json).toMatchObject({ kind: 'PartialObjectMetadataList' });
    });
  });

  describe('fieldValidation', () => {
    const body = (name: string) => ({ metadata: { name }, data: { k: 'v' } });
    const unsupported = (v: string) =>
      `fieldValidation: Unsupported value: "${v}": supported values: "", "Ignore", "Strict", "Warn"`;

    it('answers an unknown directive with 422 on the options kind of the verb', async () => {
      for (const [method, path, kind, v, requestBody, type] of [
        ['POST', cms, 'CreateOptions', 'Bogus', body('b'), undefined],
        ['PUT', `${cms}/a`, 'UpdateOptions', 'strict', body('a'), undefined],
        ['PATCH', `${cms}/a`, 'PatchOptions', 'Bogus', { data: { k: 'w' } }, 'application/merge-patch+json'],
      ] as const) {
        const r = await req(`${path}?fieldValidation=${v}`, {
          method,
          body: requestBody,
          ...(type ? { headers: { 'Content-Type': type } } : {}),
        });
        expect(r.status).toBe(422);
        expect(r.json).toMatchObject({
          kind: 'Status',
          code: 422,
          reason: 'Invalid',
          message: `${kind}.meta.k8s.io "" is invalid: ${unsupported(v)}`,
          details: {
            group: 'meta.k8s.io',
            kind,
            causes: [{ reason: 'FieldValueNotSupported', field: 'fieldValidation' }],
          },
        });
      }
      // nothing was written
      expect((await req(`${cms}/b`)).status).toBe(404);
      expect((await req(`${cms}/a`)).json.data).toEqual({ k: 'v' });
    });
  });
});
