import type { Volume } from '@orch/api';
import { CycleState } from '../../framework/cycleState';
import { NodeInfo } from '../../framework/nodeInfo';
import { Code } from '../../framework/status';
import { makeNode, makePod } from '../../testing/fixtures';
import { isVolumeConflict, VolumeRestrictions } from './volumeRestrictions';

const gce = (pdName: string, readOnly = false): Volume => ({
  name: 'v',
  gcePersistentDisk: { pdName, readOnly },
});
const ebs = (volumeID: string, readOnly = false): Volume => ({
  name: 'v',
  awsElasticBlockStore: { volumeID, readOnly },
});
const rbd = (monitors: string[], image: string, pool?: string, readOnly = false): Volume => ({
  name: 'v',
  rbd: { monitors, image, ...(pool ? { pool } : {}), readOnly },
});
const iscsi = (iqn: string, readOnly = false): Volume => ({
  name: 'v',
  iscsi: { targetPortal: '10.0.0.1:3260', iqn, lun: 0, readOnly },
});
const emptyDir: Volume = { name: 'v', emptyDir: {} };

const podWith = (name: string, ...volumes: Volume[]) => makePod(name, { volumes, nodeName: 'node-1' });

describe('isVolumeConflict', () => {
  it.each([
    ['the same GCE PD', gce('disk'), gce('disk'), true],
    ['the same GCE PD, one read-only', gce('disk', true), gce('disk'), true],
    ['the same GCE PD, both read-only', gce('disk', true), gce('disk', true), false],
    ['different GCE PDs', gce('disk'), gce('other'), false],
    ['the same EBS volume', ebs('vol-1'), ebs('vol-1'), true],
    ['the same EBS volume, both read-only', ebs('vol-1', true), ebs('vol-1', true), true],
    ['different EBS volumes', ebs('vol-1'), ebs('vol-2'), false],
    ['an RBD image on an overlapping monitor', rbd(['m1', 'm2'], 'img'), rbd(['m2', 'm3'], 'img'), true],
    ['an RBD image in the default pool', rbd(['m1'], 'img'), rbd(['m1'], 'img', 'rbd'), true],
    ['an RBD image, both read-only', rbd(['m1'], 'img', 'p', true), rbd(['m1'], 'img', 'p', true), false],
    ['RBD images on disjoint monitors', rbd(['m1'], 'img'), rbd(['m2'], 'img'), false],
    ['RBD images in different pools', rbd(['m1'], 'img', 'a'), rbd(['m1'], 'img', 'b'), false],
    ['different RBD images', rbd(['m1'], 'img'), rbd(['m1'], 'other'), false],
    ['the same iSCSI IQN', iscsi('iqn.a'), iscsi('iqn.a'), true],
    ['the same iSCSI IQN, one read-only', iscsi('iqn.a', true), iscsi('iqn.a'), true],
    ['the same iSCSI IQN, both read-only', iscsi('iqn.a', true), iscsi('iqn.a', true), false],
    ['different iSCSI IQNs', iscsi('iqn.a'), iscsi('iqn.b'), false],
    ['a GCE PD and an EBS volume of the same name', gce('x'), ebs('x'), false],
    ['volumes of other kinds', emptyDir, emptyDir, false],
  ])('%s: %s', (_name, volume, existing, want) => {
    expect(isVolumeConflict(volume, podWith('existing', existing))).toBe(want);
  });
});

describe('VolumeRestrictions', () => {
  const plugin = new VolumeRestrictions();
  const nodeWith = (...pods: ReturnType<typeof podWith>[]) => {
    const info = new NodeInfo(makeNode('node-1'));
    for (const p of pods) info.addPod(p);
    return info;
  };

  it('fits a node whose pods use none of the pod’s disks', () => {
    const node = nodeWith(podWith('a', gce('disk-a')), podWith('b', ebs('vol-1')), podWith('c'));
    expect(plugin.filter(new CycleState(), podWith('new', gce('disk-b'), ebs('vol-2'), emptyDir), node)).toBe(
      undefined,
    );
    expect(plugin.filter(new CycleState(), podWith('new'), node)).toBeUndefined();
  });

  it('rejects a node where a pod uses one of the pod’s disks', () => {
    const node = nodeWith(podWith('a', emptyDir), podWith('b', gce('other'), ebs('vol-1')));
    const status = plugin.filter(new CycleState(), podWith('new', gce('disk-b'), ebs('vol-1')), node);
    expect(status?.code).toBe(Code.Unschedulable);
    expect(status?.reasons).toEqual(['node(s) had no available disk']);
  });

  it('fits a node sharing a GCE PD read-only', () => {
    const node = nodeWith(podWith('a', gce('disk', true)));
    expect(plugin.filter(new CycleState(), podWith('new', gce('disk', true)), node)).toBeUndefined();
    expect(plugin.filter(new CycleState(), podWith('new', gce('disk')), node)?.code).toBe(Code.Unschedulable);
  });
});

test('PreFilter skips a pod with no GCE PD, EBS, RBD or iSCSI volume, and keeps one with any', () => {
  const plugin = new VolumeRestrictions();
  const state = new CycleState();
  const secret: Volume = { name: 'token', secret: { secretName: 'token' } };
  expect(plugin.preFilter(state, podWith('plain'))?.code).toBe(Code.Skip);
  expect(plugin.preFilter(state, podWith('secret', secret))?.code).toBe(Code.Skip);
  for (const disk of [gce('d'), ebs('v'), rbd(['m'], 'i'), iscsi('q')])
    expect(plugin.preFilter(state, podWith('disk', secret, disk))).toBeUndefined();
});
