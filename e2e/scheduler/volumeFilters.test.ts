import {
  ANN_BIND_COMPLETED,
  NodeKind,
  PersistentVolumeClaimKind,
  PersistentVolumeKind,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Volume,
} from '@orch/api';
import { clientFor } from '@orch/client';
import {
  bound,
  eventAbout,
  HOSTNAME,
  newPod,
  nodeOf,
  NODES,
  podScheduled,
  startSchedulerCluster,
} from './harness';
import type { SchedulerCluster } from './harness';

jest.setTimeout(90_000);

const ZONE = 'topology.kubernetes.io/zone';
/** node-2 is the one node in zone-b. */
const ZONES: Record<string, string> = { 'node-1': 'zone-a', 'node-2': 'zone-b', 'node-3': 'zone-a' };

// orch-scheduler's VolumeZone and VolumeRestrictions filters, run as a real process against a real
// apiserver.

describe('orch-scheduler volume zone and disk conflict filters against a real apiserver', () => {
  let cluster: SchedulerCluster;

  beforeAll(async () => {
    cluster = await startSchedulerCluster();
    const nodes = clientFor(cluster.rest, NodeKind);
    for (const name of NODES) {
      const n = await nodes.get(name);
      await nodes.update({
        ...n,
        metadata: { ...n.metadata, labels: { ...n.metadata?.labels, [ZONE]: ZONES[name]! } },
      });
    }
    await cluster.startScheduler(['--pod-initial-backoff-seconds=1', '--pod-max-backoff-seconds=1']);
  });

  afterAll(async () => {
    await cluster?.close();
  });

  it('schedules a pod whose bound volume is in zone-b to the zone-b node only', async () => {
    const pv = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'zonal-pv', labels: { [ZONE]: 'zone-b' } },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Retain',
        storageClassName: '',
        gcePersistentDisk: { pdName: 'zonal-disk' },
        claimRef: {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          namespace: 'default',
          name: 'zonal-data',
        },
      },
    } as PersistentVolume;
    // bound already, as the PV controller leaves a claim
    const claim = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'zonal-data', namespace: 'default', annotations: { [ANN_BIND_COMPLETED]: 'yes' } },
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '1Gi' } },
        storageClassName: '',
        volumeName: 'zonal-pv',
      },
    } as PersistentVolumeClaim;
    await clientFor(cluster.rest, PersistentVolumeKind).create(pv);
    await clientFor(cluster.rest, PersistentVolumeClaimKind, { namespace: 'default' }).create(claim);
    const names = ['zonal-1', 'zonal-2', 'zonal-3'];
    for (const name of names)
      await cluster.pods.create(
        newPod(
          name,
          { cpu: '100m' },
          { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'zonal-data' } }] },
        ),
      );
    expect(await bound(cluster, names)).toEqual(['node-2', 'node-2', 'node-2']);
  });

  const sharedDisk: Volume = { name: 'disk', gcePersistentDisk: { pdName: 'shared-disk' } };

  it('keeps a second writer of a GCE persistent disk off the node already using it', async () => {
    await cluster.pods.create(newPod('disk-owner', { cpu: '100m' }, { volumes: [sharedDisk] }));
    const [ownerNode] = await bound(cluster, ['disk-owner']);
    await cluster.pods.create(newPod('disk-user', { cpu: '100m' }, { volumes: [sharedDisk] }));
    const [userNode] = await bound(cluster, ['disk-user']);
    expect(userNode).not.toBe(ownerNode);

    // pinned to the owner's node, it stays pending with the disk conflict
    await cluster.pods.create(
      newPod(
        'disk-pinned',
        { cpu: '100m' },
        { volumes: [sharedDisk], nodeSelector: { [HOSTNAME]: ownerNode! } },
      ),
    );
    const condition = await podScheduled(cluster, 'disk-pinned');
    expect(condition).toMatchObject({ status: 'False', reason: 'Unschedulable' });
    expect(condition?.message).toContain('1 node(s) had no available disk');
    const event = await eventAbout(cluster, 'FailedScheduling', 'disk-pinned');
    expect(event.message).toContain('1 node(s) had no available disk');
    expect(await nodeOf(cluster, 'disk-pinned')).toBeUndefined();
  });
});
