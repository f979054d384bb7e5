import {
  NodeKind,
  PersistentVolumeClaimKind,
  PersistentVolumeKind,
  PodKind,
  VolumeAttachmentKind,
  type Node,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
  type VolumeAttachment,
} from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor, isNotFound } from '@orch/client';
import { MemoryEventRecorder } from '@orch/component-base';
import { volumeAttachmentName } from '@orch/controller-manager';
import { startCluster, type Cluster } from './harness';

jest.setTimeout(90_000);

const NS = 'default';
const DRIVER = 'disk.example.com';
let cluster: Cluster;
const recorder = new MemoryEventRecorder();

beforeAll(async () => {
  cluster = await startCluster({
    controllers: ['attachdetach', 'persistentvolume-binder'],
    duration: (flag) =>
      flag === 'attach-detach-reconcile-sync-period' || flag === 'pvclaimbinder-sync-period'
        ? 1000
        : undefined,
    recorderFor: (name) => (name === 'attachdetach' ? recorder : new MemoryEventRecorder()),
  });
});
afterAll(async () => {
  await cluster?.close();
});

const nodes = () => clientFor(cluster.rest, NodeKind);
const pods = () => clientFor(cluster.rest, PodKind);
const attachments = () => clientFor(cluster.rest, VolumeAttachmentKind);
const podEvents = (pod: string) =>
  recorder.events.filter((e) => e.name === pod).map((e) => `${e.type} ${e.reason} ${e.message}`);

async function node(name: string, managed: boolean): Promise<void> {
  await nodes().create({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      ...(managed
        ? { annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' } }
        : {}),
    },
  } as Node);
}

/** A CSI volume bound to a claim of the same name. */
async function csiClaim(name: string): Promise<void> {
  await clientFor(cluster.rest, PersistentVolumeKind).create({
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: `pv-${name}` },
    spec: {
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      csi: { driver: DRIVER, volumeHandle: `handle-${name}` },
    },
  } as PersistentVolume);
  await clientFor(cluster.rest, PersistentVolumeClaimKind).create({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: NS },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
      volumeName: `pv-${name}`,
      storageClassName: '',
    },
  } as PersistentVolumeClaim);
}

async function pod(name: string, nodeName: string, claim: string): Promise<void> {
  await pods().create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NS },
    spec: {
      nodeName,
      containers: [{ name: 'app', image: 'nginx' }],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: claim } }],
    },
  } as Pod);
}

const attachment = (name: string) =>
  attachments()
    .get(name)
    .catch((e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)));
const attachedTo = async (nodeName: string) =>
  ((await nodes().get(nodeName)).status?.volumesAttached ?? []).map((v) => `${v.name} ${v.devicePath}`);
const setAttachmentStatus = (name: string, status: Record<string, unknown>) =>
  attachments().patch(name, 'merge', { status }, { subresource: 'status' });
const setVolumesInUse = (nodeName: string, inUse: string[] | null) =>
  nodes().patch(nodeName, 'merge', { status: { volumesInUse: inUse } }, { subresource: 'status' });

test('a CSI volume of a pod is attached through its VolumeAttachment, reported on the node, and detached once unmounted', async () => {
  await node('n1', true);
  await csiClaim('data');
  await pod('web', 'n1', 'data');
  const vaName = volumeAttachmentName('handle-data', DRIVER, 'n1');
  const va = await eventually(() => attachment(vaName), 'the VolumeAttachment');
  expect(va.spec).toEqual({ attacher: DRIVER, nodeName: 'n1', source: { persistentVolumeName: 'pv-data' } });
  // nothing is reported attached before the external attacher says so
  expect(await attachedTo('n1')).toEqual([]);

  await setAttachmentStatus(vaName, { attached: true });
  const unique = `kubernetes.io/csi/${DRIVER}^handle-data`;
  await eventually(async () => ((await attachedTo('n1')).length ? true : undefined), 'volumesAttached');
  expect(await attachedTo('n1')).toEqual([`${unique} `]);
  await eventually(async () => (podEvents('web').length ? true : undefined), 'the attach event');
  expect(podEvents('web')).toEqual([
    'Normal SuccessfulAttachVolume AttachVolume.Attach succeeded for volume "pv-data"',
  ]);

  // the pod goes while the node still has the volume mounted: it stays attached
  await setVolumesInUse('n1', [unique]);
  await pods().delete('web', { namespace: NS, gracePeriodSeconds: 0 });
  await new Promise((r) => setTimeout(r, 2500));
  expect(await attachedTo('n1')).toEqual([`${unique} `]);
  expect(await attachment(vaName)).toBeDefined();

  // unmounted: out of volumesAttached, and the VolumeAttachment deleted
  await setVolumesInUse('n1', null);
  await eventually(async () => ((await attachment(vaName)) === undefined ? true : undefined), 'the detach');
  expect(await attachedTo('n1')).toEqual([]);
});

