import { httpsRequest } from '../../testing/https-request';
import { startTestAPIServer, type TestAPIServer } from '../../testing/test-apiserver';
import { defaultAdmissionPlugins, selectAdmissionPlugins } from './index';

/** DefaultStorageClass and StorageObjectInUseProtection, through a server running the default plugins. */
describe('the storage admission plugins', () => {
  let s: TestAPIServer;
  const call = (method: string, path: string, body?: unknown) =>
    httpsRequest(s.url + path, { ca: s.ca, method, body });
  const classes = '/apis/storage.k8s.io/v1/storageclasses';
  const claims = '/api/v1/namespaces/default/persistentvolumeclaims';
  const storageClass = (name: string, isDefault: boolean) => ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: {
      name,
      annotations: (isDefault ? { 'storageclass.kubernetes.io/is-default-class': 'true' } : {}) as Record<
        string,
        string
      >,
    },
    provisioner: 'example.com/fast',
  });
  const createClaim = async (name: string, spec: Record<string, unknown> = {}, annotations?: object) => {
    const r = await call('POST', claims, {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name, ...(annotations ? { annotations } : {}) },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
    });
    expect(r.status).toBe(201);
    return r.json;
  };

  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: defaultAdmissionPlugins });
  });
  afterAll(() => s.close());

  test('both are on by default, in Kubernetes order, and can be disabled', () => {
    const on = selectAdmissionPlugins([], []);
    expect(on.indexOf('Priority')).toBeLessThan(on.indexOf('DefaultStorageClass'));
    expect(on.indexOf('DefaultStorageClass')).toBe(on.indexOf('StorageObjectInUseProtection') - 1);
    expect(on.indexOf('StorageObjectInUseProtection')).toBeLessThan(on.indexOf('ResourceQuota'));
    expect(selectAdmissionPlugins([], ['StorageObjectInUseProtection'])).not.toContain(
      'StorageObjectInUseProtection',
    );
  });

  test('a new volume and a new claim get their protection finalizers, once', async () => {
    const pv = await call('POST', '/api/v1/persistentvolumes', {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv-1', finalizers: ['example.com/keep'] },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/pv-1' } },
    });
    expect(pv.status).toBe(201);
    expect(pv.json.metadata.finalizers).toEqual(['example.com/keep', 'kubernetes.io/pv-protection']);
    const pvc = await createClaim('protected', { storageClassName: '' });
    expect(pvc.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    const again = await call('POST', claims, {
      metadata: { name: 'listed', finalizers: ['kubernetes.io/pvc-protection'] },
      spec: {
        storageClassName: '',
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '1' } },
      },
    });
    expect(again.json.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    // a configmap is not protected
    const cm = await call('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'c' } });
    expect(cm.json.metadata.finalizers).toBeUndefined();
  });

  test('without a default class a claim keeps no class', async () => {
    expect((await call('POST', classes, storageClass('plain', false))).status).toBe(201);
    expect((await createClaim('no-default')).spec.storageClassName).toBeUndefined();
  });

  test('a claim naming no class gets the default one; the newest of several', async () => {
    expect((await call('POST', classes, storageClass('old-default', true))).status).toBe(201);
    expect((await createClaim('first')).spec.storageClassName).toBe('old-default');
    // creation timestamps have second precision
    await new Promise((r) => setTimeout(r, 1100));
    expect((await call('POST', classes, storageClass('new-default', true))).status).toBe(201);
    expect((await createClaim('second')).spec.storageClassName).toBe('new-default');
    // the beta annotation also marks a default
    await new Promise((r) => setTimeout(r, 1100));
    const beta = storageClass('beta-default', false);
    beta.metadata.annotations = { 'storageclass.beta.kubernetes.io/is-default-class': 'true' };
    expect((await call('POST', classes, beta)).status).toBe(201);
    expect((await createClaim('third')).spec.storageClassName).toBe('beta-default');
  });

  test('a claim naming a class, asking for none with "", or using the beta annotation keeps it', async () => {
    expect((await createClaim('named', { storageClassName: 'plain' })).spec.storageClassName).toBe('plain');
    expect((await createClaim('none', { storageClassName: '' })).spec.storageClassName).toBe('');
    const annotated = await createClaim(
      'annotated',
      {},
      { 'volume.beta.kubernetes.io/storage-class': 'plain' },
    );
    expect(annotated.spec.storageClassName).toBeUndefined();
  });
});
