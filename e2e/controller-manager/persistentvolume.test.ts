import {
  NodeKind,
  PersistentVolumeClaimKind,
  PersistentVolumeKind,
  PodKind,
  StorageClassKind,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
  type StorageClass,
} from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor, isNotFound } from '@orch/client';
import { MemoryEventRecorder } from '@orch/component-base';
import { startCluster, type Cluster } from './harness';

jest.setTimeout(90_000);

const NS = 'default';
let cluster: Cluster;
const recorders = new Map<string, MemoryEventRecorder>();
const warnings: string[] = [];

beforeAll(async () => {
  cluster = await startCluster(
    {
      controllers: ['persistentvolume-binder', 'pv-protection', 'pvc-protection'],
      duration: (flag) => (flag === 'pvclaimbinder-sync-period' ? 1000 : undefined),
      bool: (flag) => (flag === 'enable-hostpath-provisioner' ? true : undefined),
      flagGiven: (flag) => flag === 'pv-recycler-minimum-timeout-nfs' || flag === 'pvclaimbinder-sync-period',
      logger: {
        info: () => {},
        warning: (m) => warnings.push(m),
        error: (m) => (process.env.E2E_LOG ? process.stderr.write(m + '\n') : undefined),
      },
      recorderFor: (name) => {
        const recorder = new MemoryEventRecorder();
        recorders.set(name, recorder);
        return recorder;
      },
    },
    ['DefaultStorageClass', 'StorageObjectInUseProtection'],
  );
});
afterAll(async () => {
  await cluster?.close();
});

const volumes = () => clientFor(cluster.rest, PersistentVolumeKind);
const claims = () => clientFor(cluster.rest, PersistentVolumeClaimKind);
const classes = () => clientFor(cluster.rest, StorageClassKind);
const events = () => recorders.get('persistentvolume-binder')!.events;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function hostPathVolume(
  name: string,
  storage: string,
  policy: 'Retain' | 'Delete' = 'Retain',
): PersistentVolume {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name },
    spec: {
      capacity: { storage },
      accessModes: ['ReadWriteOnce'],
      persistentVolumeReclaimPolicy: policy,
      hostPath: { path: `/tmp/e2e/${name}` },
    },
  } as PersistentVolume;
}

function claim(name: string, storage: string, spec: Record<string, unknown> = {}): PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: NS },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } }, ...spec },
  } as PersistentVolumeClaim;
}

function storageClass(name: string, provisioner: string, extra: Partial<StorageClass> = {}): StorageClass {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name },
    provisioner,
    ...extra,
  } as StorageClass;
}

const volumePhase = (name: string, phase: string) =>
  eventually(
    async () => {
      const pv = await volumes().get(name);
      return pv.status?.phase === phase ? pv : undefined;
    },
    `volume ${name} ${phase}`,
    30_000,
  );
const claimPhase = (name: string, phase: string) =>
  eventually(
    async () => {
      const pvc = await claims().get(name, { namespace: NS });
      return pvc.status?.phase === phase ? pvc : undefined;
    },
    `claim ${name} ${phase}`,
    30_000,
  );
const gone = (get: () => Promise<unknown>, what: string) =>
  eventually(
    async () => {
      try {
        await get();
        return false;
      } catch (err) {
        return isNotFound(err);
      }
    },
    `${what} gone`,
    30_000,
  );