test('an attach error of the external attacher, and an attacher that never answers, are events on the pod', async () => {
  await node('n3', true);
  await csiClaim('broken');
  await csiClaim('silent');
  await pod('broken', 'n3', 'broken');
  await pod('silent', 'n3', 'silent');
  const broken = volumeAttachmentName('handle-broken', DRIVER, 'n3');
  await eventually(() => attachment(broken), 'the VolumeAttachment');
  await setAttachmentStatus(broken, {
    attached: false,
    attachError: { message: 'rpc error: code = Internal desc = no disk' },
  });
  await eventually(async () => (podEvents('broken').length ? true : undefined), 'the failure event');
  expect(podEvents('broken')).toEqual([
    'Warning FailedAttachVolume AttachVolume.Attach failed for volume "pv-broken" : rpc error: code = Internal desc = no disk',
  ]);

  await eventually(
    () => attachment(volumeAttachmentName('handle-silent', DRIVER, 'n3')),
    'the VolumeAttachment',
  );
  expect(podEvents('silent')).toEqual([]);
  cluster.advance(2 * 60_000 + 1000);
  await eventually(async () => (podEvents('silent').length ? true : undefined), 'the time-out event');
  expect(podEvents('silent')).toEqual([
    `Warning FailedAttachVolume AttachVolume.Attach failed for volume "pv-silent" : timed out waiting for external-attacher of ${DRIVER} CSI driver to attach volume handle-silent`,
  ]);
  expect(await attachedTo('n3')).toEqual([]);
});

test('a volume still mounted is detached anyway six minutes after its last pod', async () => {
  await node('n2', true);
  await csiClaim('stuck');
  await pod('stuck', 'n2', 'stuck');
  const vaName = volumeAttachmentName('handle-stuck', DRIVER, 'n2');
  await eventually(() => attachment(vaName), 'the VolumeAttachment');
  await setAttachmentStatus(vaName, { attached: true });
  const unique = `kubernetes.io/csi/${DRIVER}^handle-stuck`;
  await eventually(async () => ((await attachedTo('n2')).length ? true : undefined), 'volumesAttached');
  await setVolumesInUse('n2', [unique]);
  await pods().delete('stuck', { namespace: NS, gracePeriodSeconds: 0 });
  await new Promise((r) => setTimeout(r, 2500));
  expect(await attachment(vaName)).toBeDefined();
  cluster.advance(6 * 60_000 + 1000);
  await eventually(
    async () => ((await attachment(vaName)) === undefined ? true : undefined),
    'the forced detach',
  );
  expect(await attachedTo('n2')).toEqual([]);
});

test('the volumes of a node that attaches its own are left alone', async () => {
  await node('own', false);
  await csiClaim('own');
  await pod('own', 'own', 'own');
  // the claim binds, and the controller sees the pod: still no VolumeAttachment
  await eventually(
    async () =>
      (await clientFor(cluster.rest, PersistentVolumeClaimKind).get('own', { namespace: NS })).status
        ?.phase === 'Bound'
        ? true
        : undefined,
    'the claim bound',
  );
  await new Promise((r) => setTimeout(r, 2500));
  expect(await attachment(volumeAttachmentName('handle-own', DRIVER, 'own'))).toBeUndefined();
  const all = (await attachments().list()).items as VolumeAttachment[];
  expect(all.filter((a) => a.spec?.nodeName === 'own')).toEqual([]);
});
