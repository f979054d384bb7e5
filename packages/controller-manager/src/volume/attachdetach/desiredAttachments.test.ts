import { createHash } from 'node:crypto';
import type { PersistentVolume, PersistentVolumeClaim, Pod } from '@orch/api';
import { desiredAttachments, isAttachDetachManaged, volumeAttachmentName } from './desiredAttachments';

const claims: Record<string, PersistentVolumeClaim> = {
  'ns/data': {
    metadata: { name: 'data', namespace: 'ns' },
    spec: { volumeName: 'pv-csi' },
    status: { phase: 'Bound' },
  },
  'ns/host': {
    metadata: { name: 'host', namespace: 'ns' },
    spec: { volumeName: 'pv-host' },
    status: { phase: 'Bound' },
  },
  'ns/waiting': { metadata: { name: 'waiting', namespace: 'ns' }, spec: {}, status: { phase: 'Pending' } },
};
const volumes: Record<string, PersistentVolume> = {
  'pv-csi': {
    metadata: { name: 'pv-csi' },
    spec: { csi: { driver: 'disk.example.com', volumeHandle: 'vol-1' } },
  },
  'pv-host': { metadata: { name: 'pv-host' }, spec: { hostPath: { path: '/data' } } },
};
const lookups = {
  claim: (namespace: string, name: string) => claims[`${namespace}/${name}`],
  volume: (name: string) => volumes[name],
};

function pod(name: string, claimNames: string[], phase = 'Running'): Pod {
  return {
    metadata: { name, namespace: 'ns' },
    spec: {
      nodeName: 'n1',
      containers: [{ name: 'c', image: 'busybox' }],
      volumes: claimNames.map((claimName, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName } })),
    },
    status: { phase },
  };
}

describe('desiredAttachments', () => {
  it('wants the CSI volumes of bound claims, once per volume with every pod that uses it', () => {
    const a = pod('a', ['data', 'host']);
    const b = pod('b', ['data']);
    const desired = desiredAttachments([a, b], lookups);
    expect([...desired.keys()]).toEqual(['kubernetes.io/csi/disk.example.com^vol-1']);
    expect(desired.get('kubernetes.io/csi/disk.example.com^vol-1')).toEqual({
      uniqueName: 'kubernetes.io/csi/disk.example.com^vol-1',
      driver: 'disk.example.com',
      volumeHandle: 'vol-1',
      pvName: 'pv-csi',
      pods: [a, b],
    });
  });

  it('leaves out finished pods, unbound and missing claims', () => {
    expect(
      desiredAttachments([pod('done', ['data'], 'Succeeded'), pod('failed', ['data'], 'Failed')], lookups)
        .size,
    ).toBe(0);
    expect(desiredAttachments([pod('p', ['waiting', 'missing'])], lookups).size).toBe(0);
  });
});

describe('names', () => {
  it('names a VolumeAttachment csi- and the sha256 of handle, driver and node in hex', () => {
    const expected = createHash('sha256').update('vol-1disk.example.comn1').digest('hex');
    expect(volumeAttachmentName('vol-1', 'disk.example.com', 'n1')).toBe(`csi-${expected}`);
    expect(volumeAttachmentName('vol-1', 'disk.example.com', 'n1')).toHaveLength(68);
  });

  it('manages the nodes that ask for it', () => {
    const annotated = (value?: string) => ({
      metadata: {
        name: 'n',
        ...(value === undefined
          ? {}
          : { annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': value } }),
      },
    });
    expect(isAttachDetachManaged(annotated('true'))).toBe(true);
    expect(isAttachDetachManaged(annotated('false'))).toBe(false);
    expect(isAttachDetachManaged(annotated())).toBe(false);
  });
});
