import type { Node, Pod, Volume } from '@orch/api';
import { CycleState } from '../../framework/cycleState';
import { NodeInfo } from '../../framework/nodeInfo';
import { Code } from '../../framework/status';
import { FakeVolumeListers, makeClaim, makeStorageClass, makeVolume } from '../../testing/fakeVolumeListers';
import { makeNode, makePod } from '../../testing/fixtures';
import {
  AZURE_DISK_VOLUME_FILTER,
  EBS_VOLUME_FILTER,
  GCE_PD_VOLUME_FILTER,
  maxPDVolumesFromEnv,
  NonCSILimits,
  type VolumeTypeFilter,
} from './nonCSILimits';

const ebs = (id: string): Volume => ({ name: id, awsElasticBlockStore: { volumeID: id } });
const gce = (id: string): Volume => ({ name: id, gcePersistentDisk: { pdName: id } });
const azure = (id: string): Volume =>
  ({ name: id, azureDisk: { diskName: id, diskURI: `uri/${id}` } }) as Volume;
const claim = (claimName: string): Volume => ({ name: claimName, persistentVolumeClaim: { claimName } });

const listers = new FakeVolumeListers().add(
  makeVolume('pv-ebs-1', { awsElasticBlockStore: { volumeID: 'ebs-1' } }),
  makeClaim('claim-ebs-1', { volumeName: 'pv-ebs-1' }),
  makeVolume('pv-ebs-9', { awsElasticBlockStore: { volumeID: 'ebs-9' } }),
  makeClaim('claim-ebs-9', { volumeName: 'pv-ebs-9' }),
  makeVolume('pv-gce-1', { gcePersistentDisk: { pdName: 'gce-1' } }),
  makeClaim('claim-gce-1', { volumeName: 'pv-gce-1' }),
  makeStorageClass('ebs-class', 'kubernetes.io/aws-ebs'),
  makeStorageClass('gce-class', 'kubernetes.io/gce-pd'),
  makeClaim('unbound-ebs', { storageClassName: 'ebs-class' }),
  makeClaim('unbound-gce', { storageClassName: 'gce-class' }),
  makeClaim('lost-ebs', { volumeName: 'pv-gone', storageClassName: 'ebs-class' }),
);

function filter(
  type: VolumeTypeFilter,
  node: Node,
  existing: Volume[][],
  volumes: Volume[],
  fromEnv?: number,
) {
  const plugin = new NonCSILimits(type, { volumeListers: listers }, fromEnv);
  const info = new NodeInfo(node);
  existing.forEach((v, i) => info.addPod(makePod(`existing-${i}`, { nodeName: 'node-1', volumes: v })));
  const pod: Pod = makePod('new', { volumes });
  return plugin.filter(new CycleState(), pod, info);
}

const nodeWith = (allocatable: Record<string, string> = {}, labels: Record<string, string> = {}) =>
  makeNode('node-1', { allocatable: { cpu: '4', memory: '8Gi', pods: '110', ...allocatable }, labels });
const many = (make: (id: string) => Volume, prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => make(`${prefix}-${i}`));

const EXCEEDED = 'node(s) exceed max volume count';