test('a static volume and a claim are bound to each other; the claim deleted, the volume is Released', async () => {
  await volumes().create(hostPathVolume('small', '1Gi'));
  await volumes().create(hostPathVolume('fit', '2Gi'));
  await volumes().create(hostPathVolume('large', '10Gi'));
  await volumePhase('fit', 'Available');
  await volumePhase('small', 'Available');
  await volumePhase('large', 'Available');
  const created = await claims().create(claim('data', '1500Mi', { storageClassName: '' }));
  expect(created.metadata?.finalizers).toEqual(['kubernetes.io/pvc-protection']);

  const pvc = await claimPhase('data', 'Bound');
  expect(pvc.spec?.volumeName).toBe('fit');
  expect(pvc.metadata?.annotations).toMatchObject({
    'pv.kubernetes.io/bind-completed': 'yes',
    'pv.kubernetes.io/bound-by-controller': 'yes',
  });
  expect(pvc.status).toMatchObject({ capacity: { storage: '2Gi' }, accessModes: ['ReadWriteOnce'] });
  const pv = await volumePhase('fit', 'Bound');
  expect(pv.spec?.claimRef).toMatchObject({
    kind: 'PersistentVolumeClaim',
    namespace: NS,
    name: 'data',
    uid: pvc.metadata?.uid,
  });
  expect(pv.metadata?.annotations).toMatchObject({ 'pv.kubernetes.io/bound-by-controller': 'yes' });
  expect(pv.metadata?.finalizers).toEqual(['kubernetes.io/pv-protection']);
  const table = await cluster.kubectl('get', 'pv,pvc');
  expect(table).toMatch(/persistentvolume\/fit\s+2Gi\s+RWO\s+Retain\s+Bound\s+default\/data\s/);
  expect(table).toMatch(/persistentvolumeclaim\/data\s+Bound\s+fit\s+2Gi\s+RWO\s/);
  expect((await volumes().get('small')).status?.phase).toBe('Available');

  await claims().delete('data', { namespace: NS });
  await gone(() => claims().get('data', { namespace: NS }), 'claim data');
  const released = await volumePhase('fit', 'Released');
  expect(released.spec?.claimRef?.name).toBe('data');
  // a Released volume is not bound again
  await claims().create(claim('again', '1500Mi', { storageClassName: '' }));
  expect((await claimPhase('again', 'Bound')).spec?.volumeName).toBe('large');
});

test('Delete of a volume no plugin here can delete: the volume goes Failed, saying why', async () => {
  const pv = hostPathVolume('remote', '1Gi', 'Delete');
  delete pv.spec!.hostPath;
  pv.spec!.nfs = { server: 'nfs.example.com', path: '/exports/remote' };
  await volumes().create(pv);
  await volumePhase('remote', 'Available');
  await claims().create(claim('remote-claim', '1Gi', { storageClassName: '', volumeName: 'remote' }));
  await claimPhase('remote-claim', 'Bound');
  await claims().delete('remote-claim', { namespace: NS });
  const failed = await volumePhase('remote', 'Failed');
  const message =
    'error getting deleter volume plugin for volume "remote": no deletable volume plugin matched';
  expect(failed.status?.message).toBe(message);
  expect(events()).toContainEqual({ name: 'remote', type: 'Warning', reason: 'VolumeFailedDelete', message });
});

test('pre-bound both ways: a claim naming a volume, and a volume naming a claim', async () => {
  await volumes().create(hostPathVolume('named', '5Gi'));
  await claims().create(claim('names-volume', '1Gi', { storageClassName: '', volumeName: 'named' }));
  const pvc = await claimPhase('names-volume', 'Bound');
  expect(pvc.spec?.volumeName).toBe('named');
  // the user bound the claim, the controller only the volume
  expect(pvc.metadata?.annotations?.['pv.kubernetes.io/bound-by-controller']).toBeUndefined();
  expect((await volumes().get('named')).metadata?.annotations?.['pv.kubernetes.io/bound-by-controller']).toBe(
    'yes',
  );

  const reserved = hostPathVolume('reserved', '3Gi');
  reserved.spec!.claimRef = { namespace: NS, name: 'reserving' };
  await volumes().create(reserved);
  await volumes().create(hostPathVolume('cheaper', '1Gi'));
  await volumePhase('cheaper', 'Available');
  await claims().create(claim('reserving', '1Gi', { storageClassName: '' }));
  const bound = await claimPhase('reserving', 'Bound');
  expect(bound.spec?.volumeName).toBe('reserved');
  const pv = await volumes().get('reserved');
  expect(pv.spec?.claimRef?.uid).toBe(bound.metadata?.uid);
  expect(pv.metadata?.annotations?.['pv.kubernetes.io/bound-by-controller']).toBeUndefined();
});

