import { PersistentVolumeClaimKind } from '@orch/api';
import { DEFAULT_FEATURE_GATES, FeatureGate } from '@orch/component-base';
import type { ApiObject } from '../../registry/object';
import { httpsRequest } from '../../testing/https-request';
import { startTestAPIServer, type TestAPIServer } from '../../testing/test-apiserver';
import { defaultAdmissionPlugins, selectAdmissionPlugins } from './index';
import { PersistentVolumeClaimResize } from './persistent-volume-claim-resize';

const claims = '/api/v1/namespaces/default/persistentvolumeclaims';
const classes = '/apis/storage.k8s.io/v1/storageclasses';

/** A client of one server: claims of a class, bound through their status, resized by merge patches. */
function clientOf(s: () => TestAPIServer) {
  const call = (method: string, path: string, body?: unknown, contentType?: string) =>
    httpsRequest(s().url + path, {
      ca: s().ca,
      method,
      body,
      ...(contentType ? { headers: { 'Content-Type': contentType } } : {}),
    });
  const createClass = async (name: string, allowVolumeExpansion?: boolean) => {
    const r = await call('POST', classes, {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name },
      provisioner: 'example.com/disks',
      ...(allowVolumeExpansion === undefined ? {} : { allowVolumeExpansion }),
    });
    expect(r.status).toBe(201);
  };
  const createClaim = async (name: string, storageClassName: string, bound: boolean) => {
    const r = await call('POST', claims, {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName },
    });
    expect(r.status).toBe(201);
    if (!bound) return;
    const named = await call('PATCH', `${claims}/${name}`, { spec: { volumeName: `pv-${name}` } }, merge);
    expect(named.status).toBe(200);
    const status = { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } };
    const b = await call('PATCH', `${claims}/${name}/status`, { status }, merge);
    expect(b.status).toBe(200);
  };
  const resize = (name: string, storage: string) =>
    call('PATCH', `${claims}/${name}`, { spec: { resources: { requests: { storage } } } }, merge);
  return { call, createClass, createClaim, resize };
}
const merge = 'application/merge-patch+json';

describe('PersistentVolumeClaimResize and the claim update rules', () => {
  let s: TestAPIServer;
  const { call, createClass, createClaim, resize } = clientOf(() => s);

  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: defaultAdmissionPlugins });
    await createClass('expandable', true);
    await createClass('fixed');
    await createClass('closed', false);
  });
  afterAll(() => s.close());

  test('is on by default, after StorageObjectInUseProtection, and can be disabled', () => {
    const on = selectAdmissionPlugins([], []);
    expect(on.indexOf('PersistentVolumeClaimResize')).toBe(on.indexOf('StorageObjectInUseProtection') + 1);
    expect(selectAdmissionPlugins([], ['PersistentVolumeClaimResize'])).not.toContain(
      'PersistentVolumeClaimResize',
    );
  });

  test('a bound claim of a class allowing expansion grows', async () => {
    await createClaim('grows', 'expandable', true);
    const r = await resize('grows', '2Gi');
    expect(r.status).toBe(200);
    expect(r.json.spec.resources.requests.storage).toBe('2Gi');
    expect(r.json.status.capacity.storage).toBe('1Gi');
  });

  test('a class without allowVolumeExpansion, or with it false, refuses the growth', async () => {
    for (const [name, className] of [
      ['fixed-1', 'fixed'],
      ['closed-1', 'closed'],
    ]) {
      await createClaim(name, className, true);
      const r = await resize(name, '2Gi');
      expect(r.status).toBe(403);
      expect(r.json).toMatchObject({
        reason: 'Forbidden',
        message: `persistentvolumeclaims "${name}" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize`,
      });
    }
  });

  test('a claim of a class that does not exist may not grow', async () => {
    await createClaim('nowhere', 'missing', true);
    expect((await resize('nowhere', '2Gi')).status).toBe(403);
  });

  test('only a bound claim grows: a pending one is refused by validation first', async () => {
    await createClaim('pending', 'expandable', false);
    const r = await resize('pending', '2Gi');
    expect(r.status).toBe(422);
    expect(r.json.message).toContain(
      'spec: Forbidden: is immutable after creation except resources.requests for bound claims',
    );
    // the plugin's own refusal, for an update whose stored claim is not bound
    const plugin = new PersistentVolumeClaimResize({ get: async () => undefined, list: async () => [] });
    const old = { metadata: { name: 'pending' }, spec: { resources: { requests: { storage: '1Gi' } } } };
    const grown = {
      ...old,
      spec: { resources: { requests: { storage: '2Gi' } } },
      status: { phase: 'Bound' },
    };
    await expect(
      plugin.validate({
        operation: 'UPDATE',
        declaration: PersistentVolumeClaimKind,
        resource: 'persistentvolumeclaims',
        subresource: '',
        namespace: 'default',
        name: 'pending',
        object: grown as ApiObject,
        oldObject: { ...old, status: { phase: 'Pending' } } as ApiObject,
        dryRun: false,
      }),
    ).rejects.toMatchObject({
      status: {
        code: 403,
        message:
          'persistentvolumeclaims "pending" is forbidden: Only bound persistent volume claims can be expanded',
      },
    });
  });

  test('a claim may not shrink, nor change other fields of its spec', async () => {
    await createClaim('shrinks', 'expandable', true);
    const r = await resize('shrinks', '500Mi');
    expect(r.status).toBe(422);
    expect(r.json.message).toContain(
      'spec.resources.requests.storage: Forbidden: field can not be less than previous value',
    );
    const modes = await call(
      'PATCH',
      `${claims}/shrinks`,
      { spec: { accessModes: ['ReadWriteMany'] } },
      merge,
    );
    expect(modes.status).toBe(422);
    expect(modes.json.message).toContain(
      'spec: Forbidden: is immutable after creation except resources.requests for bound claims',
    );
    // the same size written otherwise is no growth
    expect((await resize('shrinks', '1024Mi')).status).toBe(200);
  });

  test('a status update keeps the annotations it brings, not the spec', async () => {
    await createClaim('annotated', 'expandable', true);
    const current = (await call('GET', `${claims}/annotated`)).json;
    current.metadata.annotations = { 'volume.kubernetes.io/storage-resizer': 'example.com/disks' };
    current.spec.resources.requests.storage = '5Gi';
    current.status.conditions = [{ type: 'Resizing', status: 'True' }];
    const r = await call('PUT', `${claims}/annotated/status`, current);
    expect(r.status).toBe(200);
    expect(r.json.metadata.annotations).toEqual({
      'volume.kubernetes.io/storage-resizer': 'example.com/disks',
    });
    expect(r.json.spec.resources.requests.storage).toBe('1Gi');
    expect(r.json.status.conditions).toEqual([{ type: 'Resizing', status: 'True' }]);
  });
});

describe('claim updates with ExpandPersistentVolumes off', () => {
  let s: TestAPIServer;
  const { createClass, createClaim, resize } = clientOf(() => s);

  beforeAll(async () => {
    const features = new FeatureGate(DEFAULT_FEATURE_GATES);
    features.set({ ExpandPersistentVolumes: false });
    s = await startTestAPIServer({ admissionPlugins: defaultAdmissionPlugins, featureGates: features });
    await createClass('expandable', true);
  });
  afterAll(() => s.close());

  test("a bound claim's spec is immutable, its storage request too", async () => {
    await createClaim('fixed', 'expandable', true);
    const r = await resize('fixed', '2Gi');
    expect(r.status).toBe(422);
    expect(r.json.message).toContain('spec: Forbidden: field is immutable after creation');
  });
});
