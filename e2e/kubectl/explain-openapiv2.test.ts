import { httpsRequest, startAPIServerProcess, type APIServerProcess } from '@orch/apiserver';
import { kubectl, kubectlOK } from '../harness/kubectl';

const widgets = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            description: What the widget should be.
            required: [size]
            properties:
              size:
                type: string
                description: How big the widget is.
`;

/**
 * Stock kubectl's explain from the OpenAPI v2 document, which it fetches in the protobuf form
 * (`--output=plaintext-openapiv2`).
 */
describe('kubectl explain --output=plaintext-openapiv2', () => {
  let api: APIServerProcess;
  const explain = (field: string) =>
    kubectl(api.kubeconfig, ['explain', field, '--output=plaintext-openapiv2']);

  beforeAll(async () => {
    api = await startAPIServerProcess();
  });
  afterAll(async () => {
    await api?.destroy();
  });

  it('serves the document as JSON unless the protobuf form is asked for', async () => {
    const get = (accept?: string) =>
      httpsRequest(`${api.url}/openapi/v2`, {
        ca: api.pki.ca,
        cert: api.pki.admin.cert,
        key: api.pki.admin.key,
        headers: accept ? { Accept: accept } : {},
      });
    const json = await get();
    expect([json.status, json.headers['content-type'], json.json.swagger]).toEqual([
      200,
      'application/json',
      '2.0',
    ]);
    for (const accept of [
      'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
      'application/com.github.proto-openapi.spec.v2.v1.0+protobuf, application/json;q=0.9',
    ]) {
      const pb = await get(accept);
      expect([pb.status, pb.headers['content-type']]).toEqual([
        200,
        'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
      ]);
      // field 1 of openapi.v2.Document: swagger
      expect(pb.body.subarray(0, 5)).toEqual(Buffer.from([0x0a, 3, ...Buffer.from('2.0')]));
    }
    expect((await get('text/html')).status).toBe(406);
  });

  it('tags both forms of the document with one ETag and answers 304 to If-None-Match', async () => {
    const get = (headers: Record<string, string>) =>
      httpsRequest(`${api.url}/openapi/v2`, {
        ca: api.pki.ca,
        cert: api.pki.admin.cert,
        key: api.pki.admin.key,
        headers,
      });
    const json = await get({});
    const etag = String(json.headers.etag);
    expect(etag).toMatch(/^"[0-9A-F]{128}"$/);
    const pb = await get({ Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' });
    expect(pb.headers.etag).toBe(etag);
    const again = await get({ 'If-None-Match': etag });
    expect([again.status, again.body.length]).toEqual([304, 0]);
    expect((await get({ 'If-None-Match': '"other"' })).status).toBe(200);
    // the v3 documents as well
    const index = (
      await httpsRequest(`${api.url}/openapi/v3`, {
        ca: api.pki.ca,
        cert: api.pki.admin.cert,
        key: api.pki.admin.key,
      })
    ).json;
    const apps = index.paths['apis/apps/v1'].serverRelativeURL as string;
    const v3 = await httpsRequest(`${api.url}${apps}`, {
      ca: api.pki.ca,
      cert: api.pki.admin.cert,
      key: api.pki.admin.key,
      headers: { 'If-None-Match': `"${apps.split('hash=')[1]}"` },
    });
    expect(v3.status).toBe(304);
  });

  it('explains a built-in kind and its fields', async () => {
    const r = await explain('deployment.spec');
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/KIND:\s+Deployment/);
    expect(r.stdout).toMatch(/RESOURCE:\s+spec <Object>/);
    expect(r.stdout).toContain('FIELDS:');
    expect(r.stdout).toMatch(/^ {3}replicas\t<integer>/m);
    expect(r.stdout).toMatch(/^ {3}selector\t<Object> -required-/m);
    expect(r.stdout).toMatch(/^ {3}template\t<Object> -required-/m);
  });

  it('explains a list field through its item type', async () => {
    const r = await explain('pods.spec.containers');
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/KIND:\s+Pod/);
    expect(r.stdout).toMatch(/RESOURCE:\s+containers <\[\]Object>/);
    expect(r.stdout).toContain('FIELDS:');
    expect(r.stdout).toMatch(/^ {3}name\t<string> -required-/m);
    expect(r.stdout).toMatch(/^ {3}image\t<string>/m);
    expect(r.stdout).toMatch(/^ {3}ports\t<\[\]Object>/m);
  });

  it('explains a custom resource defined after the document was first served', async () => {
    await kubectlOK(api.kubeconfig, ['apply', '-f', '-'], widgets);
    await kubectlOK(api.kubeconfig, [
      'wait',
      '--for=condition=Established',
      'crd/widgets.example.com',
      '--timeout=30s',
    ]);
    const r = await explain('widgets');
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/KIND:\s+Widget/);
    expect(r.stdout).toContain('FIELDS:');
    expect(r.stdout).toMatch(/^ {3}spec\t<[^>]+>\n\s+What the widget should be\./m);
    // its nested fields too, with the required ones marked
    const spec = await explain('widgets.spec');
    expect({ code: spec.code, stderr: spec.stderr }).toEqual({ code: 0, stderr: '' });
    expect(spec.stdout).toMatch(/^ {3}size\t<string> -required-\n\s+How big the widget is\./m);
  });
});
