import type { StorageClass } from '@orch/api';
import { claim, volume } from '../../testing/volumes';
import { hostPathVolume, provisionPlan, reclaimPlan } from './volumePlugins';

const sc = (provisioner: string, extra: Partial<StorageClass> = {}): StorageClass =>
  ({ metadata: { name: 'sc' }, provisioner, ...extra }) as StorageClass;

describe('provisioning', () => {
  test('by the host-path plugin, an external provisioner, or not at all', () => {
    expect(provisionPlan('sc', sc('kubernetes.io/host-path'), true)).toMatchObject({ kind: 'hostPath' });
    expect(provisionPlan('sc', sc('example.com/nfs'), true)).toMatchObject({ kind: 'external' });
    expect(provisionPlan('sc', sc('kubernetes.io/no-provisioner'), true)).toEqual({
      kind: 'failed',
      message: 'no volume plugin matched name: kubernetes.io/no-provisioner',
    });
    expect(provisionPlan('gone', undefined, true)).toEqual({
      kind: 'failed',
      message: 'storageclass.storage.k8s.io "gone" not found',
    });
    expect(provisionPlan('sc', sc('example.com/nfs'), false)).toEqual({ kind: 'disabled' });
  });

  test('a host-path volume is named after the claim, bound to it, under /tmp/hostpath_pv', () => {
    const c = claim('data', '3Gi', {
      storageClassName: 'sc',
      accessModes: ['ReadWriteOnce', 'ReadOnlyMany'],
    });
    c.metadata!.resourceVersion = '7';
    const made = hostPathVolume(c, sc('kubernetes.io/host-path', { reclaimPolicy: 'Retain' }), 'abc');
    expect(made).toEqual({
      volume: {
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: {
          name: 'pvc-uid-data',
          annotations: {
            'kubernetes.io/createdby': 'hostpath-dynamic-provisioner',
            'pv.kubernetes.io/bound-by-controller': 'yes',
            'pv.kubernetes.io/provisioned-by': 'kubernetes.io/host-path',
          },
        },
        spec: {
          persistentVolumeReclaimPolicy: 'Retain',
          accessModes: ['ReadWriteOnce', 'ReadOnlyMany'],
          capacity: { storage: '3Gi' },
          hostPath: { path: '/tmp/hostpath_pv/abc' },
          claimRef: {
            kind: 'PersistentVolumeClaim',
            apiVersion: 'v1',
            namespace: 'ns',
            name: 'data',
            uid: 'uid-data',
            resourceVersion: '7',
          },
          storageClassName: 'sc',
        },
        status: { phase: 'Bound' },
      },
    });
    // the class's reclaim policy defaults to Delete
    const deleting = hostPathVolume(c, sc('kubernetes.io/host-path'), 'x');
    expect('volume' in deleting && deleting.volume.spec?.persistentVolumeReclaimPolicy).toBe('Delete');
  });

  test('the host-path plugin refuses block claims (a provisioning failure) and mount options (before provisioning)', () => {
    expect(
      hostPathVolume(claim('b', '1Gi', { volumeMode: 'Block' }), sc('kubernetes.io/host-path'), 'x'),
    ).toEqual({
      provisionFailed: true,
      error:
        'Failed to provision volume with StorageClass "sc": kubernetes.io/host-path does not support block volume provisioning',
    });
    expect(
      hostPathVolume(claim('m', '1Gi'), sc('kubernetes.io/host-path', { mountOptions: ['ro', 'soft'] }), 'x'),
    ).toEqual({
      provisionFailed: false,
      error:
        'Mount options are not supported by the provisioner but StorageClass "sc" has mount options [ro soft]',
    });
  });
});

describe('reclaiming a released volume', () => {
  const annotated = (by: string) => ({ annotations: { 'pv.kubernetes.io/provisioned-by': by } });

  test('Retain keeps it; Recycle fails; an unknown policy fails', () => {
    expect(reclaimPlan(volume('v', '1Gi', { persistentVolumeReclaimPolicy: 'Retain' }))).toEqual({
      kind: 'retain',
    });
    expect(reclaimPlan(volume('v', '1Gi'))).toEqual({ kind: 'retain' });
    expect(reclaimPlan(volume('v', '1Gi', { persistentVolumeReclaimPolicy: 'Recycle' }))).toEqual({
      kind: 'fail',
      reason: 'VolumeFailedRecycle',
      message: 'No recycler plugin found for the volume!',
    });
    expect(reclaimPlan(volume('v', '1Gi', { persistentVolumeReclaimPolicy: 'Other' as 'Delete' }))).toEqual({
      kind: 'fail',
      reason: 'VolumeUnknownReclaimPolicy',
      message: 'Volume has unrecognized PersistentVolumeReclaimPolicy',
    });
  });

  test('Delete deletes host-path volumes under /tmp, leaves external ones, fails the others', () => {
    const del = { persistentVolumeReclaimPolicy: 'Delete' as const };
    const provisioned = volume(
      'p',
      '1Gi',
      { ...del, hostPath: { path: '/tmp/hostpath_pv/x' } },
      annotated('kubernetes.io/host-path'),
    );
    expect(reclaimPlan(provisioned)).toEqual({ kind: 'delete' });
    expect(reclaimPlan(volume('s', '1Gi', { ...del, hostPath: { path: '/tmp/static' } }))).toEqual({
      kind: 'delete',
    });
    expect(reclaimPlan(volume('s', '1Gi', { ...del, hostPath: { path: '/data/static' } }))).toEqual({
      kind: 'fail',
      reason: 'VolumeFailedDelete',
      message: 'host_path deleter only supports /tmp/.+ but received provided /data/static',
    });
    expect(reclaimPlan(volume('e', '1Gi', del, annotated('example.com/nfs')))).toEqual({ kind: 'external' });
    const nfs = volume('n', '1Gi', { ...del, hostPath: undefined, nfs: { server: 'nfs', path: '/x' } });
    expect(reclaimPlan(nfs)).toEqual({
      kind: 'fail',
      reason: 'VolumeFailedDelete',
      message: 'error getting deleter volume plugin for volume "n": no deletable volume plugin matched',
    });
    const local = volume('l', '1Gi', { ...del, hostPath: undefined, local: { path: '/mnt' } });
    expect(reclaimPlan(local)).toMatchObject({
      message: 'error getting deleter volume plugin for volume "l": no volume plugin matched',
    });
  });
});
