import { CycleState } from '../../framework/cycleState';
import { NodeInfo } from '../../framework/nodeInfo';
import { Code } from '../../framework/status';
import { FakeVolumeListers, makeClaim, makeStorageClass, makeVolume } from '../../testing/fakeVolumeListers';
import { makeNode, makePod } from '../../testing/fixtures';
import { ERR_REASON_VOLUME_ZONE_CONFLICT, VolumeZone } from './volumeZone';

const ZONE = 'topology.kubernetes.io/zone';
const REGION = 'topology.kubernetes.io/region';
const BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone';
const BETA_REGION = 'failure-domain.beta.kubernetes.io/region';

const listers = new FakeVolumeListers().add(
  makeVolume('pv-zone-a', {}, { [ZONE]: 'zone-a' }),
  makeVolume('pv-zones-a-b', {}, { [ZONE]: 'zone-a__zone-b' }),
  makeVolume('pv-beta-zone-a', {}, { [BETA_ZONE]: 'zone-a' }),
  makeVolume('pv-region-1', {}, { [REGION]: 'region-1' }),
  makeVolume('pv-beta-region-1', {}, { [BETA_REGION]: 'region-1' }),
  makeVolume('pv-bad-label', {}, { [ZONE]: 'zone-x__' }),
  makeVolume('pv-other-label', {}, { 'example.com/zone': 'zone-x' }),
  makeVolume('pv-unlabelled'),
  ...[
    'pv-zone-a',
    'pv-zones-a-b',
    'pv-beta-zone-a',
    'pv-region-1',
    'pv-beta-region-1',
    'pv-bad-label',
    'pv-other-label',
    'pv-unlabelled',
    'pv-missing',
  ].map((pv) => makeClaim(`claim-${pv}`, { volumeName: pv })),
  makeStorageClass('wait', 'kubernetes.io/no-provisioner', 'WaitForFirstConsumer'),
  makeStorageClass('immediate', 'kubernetes.io/no-provisioner', 'Immediate'),
  makeStorageClass('no-mode', 'kubernetes.io/no-provisioner'),
  makeClaim('unbound-wait', { storageClassName: 'wait' }),
  makeClaim('unbound-immediate', { storageClassName: 'immediate' }),
  makeClaim('unbound-no-mode', { storageClassName: 'no-mode' }),
  makeClaim('unbound-missing-class', { storageClassName: 'gone' }),
  makeClaim('unbound-no-class'),
);

const podWithClaims = (...claims: string[]) =>
  makePod('p', {
    volumes: claims.map((claimName, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName } })),
  });

const node = (labels: Record<string, string>) => new NodeInfo(makeNode('node-1', { labels }));

describe('VolumeZone', () => {
  const plugin = new VolumeZone({ volumeListers: listers });
  const filter = (claims: string[], labels: Record<string, string>) =>
    plugin.filter(new CycleState(), podWithClaims(...claims), node(labels));

  it.each([
    ['a pod without volumes', [], { [ZONE]: 'zone-b' }],
    ['a volume in the node’s zone', ['claim-pv-zone-a'], { [ZONE]: 'zone-a' }],
    ['a volume in several zones, one the node’s', ['claim-pv-zones-a-b'], { [ZONE]: 'zone-b' }],
    ['a beta-labelled volume on a beta-labelled node', ['claim-pv-beta-zone-a'], { [BETA_ZONE]: 'zone-a' }],
    ['a volume in the node’s region', ['claim-pv-region-1'], { [REGION]: 'region-1', [ZONE]: 'z' }],
    ['a beta region', ['claim-pv-beta-region-1'], { [BETA_REGION]: 'region-1' }],
    ['a node without zone labels', ['claim-pv-zone-a', 'claim-pv-missing'], {}],
    ['a volume without zone labels', ['claim-pv-unlabelled', 'claim-pv-other-label'], { [ZONE]: 'zone-b' }],
    ['a malformed zone label, ignored', ['claim-pv-bad-label'], { [ZONE]: 'zone-b' }],
    ['an unbound WaitForFirstConsumer claim, skipped', ['unbound-wait'], { [ZONE]: 'zone-b' }],
  ])('fits %s', (_name, claims, labels) => {
    expect(filter(claims, labels)).toBeUndefined();
  });

  it.each([
    ['a volume in another zone', ['claim-pv-zone-a'], { [ZONE]: 'zone-b' }],
    ['volumes in zones none the node’s', ['claim-pv-zones-a-b'], { [ZONE]: 'zone-c' }],
    ['the node lacking the volume’s label', ['claim-pv-zone-a'], { [BETA_ZONE]: 'zone-a' }],
    ['a beta zone elsewhere', ['claim-pv-beta-zone-a'], { [BETA_ZONE]: 'zone-b' }],
    ['a volume in another region', ['claim-pv-region-1'], { [REGION]: 'region-2' }],
    ['one of several volumes elsewhere', ['claim-pv-zones-a-b', 'claim-pv-zone-a'], { [ZONE]: 'zone-b' }],
  ])('rejects %s as unresolvable', (_name, claims, labels) => {
    const status = filter(claims, labels);
    expect(status?.code).toBe(Code.UnschedulableAndUnresolvable);
    expect(status?.reasons).toEqual(['node(s) had no available volume zone']);
    expect(ERR_REASON_VOLUME_ZONE_CONFLICT).toBe('node(s) had no available volume zone');
  });

  it.each([
    ['missing-claim', 'persistentvolumeclaim "missing-claim" not found'],
    ['claim-pv-missing', 'persistentvolume "pv-missing" not found'],
    ['unbound-immediate', 'PersistentVolume had no name'],
    ['unbound-no-mode', 'VolumeBindingMode not set for StorageClass "no-mode"'],
    [
      'unbound-missing-class',
      'StorageClass "gone" claimed by PersistentVolumeClaim "unbound-missing-class" not found',
    ],
    ['unbound-no-class', 'PersistentVolumeClaim had no pv name and storageClass name'],
    ['', 'PersistentVolumeClaim had no name'],
  ])('fails with an error for claim %j', (claim, message) => {
    const status = filter([claim], { [ZONE]: 'zone-a' });
    expect(status?.code).toBe(Code.Error);
    expect(status?.reasons).toEqual([message]);
  });
});

test('PreFilter skips a pod without claims, and keeps one with a claim', () => {
  const plugin = new VolumeZone({ volumeListers: new FakeVolumeListers() });
  const state = new CycleState();
  expect(plugin.preFilter(state, makePod('plain'))?.code).toBe(Code.Skip);
  const withClaim = makePod('claims', {
    volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'd' } }],
  });
  expect(plugin.preFilter(state, withClaim)).toBeUndefined();
});
