import { startTestAPIServer, type TestAPIServer } from '../testing/test-apiserver';
import { httpsRequest, type HttpsResponse } from '../testing/https-request';

/** The scalable kinds, as Kubernetes' TestScaleAllResources lists them. */
const kinds = [
  { kind: 'Deployment', prefix: '/apis/apps/v1', resource: 'deployments', apiVersion: 'apps/v1' },
  { kind: 'StatefulSet', prefix: '/apis/apps/v1', resource: 'statefulsets', apiVersion: 'apps/v1' },
  { kind: 'ReplicaSet', prefix: '/apis/apps/v1', resource: 'replicasets', apiVersion: 'apps/v1' },
  { kind: 'ReplicationController', prefix: '/api/v1', resource: 'replicationcontrollers', apiVersion: 'v1' },
] as const;

function parentOf(kind: (typeof kinds)[number], replicas: number): object {
  const selector =
    kind.kind === 'ReplicationController' ? { app: 'nginx' } : { matchLabels: { app: 'nginx' } };
  return {
    apiVersion: kind.apiVersion,
    kind: kind.kind,
    metadata: { name: 'test' },
    spec: {
      replicas,
      selector,
      template: {
        metadata: { labels: { app: 'nginx' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:latest' }] },
      },
    },
  };
}

const scaleBody = (replicas: number): string =>
  JSON.stringify({
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name: 'test', namespace: 'default' },
    spec: { replicas },
  });

interface Entry {
  manager: string;
  operation: string;
  apiVersion: string;
  subresource?: string;
  fieldsV1: { 'f:spec'?: Record<string, unknown> };
}

const applyType = { 'Content-Type': 'application/apply-patch+yaml' };
const mergeType = { 'Content-Type': 'application/merge-patch+json' };

describe('writes through the scale subresource record ownership of spec.replicas', () => {
  let s: TestAPIServer;
  const req = (path: string, options: Parameters<typeof httpsRequest>[1] = {}): Promise<HttpsResponse> =>
    httpsRequest(s.url + path, { ca: s.ca, ...options });

  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: [] });
  });
  afterAll(async () => {
    await s.close();
  });

  describe.each(kinds)('$kind', (kind) => {
    const path = `${kind.prefix}/namespaces/default/${kind.resource}/test`;
    const expectOK = (res: HttpsResponse): void => {
      if (res.status !== 200 && res.status !== 201) throw new Error(`${res.status}: ${res.body.toString()}`);
    };
    const get = async (): Promise<{ replicas: number; entries: Entry[] }> => {
      const res = await req(path);
      expectOK(res);
      return { replicas: res.json.spec.replicas, entries: res.json.metadata.managedFields };
    };
    const replicasOwners = (entries: Entry[]): string[] =>
      entries
        .filter((e) => e.fieldsV1['f:spec']?.['f:replicas'] !== undefined)
        .map((e) => e.manager)
        .sort();
    const applyParent = (replicas: number, force = false) =>
      req(`${path}?fieldManager=apply_test${force ? '&force=true' : ''}`, {
        method: 'PATCH',
        body: JSON.stringify(parentOf(kind, replicas)),
        headers: applyType,
      });
    const applyScale = (manager: string, replicas: number, force = false) =>
      req(`${path}/scale?fieldManager=${manager}${force ? '&force=true' : ''}`, {
        method: 'PATCH',
        body: scaleBody(replicas),
        headers: applyType,
      });
    const mergeScale = (manager: string, replicas: number) =>
      req(`${path}/scale?fieldManager=${manager}`, {
        method: 'PATCH',
        body: { spec: { replicas } },
        headers: mergeType,
      });

    it('apply, update and patch on scale move ownership as Kubernetes does, with conflicts', async () => {
      expectOK(await applyParent(1));
      expect(replicasOwners((await get()).entries)).toEqual(['apply_test']);

      // a scale write takes spec.replicas from the applier
      expectOK(await mergeScale('scale_test', 5));
      let got = await get();
      expect(got.replicas).toBe(5);
      expect(replicasOwners(got.entries)).toEqual(['scale_test']);
      expect(got.entries).toContainEqual(
        expect.objectContaining({
          manager: 'scale_test',
          operation: 'Update',
          apiVersion: kind.apiVersion,
          subresource: 'scale',
          fieldsV1: { 'f:spec': { 'f:replicas': {} } },
        }),
      );

      // re-applying the old replicas conflicts with the scaler until forced
      const conflict = await applyParent(1);
      expect(conflict.status).toBe(409);
      expect(conflict.json.message).toBe(
        `Apply failed with 1 conflict: conflict with "scale_test" with subresource "scale" using ${kind.apiVersion}: .spec.replicas`,
      );
      expectOK(await applyParent(1, true));
      expect(replicasOwners((await get()).entries)).toEqual(['apply_test']);

      // an apply on scale changing replicas conflicts with the applier of the parent
      const scaleConflict = await applyScale('apply_scale', 17);
      expect(scaleConflict.status).toBe(409);
      expect(scaleConflict.json).toMatchObject({
        kind: 'Status',
        reason: 'Conflict',
        code: 409,
        message: 'Apply failed with 1 conflict: conflict with "apply_test": .spec.replicas',
        details: { causes: [{ reason: 'FieldManagerConflict', field: '.spec.replicas' }] },
      });
      expect((await get()).replicas).toBe(1);

      // forced, the scale applier is the only owner; the parent's applier keeps its other fields
      const forced = await applyScale('apply_scale', 17, true);
      expectOK(forced);
      expect(forced.json).toMatchObject({
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        spec: { replicas: 17 },
      });
      got = await get();
      expect(got.replicas).toBe(17);
      expect(replicasOwners(got.entries)).toEqual(['apply_scale']);
      expect(got.entries).toContainEqual({
        manager: 'apply_scale',
        operation: 'Apply',
        apiVersion: kind.apiVersion,
        time: expect.any(String),
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:replicas': {} } },
        subresource: 'scale',
      });
      const parentApplier = got.entries.find((e) => e.manager === 'apply_test')!;
      expect(parentApplier.fieldsV1['f:spec']).toHaveProperty(['f:template']);
      expect(parentApplier.fieldsV1['f:spec']).not.toHaveProperty(['f:replicas']);

      // a replace of the Scale takes it over
      const replaced = await req(`${path}/scale?fieldManager=replace_test`, {
        method: 'PUT',
        body: scaleBody(7),
      });
      expectOK(replaced);
      got = await get();
      expect(got.replicas).toBe(7);
      expect(replicasOwners(got.entries)).toEqual(['replace_test']);

      // applying the value already there shares ownership
      expectOK(await applyScale('co_owning_test', 7));
      expect(replicasOwners((await get()).entries)).toEqual(['co_owning_test', 'replace_test']);

      // scaling again leaves one owner
      expectOK(await mergeScale('scale_test', 5));
      got = await get();
      expect(got.replicas).toBe(5);
      expect(replicasOwners(got.entries)).toEqual(['scale_test']);
    });

    it('serves strategic merge and JSON patches on scale', async () => {
      const strategic = await req(`${path}/scale?fieldManager=sm`, {
        method: 'PATCH',
        body: { spec: { replicas: 3 } },
        headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
      });
      expectOK(strategic);
      expect(strategic.json.spec.replicas).toBe(3);
      const json = await req(`${path}/scale?fieldManager=jp`, {
        method: 'PATCH',
        body: [{ op: 'replace', path: '/spec/replicas', value: 2 }],
        headers: { 'Content-Type': 'application/json-patch+json' },
      });
      expectOK(json);
      const got = await get();
      expect(got.replicas).toBe(2);
      expect(replicasOwners(got.entries)).toEqual(['jp']);
    });
  });

  it('refuses an apply on scale in another version or without a field manager', async () => {
    const path = '/apis/apps/v1/namespaces/default/deployments/test/scale';
    const wrong = await req(`${path}?fieldManager=x`, {
      method: 'PATCH',
      body: scaleBody(2).replace('autoscaling/v1', 'autoscaling/v2'),
      headers: applyType,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toBe(
      'Incorrect version specified in apply patch. Specified patch version: autoscaling/v2, expected: autoscaling/v1',
    );
    const anonymous = await req(path, { method: 'PATCH', body: scaleBody(2), headers: applyType });
    expect(anonymous.status).toBe(422);
    const missing = await req('/apis/apps/v1/namespaces/default/deployments/missing/scale?fieldManager=x', {
      method: 'PATCH',
      body: scaleBody(2),
      headers: applyType,
    });
    expect(missing.status).toBe(404);
  });
});