describe('NonCSILimits (EBSLimits, GCEPDLimits, AzureDiskLimits)', () => {
  it('names the plugins as Kubernetes', () => {
    expect([EBS_VOLUME_FILTER, GCE_PD_VOLUME_FILTER, AZURE_DISK_VOLUME_FILTER].map((t) => t.name)).toEqual([
      'EBSLimits',
      'GCEPDLimits',
      'AzureDiskLimits',
    ]);
  });

  it.each([
    ['EBS', EBS_VOLUME_FILTER, ebs, 39, 'attachable-volumes-aws-ebs'],
    ['GCE PD', GCE_PD_VOLUME_FILTER, gce, 16, 'attachable-volumes-gce-pd'],
    ['Azure disk', AZURE_DISK_VOLUME_FILTER, azure, 16, 'attachable-volumes-azure-disk'],
  ])('limits %s volumes to %i by default, or the node’s allocatable', (_n, type, make, max, key) => {
    const existing = [many(make, 'old', max - 1)];
    expect(filter(type, nodeWith(), existing, [make('new-1')])).toBeUndefined();
    const status = filter(type, nodeWith(), existing, [make('new-1'), make('new-2')]);
    expect(status?.code).toBe(Code.Unschedulable);
    expect(status?.reasons).toEqual([EXCEEDED]);
    // the node's allocatable wins over the default
    expect(
      filter(type, nodeWith({ [key]: String(max + 1) }), existing, [make('a'), make('b')]),
    ).toBeUndefined();
    expect(filter(type, nodeWith({ [key]: '2' }), [[make('x')]], [make('a'), make('b')])?.reasons).toEqual([
      EXCEEDED,
    ]);
  });

  it.each([
    ['m5.large', 25],
    ['c5.xlarge', 25],
    ['t3.micro', 25],
    ['z1d.large', 25],
    ['m4.large', 39],
    ['', 39],
  ])('limits EBS volumes of instance type %j to %i', (instanceType, max) => {
    const labels: Record<string, string> = instanceType
      ? { 'node.kubernetes.io/instance-type': instanceType }
      : {};
    const existing = [many(ebs, 'old', max - 1)];
    expect(filter(EBS_VOLUME_FILTER, nodeWith({}, labels), existing, [ebs('new')])).toBeUndefined();
    expect(filter(EBS_VOLUME_FILTER, nodeWith({}, labels), existing, [ebs('a'), ebs('b')])?.code).toBe(
      Code.Unschedulable,
    );
  });

  it('reads the beta instance type label', () => {
    const node = nodeWith({}, { 'beta.kubernetes.io/instance-type': 'r5.large' });
    expect(filter(EBS_VOLUME_FILTER, node, [many(ebs, 'old', 25)], [ebs('a')])?.code).toBe(
      Code.Unschedulable,
    );
  });

  it('takes KUBE_MAX_PD_VOLS over the default but not over the allocatable', () => {
    expect(filter(GCE_PD_VOLUME_FILTER, nodeWith(), [[gce('a')]], [gce('b')], 1)?.reasons).toEqual([
      EXCEEDED,
    ]);
    expect(
      filter(
        GCE_PD_VOLUME_FILTER,
        nodeWith({ 'attachable-volumes-gce-pd': '2' }),
        [[gce('a')]],
        [gce('b')],
        1,
      ),
    ).toBeUndefined();
  });

  it.each([
    ['7', 7],
    [' 3 ', 3],
    ['0', undefined],
    ['-2', undefined],
    ['x', undefined],
    [undefined, undefined],
  ])('parses KUBE_MAX_PD_VOLS=%j as %j', (value, want) => {
    expect(maxPDVolumesFromEnv(value)).toBe(want);
  });

  const limit1 = nodeWith({ 'attachable-volumes-aws-ebs': '1' });
  it.each([
    ['a volume the node already has', [[ebs('ebs-1')]], [ebs('ebs-1')]],
    ['the same volume through a claim', [[ebs('ebs-1')]], [claim('claim-ebs-1')]],
    ['volumes of another type', [[ebs('ebs-1')]], [gce('gce-1'), claim('claim-gce-1')]],
    ['claims not found', [[ebs('ebs-1')]], [claim('missing')]],
    ['an unbound claim of another provisioner', [[ebs('ebs-1')]], [claim('unbound-gce')]],
    ['a pod without volumes', [[ebs('ebs-1')]], []],
  ])('fits %s', (_name, existing, volumes) => {
    expect(filter(EBS_VOLUME_FILTER, limit1, existing, volumes)).toBeUndefined();
  });

  it.each([
    ['a new inline volume', [[ebs('ebs-1')]], [ebs('ebs-2')]],
    ['a new volume through a claim', [[ebs('ebs-1')]], [claim('claim-ebs-9')]],
    ['an unbound claim of the type’s provisioner', [[ebs('ebs-1')]], [claim('unbound-ebs')]],
    ['a claim whose volume is gone', [[ebs('ebs-1')]], [claim('lost-ebs')]],
    ['counted claims of the node’s pods', [[claim('unbound-ebs')]], [ebs('ebs-1')]],
  ])('rejects %s over the limit', (_name, existing, volumes) => {
    expect(filter(EBS_VOLUME_FILTER, limit1, existing, volumes)?.reasons).toEqual([EXCEEDED]);
  });

  it('fails on a claim volume without a claim name', () => {
    const status = filter(EBS_VOLUME_FILTER, limit1, [], [ebs('a'), claim('')]);
    expect(status?.code).toBe(Code.Error);
    expect(status?.reasons).toEqual(['PersistentVolumeClaim had no name']);
  });
});

test('PreFilter skips a pod with no claim and no volume of the type, and keeps the others', () => {
  const plugin = new NonCSILimits(EBS_VOLUME_FILTER, { volumeListers: new FakeVolumeListers() }, undefined);
  const state = new CycleState();
  const pod = (...volumes: Volume[]) => makePod('p', { volumes });
  expect(plugin.preFilter(state, pod())?.code).toBe(Code.Skip);
  expect(plugin.preFilter(state, pod(gce('other-type')))?.code).toBe(Code.Skip);
  expect(plugin.preFilter(state, pod(ebs('v')))).toBeUndefined();
  expect(plugin.preFilter(state, pod(claim('c')))).toBeUndefined();
});
