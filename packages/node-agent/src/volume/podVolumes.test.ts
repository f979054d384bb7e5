import type { Node, PersistentVolume, PersistentVolumeClaim, Pod } from '@orch/api';
import {
  attachableVolumeName,
  claimVolumes,
  failedMountMessage,
  requiresFSResize,
  unmountedVolumes,
  type ClaimLookups,
} from './podVolumes';

const pod = {
  metadata: { name: 'web', namespace: 'default', uid: 'u1' },
  spec: {
    nodeName: 'n1',
    containers: [{ name: 'app', image: 'nginx' }],
    volumes: [
      { name: 'token', secret: { secretName: 'token' } },
      { name: 'data', persistentVolumeClaim: { claimName: 'data' } },
      { name: 'logs', persistentVolumeClaim: { claimName: 'logs', readOnly: true } },
    ],
  },
} as Pod;

const claim = (name: string, volumeName: string, phase = 'Bound', capacity = '1Gi'): PersistentVolumeClaim =>
  ({
    metadata: { name, namespace: 'default' },
    spec: { volumeName },
    status: { phase, capacity: { storage: capacity } },
  }) as PersistentVolumeClaim;

const csiVolume = (name: string, capacity = '1Gi'): PersistentVolume =>
  ({
    metadata: { name },
    spec: { capacity: { storage: capacity }, csi: { driver: 'disk.example.com', volumeHandle: `h-${name}` } },
  }) as PersistentVolume;

const hostPathVolume = (name: string): PersistentVolume =>
  ({
    metadata: { name },
    spec: { capacity: { storage: '1Gi' }, hostPath: { path: '/tmp' } },
  }) as PersistentVolume;

function lookups(claims: PersistentVolumeClaim[], volumes: PersistentVolume[]): ClaimLookups {
  return {
    claim: (ns, name) => claims.find((c) => c.metadata?.namespace === ns && c.metadata?.name === name),
    volume: (name) => volumes.find((v) => v.metadata?.name === name),
  };
}

const node = (attached: string[], inUse: string[]): Node =>
  ({
    metadata: { name: 'n1' },
    status: { volumesAttached: attached.map((name) => ({ name, devicePath: '' })), volumesInUse: inUse },
  }) as Node;

const DATA = 'kubernetes.io/csi/disk.example.com^h-pv-data';

test('a CSI persistent volume is attachable under its unique name; others are not', () => {
  expect(attachableVolumeName(csiVolume('pv-data'))).toBe(DATA);
  expect(attachableVolumeName(hostPathVolume('pv-logs'))).toBeUndefined();
  expect(attachableVolumeName(undefined)).toBeUndefined();
});

test('claim volumes resolve to their bound volumes and attachable names', () => {
  const resolved = claimVolumes(
    pod,
    lookups(
      [claim('data', 'pv-data'), claim('logs', 'pv-logs')],
      [csiVolume('pv-data'), hostPathVolume('pv-logs')],
    ),
  );
  expect(
    resolved.map((v) => [v.name, v.claimName, v.readOnly, v.volume?.metadata?.name, v.attachable]),
  ).toEqual([
    ['data', 'data', false, 'pv-data', DATA],
    ['logs', 'logs', true, 'pv-logs', undefined],
  ]);
});

test('volumes are unmounted while a claim is missing or unbound, or an attachable volume is not attached and reported in use', () => {
  const volumes = [csiVolume('pv-data'), hostPathVolume('pv-logs')];
  const unbound = claimVolumes(pod, lookups([claim('data', 'pv-data', 'Pending')], volumes));
  expect(unmountedVolumes(unbound, node([DATA], [DATA]))).toEqual(['data', 'logs']);

  const bound = claimVolumes(pod, lookups([claim('data', 'pv-data'), claim('logs', 'pv-logs')], volumes));
  expect(unmountedVolumes(bound, undefined)).toEqual(['data']);
  expect(unmountedVolumes(bound, node([], [DATA]))).toEqual(['data']);
  expect(unmountedVolumes(bound, node([DATA], []))).toEqual(['data']);
  expect(unmountedVolumes(bound, node([DATA], [DATA]))).toEqual([]);
});

test("the FailedMount message names the unmounted volumes and, as the kubelet's, every volume as unattached", () => {
  expect(failedMountMessage(pod, ['data'])).toBe(
    'Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[token data logs]: timed out waiting for the condition',
  );
});

test("the file system needs growing when the volume's capacity exceeds the claim's", () => {
  expect(requiresFSResize(claim('data', 'pv', 'Bound', '1Gi'), csiVolume('pv', '2Gi'))).toBe(true);
  expect(requiresFSResize(claim('data', 'pv', 'Bound', '1024Mi'), csiVolume('pv', '1Gi'))).toBe(false);
  expect(requiresFSResize(claim('data', 'pv', 'Bound', '2Gi'), csiVolume('pv', '1Gi'))).toBe(false);
});
