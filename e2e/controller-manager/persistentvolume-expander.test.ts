import {
  PersistentVolumeClaimKind,
  PersistentVolumeKind,
  StorageClassKind,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type StorageClass,
} from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor, StatusError } from '@orch/client';
import { MemoryEventRecorder } from '@orch/component-base';
import { startCluster, type Cluster } from './harness';

jest.setTimeout(90_000);

const NS = 'default';
let cluster: Cluster;
const recorders = new Map<string, MemoryEventRecorder>();

beforeAll(async () => {
  cluster = await startCluster(
    {
      controllers: ['persistentvolume-binder', 'persistentvolume-expander'],
      duration: (flag) => (flag === 'pvclaimbinder-sync-period' ? 1000 : undefined),
      bool: (flag) => (flag === 'enable-hostpath-provisioner' ? true : undefined),
      flagGiven: (flag) => flag === 'pvclaimbinder-sync-period',
      recorderFor: (name) => {
        const recorder = new MemoryEventRecorder();
        recorders.set(name, recorder);
        return recorder;
      },
    },
    ['DefaultStorageClass', 'PersistentVolumeClaimResize'],
  );
  await classes().create(storageClass('standard', 'kubernetes.io/host-path', true));
  await classes().create(storageClass('disks', 'kubernetes.io/gce-pd', true));
  await classes().create(storageClass('shares', 'kubernetes.io/glusterfs', true));
  await classes().create(storageClass('csi-disks', 'disks.csi.example.com', true));
  await classes().create(storageClass('fixed', 'kubernetes.io/host-path'));
});
afterAll(async () => {
  await cluster?.close();
});

const volumes = () => clientFor(cluster.rest, PersistentVolumeKind);
const claims = () => clientFor(cluster.rest, PersistentVolumeClaimKind).namespace(NS);
const classes = () => clientFor(cluster.rest, StorageClassKind);
const events = () => recorders.get('persistentvolume-expander')?.events ?? [];

function storageClass(name: string, provisioner: string, allowVolumeExpansion?: boolean): StorageClass {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name },
    provisioner,
    ...(allowVolumeExpansion === undefined ? {} : { allowVolumeExpansion }),
  } as StorageClass;
}

function volume(name: string, className: string, source: Record<string, unknown>): PersistentVolume {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name },
    spec: {
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      persistentVolumeReclaimPolicy: 'Retain',
      storageClassName: className,
      ...source,
    },
  } as PersistentVolume;
}

function claim(name: string, className: string, volumeName?: string): PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: NS },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
      storageClassName: className,
      ...(volumeName ? { volumeName } : {}),
    },
  } as PersistentVolumeClaim;
}

const bound = (name: string) =>
  eventually(
    async () => {
      const pvc = await claims().get(name);
      return pvc.status?.phase === 'Bound' && pvc.status.capacity?.storage ? pvc : undefined;
    },
    `claim ${name} Bound`,
    30_000,
  );

const resize = (name: string, storage: string) =>
  claims().patch(name, 'merge', { spec: { resources: { requests: { storage } } } });

