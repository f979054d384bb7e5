import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  EventKind,
  NodeKind,
  PersistentVolumeClaimKind,
  PersistentVolumeKind,
  PodKind,
  StorageClassKind,
  VolumeAttachmentKind,
  type Event,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
  type StorageClass,
} from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor, isNotFound, type RestClient } from '@orch/client';
import { volumeAttachmentName } from '@orch/controller-manager';
import { runInProcessManager, type InProcessManager } from '../controller-manager/inProcessManager';
import { startAgentCluster, type AgentCluster } from './harness';

jest.setTimeout(120_000);

const NS = 'default';
const DRIVER = 'disk.example.com';

describe.each(['simulated', 'process'])('the volumes of pods on orch-node-agent (%s runtime)', (runtime) => {
  const node = `vol-${runtime}-0`;
  let cluster: AgentCluster;
  let manager: InProcessManager;
  let rest: RestClient;
  let root: string;
  const nodes = () => clientFor(rest, NodeKind);
  const pods = () => clientFor(rest, PodKind, { namespace: NS });
  const claims = () => clientFor(rest, PersistentVolumeClaimKind, { namespace: NS });
  const volumes = () => clientFor(rest, PersistentVolumeKind);
  const attachments = () => clientFor(rest, VolumeAttachmentKind);

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'orch-e2e-volumes-'));
    cluster = await startAgentCluster([
      '--nodes=1',
      `--node-name-prefix=vol-${runtime}`,
      `--pod-runtime=${runtime}`,
      `--root-dir=${root}`,
      '--pod-start-latency=0s',
    ]);
    rest = cluster.rest;
    manager = runInProcessManager([
      `--kubeconfig=${cluster.api.kubeconfig}`,
      '--controllers=attachdetach,persistentvolume-binder,persistentvolume-expander',
      '--attach-detach-reconcile-sync-period=2s',
      '--pvclaimbinder-sync-period=1s',
    ]);
  });

  afterAll(async () => {
    await manager?.stop();
    await cluster?.close();
    rmSync(root, { recursive: true, force: true });
  });

  function pod(name: string, claimName: string): Pod {
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: NS },
      spec: {
        nodeName: node,
        terminationGracePeriodSeconds: 1,
        containers: [{ name: 'app', image: 'busybox', command: ['sleep', '3600'] }],
        volumes: [
          { name: 'scratch', emptyDir: {} },
          { name: 'data', persistentVolumeClaim: { claimName } },
        ],
      },
    } as Pod;
  }

  /** A volume and a claim bound to it by name. */
  async function claimWithVolume(
    name: string,
    source: Record<string, unknown>,
    className = '',
  ): Promise<void> {
    await volumes().create({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: `pv-${name}` },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Retain',
        storageClassName: className,
        ...source,
      },
    } as PersistentVolume);
    await claims().create({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name, namespace: NS },
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '1Gi' } },
        volumeName: `pv-${name}`,
        storageClassName: className,
      },
    } as PersistentVolumeClaim);
  }

  const podWhere = (name: string, ok: (p: Pod) => boolean, what: string) =>
    eventually(
      async () => {
        const p = await pods().get(name);
        return ok(p) ? p : undefined;
      },
      `${name}: ${what}`,
      60_000,
    );
  const nodeStatus = async () => (await nodes().get(node)).status;
  const attachment = (name: string) =>
    attachments()
      .get(name)
      .catch((e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)));
  const kubeletEvents = async (kind: string, name: string) =>
    ((await clientFor(rest, EventKind, { namespace: NS }).list()).items as Event[])
      .filter((e) => e.involvedObject?.kind === kind && e.involvedObject.name === name)
      .filter((e) => e.source?.component === 'kubelet')
      .map((e) => `${e.type} ${e.reason} ${e.message}`);

  it('starts a pod with a CSI volume once the volume is attached, reports it in use while it runs, and lets it be detached after', async () => {
    await claimWithVolume('csi-data', { csi: { driver: DRIVER, volumeHandle: 'handle-1' } });
    await pods().create(pod('web', 'csi-data'));
    const unique = `kubernetes.io/csi/${DRIVER}^handle-1`;
    const vaName = volumeAttachmentName('handle-1', DRIVER, node);
    const va = await eventually(() => attachment(vaName), 'the VolumeAttachment', 30_000);
    expect(va.spec).toEqual({
      attacher: DRIVER,
      nodeName: node,
      source: { persistentVolumeName: 'pv-csi-data' },
    });
    // the node reports the volume in use; the pod waits for the attach
    await eventually(
      async () => ((await nodeStatus())?.volumesInUse?.includes(unique) ? true : undefined),
      'volumesInUse',
    );
    const waiting = await podWhere('web', (p) => p.status?.containerStatuses !== undefined, 'a status');
    await new Promise((r) => setTimeout(r, 1500));
    const still = await pods().get('web');
    expect(still.status?.phase).toBe('Pending');
    expect(still.status?.containerStatuses?.[0]?.state).toEqual({ waiting: { reason: 'ContainerCreating' } });
    expect(waiting.status?.containerStatuses?.[0]?.state?.waiting?.reason).toBe('ContainerCreating');

    // the external attacher attaches it
    await attachments().patch(vaName, 'merge', { status: { attached: true } }, { subresource: 'status' });
    await podWhere('web', (p) => p.status?.phase === 'Running', 'Running');
    const running = await nodeStatus();
    expect(running?.volumesInUse).toEqual([unique]);
    expect(running?.volumesAttached).toEqual([{ name: unique, devicePath: '' }]);

    // the pod goes: the volume leaves volumesInUse and is detached
    await pods().delete('web');
    await eventually(
      async () =>
        (await pods()
          .get('web')
          .catch(() => undefined)) === undefined
          ? true
          : undefined,
      'the pod deleted',
      30_000,
    );
    await eventually(
      async () => ((await attachment(vaName)) === undefined ? true : undefined),
      'the detach',
      30_000,
    );
    const after = await nodeStatus();
    expect(after?.volumesInUse ?? []).toEqual([]);
    expect(after?.volumesAttached ?? []).toEqual([]);
  });

  it('grows the file system of an expanded in-tree volume a running pod uses', async () => {
    await clientFor(rest, StorageClassKind).create({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: `disks-${runtime}` },
      provisioner: 'kubernetes.io/gce-pd',
      allowVolumeExpansion: true,
    } as StorageClass);
    await claimWithVolume('pd-data', { gcePersistentDisk: { pdName: 'pd-1' } }, `disks-${runtime}`);
    await eventually(
      async () => ((await claims().get('pd-data')).status?.phase === 'Bound' ? true : undefined),
      'the claim bound',
    );
    await pods().create(pod('db', 'pd-data'));
    await podWhere('db', (p) => p.status?.phase === 'Running', 'Running');

    await claims().patch('pd-data', 'merge', { spec: { resources: { requests: { storage: '1500Mi' } } } });
    const grown = await eventually(
      async () => {
        const c = await claims().get('pd-data');
        return c.status?.capacity?.storage === '2Gi' ? c : undefined;
      },
      'the claim at its new capacity',
      30_000,
    );
    expect(grown.status?.conditions ?? []).toEqual([]);
    expect((await volumes().get('pv-pd-data')).spec?.capacity?.storage).toBe('2Gi');
    const message =
      'Normal FileSystemResizeSuccessful MountVolume.NodeExpandVolume succeeded for volume "pv-pd-data"';
    await eventually(
      async () =>
        (await kubeletEvents('PersistentVolumeClaim', 'pd-data')).includes(message) ? true : undefined,
      'the claim event',
    );
    expect(await kubeletEvents('Pod', 'db')).toContain(message);
    await pods().delete('db');
  });
});
