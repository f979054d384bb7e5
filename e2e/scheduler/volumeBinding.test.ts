import {
  PersistentVolumeClaimKind,
  PersistentVolumeKind,
  StorageClassKind,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type StorageClass,
} from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor } from '@orch/client';
import { runInProcessManager, type InProcessManager } from '../controller-manager/inProcessManager';
import { bound, eventAbout, HOSTNAME, newPod, podScheduled, startSchedulerCluster } from './harness';
import type { SchedulerCluster } from './harness';

jest.setTimeout(90_000);

// orch-scheduler's VolumeBinding with the controller manager's persistentvolume-binder, which
// finishes the bindings the scheduler starts (PreBind waits for it).

describe('orch-scheduler volume binding against a real apiserver and PV controller', () => {
  let cluster: SchedulerCluster;
  let manager: InProcessManager | undefined;

  beforeAll(async () => {
    cluster = await startSchedulerCluster();
    manager = runInProcessManager([
      `--kubeconfig=${cluster.api.kubeconfig}`,
      '--controllers=persistentvolume-binder',
      '--pvclaimbinder-sync-period=1s',
    ]);
    await cluster.startScheduler(['--pod-initial-backoff-seconds=1', '--pod-max-backoff-seconds=1']);
  });

  afterAll(async () => {
    if (process.env.SCHED_DEBUG && manager) console.log(manager.out.join(''));
    await manager?.stop();
    await cluster?.close();
  });

  const classes = () => clientFor(cluster.rest, StorageClassKind);
  const volumes = () => clientFor(cluster.rest, PersistentVolumeKind);
  const claims = () => clientFor(cluster.rest, PersistentVolumeClaimKind, { namespace: 'default' });

  const storageClass = (name: string, volumeBindingMode: string): StorageClass =>
    ({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name },
      provisioner: 'kubernetes.io/no-provisioner',
      volumeBindingMode,
    }) as StorageClass;

  const claim = (name: string, storageClassName: string): PersistentVolumeClaim =>
    ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name, namespace: 'default' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName },
    }) as PersistentVolumeClaim;

  const localVolume = (name: string, storageClassName: string, node: string): PersistentVolume =>
    ({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Retain',
        storageClassName,
        local: { path: `/mnt/disks/${name}` },
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: HOSTNAME, operator: 'In', values: [node] }] }],
          },
        },
      },
    }) as PersistentVolume;

  const podUsing = (name: string, claimName: string) =>
    newPod(name, { cpu: '100m' }, { volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }] });

  it('keeps a pod whose Immediate claim is unbound pending', async () => {
    await classes().create(storageClass('immediate', 'Immediate'));
    await claims().create(claim('immediate-data', 'immediate'));
    await cluster.pods.create(podUsing('immediate-pod', 'immediate-data'));
    const condition = await podScheduled(cluster, 'immediate-pod');
    expect(condition).toMatchObject({ status: 'False', reason: 'Unschedulable' });
    expect(condition?.message).toContain('pod has unbound immediate PersistentVolumeClaims');
    const event = await eventAbout(cluster, 'FailedScheduling', 'immediate-pod');
    expect(event.message).toContain('pod has unbound immediate PersistentVolumeClaims');
    expect((await cluster.pods.get('immediate-pod')).spec?.nodeName).toBeUndefined();
  });

  it('schedules a WaitForFirstConsumer claim’s pod to the node of its local volume and binds the claim', async () => {
    await classes().create(storageClass('local-wait', 'WaitForFirstConsumer'));
    await volumes().create(localVolume('local-node-2', 'local-wait', 'node-2'));
    await claims().create(claim('wait-data', 'local-wait'));
    await cluster.pods.create(podUsing('wait-pod', 'wait-data'));
    expect(await bound(cluster, ['wait-pod'])).toEqual(['node-2']);
    const pv = await volumes().get('local-node-2');
    expect(pv.spec?.claimRef).toMatchObject({ namespace: 'default', name: 'wait-data' });
    const pvc = await eventually(async () => {
      const c = await claims().get('wait-data');
      return c.status?.phase === 'Bound' ? c : undefined;
    }, 'the claim bound');
    expect(pvc.spec?.volumeName).toBe('local-node-2');
    expect(pv.spec?.claimRef?.uid).toBe(pvc.metadata?.uid);
  });
});