async function refusal(write: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await write;
  } catch (err) {
    if (err instanceof StatusError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('the write was accepted');
}

test('an expandable in-tree volume is expanded; the node is left to grow its file system', async () => {
  await volumes().create(volume('pd-1', 'disks', { gcePersistentDisk: { pdName: 'pd-1' } }));
  await claims().create(claim('pd-claim', 'disks', 'pd-1'));
  await bound('pd-claim');

  await resize('pd-claim', '1500Mi');
  const pending = await eventually(
    async () => {
      const pvc = await claims().get('pd-claim');
      return pvc.status?.conditions?.some((c) => c.type === 'FileSystemResizePending') ? pvc : undefined;
    },
    'FileSystemResizePending',
    30_000,
  );
  expect(pending.status?.conditions).toEqual([
    expect.objectContaining({
      type: 'FileSystemResizePending',
      status: 'True',
      message: 'Waiting for user to (re-)start a pod to finish file system resize of volume on node.',
    }),
  ]);
  expect(pending.metadata?.annotations?.['volume.kubernetes.io/storage-resizer']).toBe(
    'kubernetes.io/gce-pd',
  );
  // the disk grows by whole GiB; the claim's capacity waits for the file system
  expect((await volumes().get('pd-1')).spec?.capacity?.storage).toBe('2Gi');
  expect(pending.status?.capacity?.storage).toBe('1Gi');
  // the binder's resyncs (every second here) leave the claim's capacity to the file system's growth
  await new Promise((r) => setTimeout(r, 2500));
  expect((await claims().get('pd-claim')).status?.capacity?.storage).toBe('1Gi');
});

test('a volume whose file system needs no node step: the claim gets its new capacity', async () => {
  await volumes().create(volume('share-1', 'shares', { glusterfs: { endpoints: 'gluster', path: 'vol1' } }));
  await claims().create(claim('share-claim', 'shares', 'share-1'));
  await bound('share-claim');

  await resize('share-claim', '3Gi');
  const done = await eventually(
    async () => {
      const pvc = await claims().get('share-claim');
      return pvc.status?.capacity?.storage === '3Gi' ? pvc : undefined;
    },
    'claim capacity 3Gi',
    30_000,
  );
  expect(done.status?.conditions ?? []).toEqual([]);
  expect((await volumes().get('share-1')).spec?.capacity?.storage).toBe('3Gi');
  await eventually(
    () =>
      events().some(
        (e) =>
          e.name === 'share-claim' &&
          e.type === 'Normal' &&
          e.reason === 'VolumeResizeSuccessful' &&
          e.message === 'ExpandVolume succeeded for volume default/share-claim',
      ),
    'VolumeResizeSuccessful event',
  );
});

const NO_PLUGIN =
  "Ignoring the PVC: didn't find a plugin capable of expanding the volume; waiting for an external controller to process this PVC.";

test('a provisioned host-path volume and a CSI volume are left to an external controller', async () => {
  await claims().create(claim('hostpath-claim', 'standard'));
  const provisioned = await bound('hostpath-claim');
  await volumes().create(
    volume('csi-1', 'csi-disks', { csi: { driver: 'disks.csi.example.com', volumeHandle: 'h-1' } }),
  );
  await claims().create(claim('csi-claim', 'csi-disks', 'csi-1'));
  await bound('csi-claim');

  await resize('hostpath-claim', '2Gi');
  await resize('csi-claim', '2Gi');
  for (const name of ['hostpath-claim', 'csi-claim']) {
    await eventually(
      () =>
        events().some(
          (e) =>
            e.name === name &&
            e.type === 'Normal' &&
            e.reason === 'ExternalExpanding' &&
            e.message === NO_PLUGIN,
        ),
      `ExternalExpanding event of ${name}`,
    );
  }
  const pvc = await claims().get('hostpath-claim');
  expect(pvc.spec?.resources?.requests?.storage).toBe('2Gi');
  expect(pvc.status?.capacity?.storage).toBe('1Gi');
  expect(pvc.status?.conditions ?? []).toEqual([]);
  expect((await volumes().get(provisioned.spec!.volumeName!)).spec?.capacity?.storage).toBe('1Gi');
  expect((await volumes().get('csi-1')).spec?.capacity?.storage).toBe('1Gi');
});

test('a class without allowVolumeExpansion refuses the resize, with Kubernetes message', async () => {
  await claims().create(claim('fixed-claim', 'fixed'));
  await bound('fixed-claim');
  expect(await refusal(resize('fixed-claim', '2Gi'))).toEqual({
    code: 403,
    message:
      'persistentvolumeclaims "fixed-claim" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
  });
});

test('a claim may not shrink', async () => {
  await claims().create(claim('shrink-claim', 'standard'));
  await bound('shrink-claim');
  const refused = await refusal(resize('shrink-claim', '512Mi'));
  expect(refused.code).toBe(422);
  expect(refused.message).toContain(
    'spec.resources.requests.storage: Forbidden: field can not be less than previous value',
  );
});
