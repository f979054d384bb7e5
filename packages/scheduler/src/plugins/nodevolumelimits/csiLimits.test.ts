import type { CSINode, Pod, Volume } from '@orch/api';
import { CycleState } from '../../framework/cycleState';
import { NodeInfo } from '../../framework/nodeInfo';
import { Code } from '../../framework/status';
import { FakeVolumeListers, makeClaim, makeStorageClass, makeVolume } from '../../testing/fakeVolumeListers';
import { makeNode, makePod } from '../../testing/fixtures';
import { CSILimits } from './csiLimits';

const DRIVER = 'ebs.csi.aws.com';
const OTHER = 'pd.csi.storage.gke.io';

const csiNode = (name: string, drivers: { name: string; count?: number }[]): CSINode =>
  ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSINode',
    metadata: { name },
    spec: {
      drivers: drivers.map((d) => ({
        name: d.name,
        nodeID: name,
        ...(d.count !== undefined ? { allocatable: { count: d.count } } : {}),
      })),
    },
  }) as CSINode;

/** Claims claim-<n> bound to csi volumes pv-<n> of `driver` with handle h-<n>. */
function csiClaims(listers: FakeVolumeListers, driver: string, ...ids: string[]): void {
  for (const id of ids)
    listers.add(
      makeVolume(`pv-${id}`, { csi: { driver, volumeHandle: `h-${id}` } }),
      makeClaim(`claim-${id}`, { volumeName: `pv-${id}` }),
    );
}

const claimVolume = (claimName: string): Volume => ({
  name: claimName,
  persistentVolumeClaim: { claimName },
});
const podUsing = (name: string, ...claims: string[]): Pod =>
  makePod(name, { nodeName: 'node-1', volumes: claims.map(claimVolume) });

/** csiNode: the CSINode's count for the driver (null: the driver without a count, undefined: no CSINode). */
function setup(limit: { csiNode?: number | null; allocatable?: number; driver?: string } = {}) {
  const listers = new FakeVolumeListers();
  csiClaims(listers, DRIVER, '1', '2', '3', '4');
  csiClaims(listers, OTHER, 'o1', 'o2');
  listers.add(
    // a GCE PD volume (in-tree, not migrated): no CSI volume
    makeVolume('pv-gce', { gcePersistentDisk: { pdName: 'disk' } }),
    makeClaim('claim-gce', { volumeName: 'pv-gce' }),
    makeStorageClass('csi-class', DRIVER, 'WaitForFirstConsumer'),
    makeClaim('unbound-1', { storageClassName: 'csi-class' }),
    makeClaim('unbound-2', { storageClassName: 'csi-class' }),
    makeClaim('lost-volume', { volumeName: 'pv-gone', storageClassName: 'csi-class' }),
    makeClaim('unbound-no-class'),
  );
  const driver = limit.driver ?? DRIVER;
  if (limit.csiNode !== undefined)
    listers.add(
      csiNode('node-1', [{ name: driver, ...(limit.csiNode === null ? {} : { count: limit.csiNode }) }]),
    );
  const allocatable: Record<string, string> = { cpu: '4', memory: '8Gi', pods: '110' };
  if (limit.allocatable !== undefined)
    allocatable[`attachable-volumes-csi-${driver}`] = String(limit.allocatable);
  const nodeInfo = new NodeInfo(makeNode('node-1', { allocatable }));
  return { plugin: new CSILimits({ volumeListers: listers }), nodeInfo };
}

function filter(
  limit: Parameters<typeof setup>[0],
  existing: string[][],
  claims: string[],
  volumes: Volume[] = [],
) {
  const { plugin, nodeInfo } = setup(limit);
  existing.forEach((c, i) => nodeInfo.addPod(podUsing(`existing-${i}`, ...c)));
  const pod = podUsing('new', ...claims);
  pod.spec!.volumes!.push(...volumes);
  return plugin.filter(new CycleState(), pod, nodeInfo);
}

describe('CSILimits (NodeVolumeLimits)', () => {
  it.each([
    ['within the CSINode limit', { csiNode: 2 }, [['claim-1']], ['claim-2']],
    ['a volume already attached for another pod', { csiNode: 2 }, [['claim-1', 'claim-2']], ['claim-1']],
    ['volumes of another driver', { csiNode: 1 }, [['claim-1']], ['claim-o1', 'claim-o2']],
    ['no limit reported', {}, [['claim-1', 'claim-2', 'claim-3']], ['claim-4']],
    ['a CSINode driver without a count', { csiNode: null }, [['claim-1']], ['claim-2']],
    ['within the node allocatable limit', { allocatable: 2 }, [['claim-1']], ['claim-2']],
    ['in-tree volumes', { csiNode: 1 }, [['claim-1']], ['claim-gce']],
    ['claims not found', { csiNode: 1 }, [['claim-1']], ['missing']],
    ['an unbound claim without a class', { csiNode: 1 }, [['claim-1']], ['unbound-no-class']],
  ])('fits %s', (_name, limit, existing, claims) => {
    expect(filter(limit, existing, claims)).toBeUndefined();
  });

  it('does not count inline CSI volumes', () => {
    const inline: Volume = { name: 'inline', csi: { driver: DRIVER } } as Volume;
    expect(filter({ csiNode: 1 }, [['claim-1']], [], [inline])).toBeUndefined();
  });

  it.each([
    ['over the CSINode limit', { csiNode: 2 }, [['claim-1'], ['claim-2']], ['claim-3']],
    ['new volumes over the limit', { csiNode: 1 }, [], ['claim-1', 'claim-2']],
    ['over the node allocatable limit', { allocatable: 1 }, [['claim-1']], ['claim-2']],
    ['the CSINode count overriding allocatable', { csiNode: 1, allocatable: 5 }, [['claim-1']], ['claim-2']],
    ['an unbound claim of a CSI class', { csiNode: 1 }, [['claim-1']], ['unbound-1']],
    ['two unbound claims', { csiNode: 1 }, [], ['unbound-1', 'unbound-2']],
    ['a claim whose volume is gone, by its class', { csiNode: 1 }, [['claim-1']], ['lost-volume']],
  ])('rejects %s', (_name, limit, existing, claims) => {
    const status = filter(limit, existing, claims);
    expect(status?.code).toBe(Code.Unschedulable);
    expect(status?.reasons).toEqual(['node(s) exceed max volume count']);
  });

  it('fails on a claim volume without a claim name', () => {
    const status = filter({ csiNode: 1 }, [], [''], []);
    expect(status?.code).toBe(Code.Error);
    expect(status?.reasons).toEqual(['PersistentVolumeClaim had no name']);
  });
});

test('PreFilter skips a pod without claims (inline volumes are not counted), and keeps one with a claim', () => {
  const plugin = new CSILimits({ volumeListers: new FakeVolumeListers() });
  const state = new CycleState();
  const inline: Volume = { name: 'i', csi: { driver: 'ebs.csi.aws.com' } };
  expect(plugin.preFilter(state, makePod('inline', { volumes: [inline] }))?.code).toBe(Code.Skip);
  const withClaim = makePod('claims', {
    volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'd' } }],
  });
  expect(plugin.preFilter(state, withClaim)).toBeUndefined();
});