test('a claim with no class and no volume says so', async () => {
  await claims().create(claim('nothing', '100Gi', { storageClassName: '' }));
  await eventually(
    () =>
      events().find(
        (e) =>
          e.name === 'nothing' &&
          e.reason === 'FailedBinding' &&
          e.message === 'no persistent volumes available for this claim and no storage class is set',
      ),
    'FailedBinding event',
  );
  expect((await claims().get('nothing', { namespace: NS })).status?.phase).toBe('Pending');
});

test('the host-path provisioner provisions pvc-<uid>, bound to the claim, deleted with it', async () => {
  await classes().create(storageClass('hostpath', 'kubernetes.io/host-path'));
  const created = await claims().create(claim('dynamic', '3Gi', { storageClassName: 'hostpath' }));
  const uid = created.metadata?.uid ?? '';
  const pvc = await claimPhase('dynamic', 'Bound');
  expect(pvc.spec?.volumeName).toBe(`pvc-${uid}`);
  expect(pvc.metadata?.annotations).toMatchObject({
    'volume.kubernetes.io/storage-provisioner': 'kubernetes.io/host-path',
    'volume.beta.kubernetes.io/storage-provisioner': 'kubernetes.io/host-path',
    'pv.kubernetes.io/bind-completed': 'yes',
  });
  const pv = await volumePhase(`pvc-${uid}`, 'Bound');
  expect(pv.spec?.hostPath?.path).toMatch(/^\/tmp\/hostpath_pv\/[0-9a-f-]{36}$/);
  expect(pv.spec).toMatchObject({
    storageClassName: 'hostpath',
    persistentVolumeReclaimPolicy: 'Delete',
    capacity: { storage: '3Gi' },
    claimRef: { name: 'dynamic', uid },
  });
  expect(pv.metadata?.annotations).toMatchObject({
    'pv.kubernetes.io/provisioned-by': 'kubernetes.io/host-path',
    'pv.kubernetes.io/bound-by-controller': 'yes',
  });
  expect(events()).toContainEqual({
    name: 'dynamic',
    type: 'Normal',
    reason: 'ProvisioningSucceeded',
    message: `Successfully provisioned volume pvc-${uid} using kubernetes.io/host-path`,
  });

  await claims().delete('dynamic', { namespace: NS });
  await gone(() => volumes().get(`pvc-${uid}`), 'the provisioned volume');
});

test('a claim of the default class, with an external provisioner, waits for it', async () => {
  await classes().create(
    storageClass('external', 'example.com/external', {
      metadata: { name: 'external', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
    }),
  );
  const created = await claims().create(claim('outside', '1Gi'));
  expect(created.spec?.storageClassName).toBe('external');
  const message =
    "Waiting for a volume to be created either by the external provisioner 'example.com/external' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.";
  await eventually(
    () =>
      events().find(
        (e) => e.name === 'outside' && e.reason === 'ExternalProvisioning' && e.message === message,
      ),
    'ExternalProvisioning event',
  );
  const pvc = await claims().get('outside', { namespace: NS });
  expect(pvc.metadata?.annotations?.['volume.kubernetes.io/storage-provisioner']).toBe(
    'example.com/external',
  );
  expect(pvc.status?.phase).toBe('Pending');
});

test('WaitForFirstConsumer: nothing is provisioned before a node is selected', async () => {
  await clientFor(cluster.rest, NodeKind).create({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'node-a' },
  });
  await classes().create(
    storageClass('later', 'kubernetes.io/host-path', { volumeBindingMode: 'WaitForFirstConsumer' }),
  );
  await volumes().create({
    ...hostPathVolume('unused', '1Gi'),
    spec: { ...hostPathVolume('unused', '1Gi').spec, storageClassName: 'later' },
  });
  await volumePhase('unused', 'Available');
  await claims().create(claim('waiting', '1Gi', { storageClassName: 'later' }));
  await eventually(
    () =>
      events().find(
        (e) =>
          e.name === 'waiting' &&
          e.reason === 'WaitForFirstConsumer' &&
          e.message === 'waiting for first consumer to be created before binding',
      ),
    'WaitForFirstConsumer event',
  );
  await sleep(1500);
  let pvc = await claims().get('waiting', { namespace: NS });
  expect(pvc.status?.phase).toBe('Pending');
  expect(pvc.spec?.volumeName).toBeUndefined();
  await claims().patch(
    'waiting',
    'merge',
    { metadata: { annotations: { 'volume.kubernetes.io/selected-node': 'node-a' } } },
    { namespace: NS },
  );
  pvc = await claimPhase('waiting', 'Bound');
  expect(pvc.spec?.volumeName).toBe(`pvc-${pvc.metadata?.uid}`);
  expect((await volumes().get('unused')).status?.phase).toBe('Available');
});

