import { parseQuantity, type PersistentVolume } from '@orch/api';
import { expandablePluginFor, expandedDeviceSize } from './expandablePlugins';

const volume = (source: Record<string, unknown>): PersistentVolume =>
  ({ metadata: { name: 'pv' }, spec: { capacity: { storage: '1Gi' }, ...source } }) as PersistentVolume;

describe('expandablePluginFor', () => {
  it('finds the in-tree plugins that expand volumes from the controller manager', () => {
    expect(expandablePluginFor(volume({ gcePersistentDisk: { pdName: 'd' } }))).toMatchObject({
      name: 'kubernetes.io/gce-pd',
      requiresFSResize: true,
    });
    expect(expandablePluginFor(volume({ awsElasticBlockStore: { volumeID: 'v' } }))?.name).toBe(
      'kubernetes.io/aws-ebs',
    );
    expect(expandablePluginFor(volume({ glusterfs: { endpoints: 'e', path: 'p' } }))).toMatchObject({
      name: 'kubernetes.io/glusterfs',
      requiresFSResize: false,
    });
  });

  it('finds none for host-path, local, nfs and CSI volumes', () => {
    expect(expandablePluginFor(volume({ hostPath: { path: '/tmp/hostpath_pv/x' } }))).toBeUndefined();
    expect(expandablePluginFor(volume({ local: { path: '/mnt/disk' } }))).toBeUndefined();
    expect(expandablePluginFor(volume({ nfs: { server: 's', path: '/' } }))).toBeUndefined();
    expect(expandablePluginFor(volume({ csi: { driver: 'd', volumeHandle: 'h' } }))).toBeUndefined();
  });
});

describe('expandedDeviceSize', () => {
  const gce = expandablePluginFor(volume({ gcePersistentDisk: { pdName: 'd' } }))!;
  const rbd = expandablePluginFor(volume({ rbd: { monitors: ['m'], image: 'i' } }))!;
  const azureFile = expandablePluginFor(volume({ azureFile: { secretName: 's', shareName: 'x' } }))!;

  it('rounds the request up to the unit the storage allocates in', () => {
    expect(expandedDeviceSize(gce, parseQuantity('2Gi')).toString()).toBe('2Gi');
    expect(expandedDeviceSize(gce, parseQuantity('1500Mi')).toString()).toBe('2Gi');
    expect(expandedDeviceSize(gce, parseQuantity('3G')).toString()).toBe('3Gi');
    expect(expandedDeviceSize(rbd, parseQuantity('1.5G')).toString()).toBe('1431Mi');
  });

  it('gives the request as is to a plugin without an allocation unit', () => {
    expect(expandedDeviceSize(azureFile, parseQuantity('1500M')).toString()).toBe('1500M');
  });
});