test('WaitForFirstConsumer: provisioning that fails for the selected node gives the claim back to the scheduler', async () => {
  // node-a and the class "later" come from the test before
  await claims().create(claim('block', '1Gi', { storageClassName: 'later', volumeMode: 'Block' }));
  await claims().patch(
    'block',
    'merge',
    { metadata: { annotations: { 'volume.kubernetes.io/selected-node': 'node-a' } } },
    { namespace: NS },
  );
  await eventually(
    () =>
      events().find(
        (e) =>
          e.name === 'block' &&
          e.reason === 'ProvisioningFailed' &&
          e.message ===
            'Failed to provision volume with StorageClass "later": kubernetes.io/host-path does not support block volume provisioning',
      ),
    'ProvisioningFailed event',
  );
  const pvc = await eventually(async () => {
    const c = await claims().get('block', { namespace: NS });
    return c.metadata?.annotations?.['volume.kubernetes.io/selected-node'] === undefined ? c : undefined;
  }, 'selected-node annotation removed');
  expect(pvc.status?.phase).toBe('Pending');
  expect(pvc.spec?.volumeName).toBeUndefined();
});

test('a claim used by a scheduled pod stays Terminating until the pod is gone; so does its bound volume', async () => {
  await volumes().create(hostPathVolume('protected', '1Gi', 'Retain'));
  await volumePhase('protected', 'Available');
  await claims().create(claim('in-use', '1Gi', { storageClassName: '', volumeName: 'protected' }));
  await claimPhase('in-use', 'Bound');
  const pods = clientFor(cluster.rest, PodKind);
  await pods.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'user', namespace: NS },
    spec: {
      nodeName: 'node-a',
      containers: [{ name: 'app', image: 'nginx' }],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'in-use' } }],
    },
  } as Pod);
  await eventually(
    async () => (await pods.get('user', { namespace: NS })).status?.phase === 'Running',
    'pod running',
  );

  await claims().delete('in-use', { namespace: NS });
  await volumes().delete('protected');
  await sleep(2000);
  const pvc = await claims().get('in-use', { namespace: NS });
  expect(pvc.metadata?.deletionTimestamp).toBeDefined();
  expect(pvc.metadata?.finalizers).toEqual(['kubernetes.io/pvc-protection']);
  expect(await cluster.kubectl('get', 'pvc', 'in-use')).toMatch(/in-use\s+Terminating\s+protected\s+1Gi/);
  const pv = await volumes().get('protected');
  expect(pv.metadata?.deletionTimestamp).toBeDefined();
  expect(pv.status?.phase).toBe('Bound');

  await pods.delete('user', { namespace: NS, gracePeriodSeconds: 0 });
  await gone(() => claims().get('in-use', { namespace: NS }), 'claim in-use');
  await gone(() => volumes().get('protected'), 'volume protected');
});

test('the recycler flags, not built, are said to have no effect; the binder flags are read', () => {
  expect(warnings).toEqual([
    '--pv-recycler-minimum-timeout-nfs has no effect: it configures volume recycling and flex volume plugins of "persistentvolume-binder", not built into this controller manager yet',
  ]);
});
