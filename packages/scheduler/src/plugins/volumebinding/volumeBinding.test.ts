import {
  ANN_BIND_COMPLETED,
  ANN_SELECTED_NODE,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
  type StorageClass,
} from '@orch/api';
import { CycleState } from '../../framework/cycleState';
import { Framework } from '../../framework/framework';
import type { VolumeListers } from '../../framework/interfaces';
import { NodeInfo } from '../../framework/nodeInfo';
import { Code, type Status } from '../../framework/status';
import { makeNode, makePod } from '../../testing/fixtures';
import { MemoryCluster } from '../../testing/memoryCluster';
import { inTreeRegistry } from '../registry';
import { ERR_REASON_BIND_CONFLICT, ERR_REASON_NODE_CONFLICT } from './volumeBinder';
import { ERR_UNBOUND_IMMEDIATE_PVC, validateVolumeBindingArgs, VolumeBinding } from './volumeBinding';

const WAIT = 'WaitForFirstConsumer';
const HOSTNAME = 'kubernetes.io/hostname';

/** Claims, volumes and classes as informers would hold them; the client's updates land here. */
class VolumeCluster extends MemoryCluster implements VolumeListers {
  readonly claims = new Map<string, PersistentVolumeClaim>();
  readonly pvs = new Map<string, PersistentVolume>();
  readonly classes = new Map<string, StorageClass>();
  private version = 100;
  /** Makes the next volume updates fail with this message. */
  failUpdates: string | undefined;

  stamp<T extends { metadata?: { resourceVersion?: string } }>(obj: T): T {
    return { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++this.version) } };
  }

  putClaim(c: PersistentVolumeClaim): void {
    this.claims.set(`${c.metadata?.namespace}/${c.metadata?.name}`, this.stamp(c));
  }

  putVolume(v: PersistentVolume): void {
    this.pvs.set(v.metadata?.name ?? '', this.stamp(v));
  }

  claim(namespace: string, name: string): PersistentVolumeClaim | undefined {
    return this.claims.get(`${namespace}/${name}`);
  }

  volume(name: string): PersistentVolume | undefined {
    return this.pvs.get(name);
  }

  volumes(): readonly PersistentVolume[] {
    return [...this.pvs.values()];
  }

  storageClass(name: string): StorageClass | undefined {
    return this.classes.get(name);
  }

  csiNode(): undefined {
    return undefined;
  }

  override async updatePersistentVolume(volume: PersistentVolume): Promise<PersistentVolume> {
    await super.updatePersistentVolume(volume);
    if (this.failUpdates) throw new Error(this.failUpdates);
    this.putVolume(volume);
    return this.pvs.get(volume.metadata?.name ?? '')!;
  }

  override async updatePersistentVolumeClaim(claim: PersistentVolumeClaim): Promise<PersistentVolumeClaim> {
    await super.updatePersistentVolumeClaim(claim);
    this.putClaim(claim);
    return this.claim(claim.metadata?.namespace ?? '', claim.metadata?.name ?? '')!;
  }

  /** What the PV controller does once a volume names the claim: binds the claim. */
  completeBinding(claimName: string, volumeName: string): void {
    const c = this.claim('default', claimName)!;
    this.putClaim({
      ...c,
      metadata: { ...c.metadata, annotations: { ...c.metadata?.annotations, [ANN_BIND_COMPLETED]: 'yes' } },
      spec: { ...c.spec, volumeName },
      status: { phase: 'Bound' },
    });
  }
}

function storageClass(name: string, mode: string, extra: Partial<StorageClass> = {}): StorageClass {
  return {
    metadata: { name },
    provisioner: 'example.com/disk',
    volumeBindingMode: mode,
    ...extra,
  } as StorageClass;
}

function pvc(
  name: string,
  className: string,
  extra: { volumeName?: string; annotations?: Record<string, string> } = {},
) {
  return {
    metadata: { name, namespace: 'default', uid: `uid-${name}`, annotations: extra.annotations },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
      storageClassName: className,
      ...(extra.volumeName ? { volumeName: extra.volumeName } : {}),
    },
    status: { phase: 'Pending' },
  } as PersistentVolumeClaim;
}

function boundPvc(name: string, className: string, volumeName: string): PersistentVolumeClaim {
  return pvc(name, className, { volumeName, annotations: { [ANN_BIND_COMPLETED]: 'yes' } });
}

/** A local volume on `node` (none: usable anywhere). */
function pv(name: string, className: string, node?: string, extra: Partial<PersistentVolume['spec']> = {}) {
  return {
    metadata: { name },
    spec: {
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      storageClassName: className,
      local: { path: `/mnt/${name}` },
      ...(node
        ? {
            nodeAffinity: {
              required: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: HOSTNAME, operator: 'In', values: [node] }] },
                ],
              },
            },
          }
        : {}),
      ...extra,
    },
    status: { phase: 'Available' },
  } as PersistentVolume;
}

function podWithClaims(name: string, ...claims: string[]): Pod {
  const pod = makePod(name);
  pod.spec!.volumes = claims.map((c, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName: c } }));
  return pod;
}

interface Setup {
  cluster: VolumeCluster;
  plugin: VolumeBinding;
  nodes: NodeInfo[];
}

function setup(nodeLabels: Record<string, Record<string, string>> = { 'node-a': {}, 'node-b': {} }): Setup {
  const cluster = new VolumeCluster();
  const nodes = Object.entries(nodeLabels).map(([n, labels]) => new NodeInfo(makeNode(n, { labels })));
  const fwk = new Framework({ schedulerName: 'default-scheduler' }, inTreeRegistry(), {
    client: cluster,
    nodeInfos: () => nodes,
    volumeListers: cluster,
  });
  const plugin = new VolumeBinding({ bindTimeoutSeconds: 2 }, fwk, { pollIntervalMs: 5 });
  cluster.classes.set('wait', storageClass('wait', WAIT));
  cluster.classes.set('immediate', storageClass('immediate', 'Immediate'));
  cluster.classes.set(
    'manual',
    storageClass('manual', WAIT, { provisioner: 'kubernetes.io/no-provisioner' }),
  );
  return { cluster, plugin, nodes };
}

function describeStatus(s: Status | undefined): string {
  return s === undefined ? 'Success' : `${s.codeName()}: ${s.message()}`;
}

/** PreFilter, then Filter on every node: the outcome by node name (or the PreFilter's). */
function run(
  plugin: VolumeBinding,
  pod: Pod,
  nodes: NodeInfo[],
  state = new CycleState(),
): Record<string, string> {
  const pre = plugin.preFilter(state, pod);
  if (pre !== undefined) return { preFilter: describeStatus(pre) };
  return Object.fromEntries(nodes.map((n) => [n.name, describeStatus(plugin.filter(state, pod, n))]));
}

describe('VolumeBinding PreFilter and Filter', () => {
  it.each<[string, (c: VolumeCluster) => void, string[], Record<string, string>]>([
    ['a pod without claims', () => {}, [], { preFilter: 'Skip: ' }],
    [
      'a missing claim',
      () => {},
      ['nope'],
      { preFilter: 'UnschedulableAndUnresolvable: persistentvolumeclaim "nope" not found' },
    ],
    [
      'a claim being deleted',
      (c) => {
        const claim = pvc('c', 'wait');
        claim.metadata!.deletionTimestamp = '2024-01-01T00:00:00Z';
        c.putClaim(claim);
      },
      ['c'],
      { preFilter: 'UnschedulableAndUnresolvable: persistentvolumeclaim "c" is being deleted' },
    ],
    [
      'an unbound claim of an Immediate class',
      (c) => c.putClaim(pvc('c', 'immediate')),
      ['c'],
      { preFilter: `UnschedulableAndUnresolvable: ${ERR_UNBOUND_IMMEDIATE_PVC}` },
    ],
    [
      'an unbound claim without a class (Immediate)',
      (c) => c.putClaim(pvc('c', '')),
      ['c'],
      { preFilter: `UnschedulableAndUnresolvable: ${ERR_UNBOUND_IMMEDIATE_PVC}` },
    ],
    [
      'a pre-bound claim of a WaitForFirstConsumer class is the PV controller’s',
      (c) => c.putClaim(pvc('c', 'wait', { volumeName: 'v' })),
      ['c'],
      { preFilter: `UnschedulableAndUnresolvable: ${ERR_UNBOUND_IMMEDIATE_PVC}` },
    ],
    [
      'a bound claim whose volume is local to node-b',
      (c) => {
        c.putClaim(boundPvc('c', 'wait', 'v'));
        c.putVolume(pv('v', 'wait', 'node-b'));
      },
      ['c'],
      { 'node-a': `UnschedulableAndUnresolvable: ${ERR_REASON_NODE_CONFLICT}`, 'node-b': 'Success' },
    ],
    [
      'a bound claim whose volume is gone',
      (c) => c.putClaim(boundPvc('c', 'wait', 'v')),
      ['c'],
      {
        'node-a': 'Error: could not find v1.PersistentVolume "v"',
        'node-b': 'Error: could not find v1.PersistentVolume "v"',
      },
    ],
    [
      'a WaitForFirstConsumer claim and a matching volume on node-b (no provisioner)',
      (c) => {
        c.putClaim(pvc('c', 'manual'));
        c.putVolume(pv('v', 'manual', 'node-b'));
      },
      ['c'],
      { 'node-a': `UnschedulableAndUnresolvable: ${ERR_REASON_BIND_CONFLICT}`, 'node-b': 'Success' },
    ],
    [
      'volumes too small, of another class, mode or access mode, or taken do not match',
      (c) => {
        c.putClaim(pvc('c', 'manual'));
        c.putVolume(pv('small', 'manual', undefined, { capacity: { storage: '500Mi' } }));
        c.putVolume(pv('other-class', 'wait'));
        c.putVolume(pv('block', 'manual', undefined, { volumeMode: 'Block' }));
        c.putVolume(pv('rox', 'manual', undefined, { accessModes: ['ReadOnlyMany'] }));
        c.putVolume(pv('taken', 'manual', undefined, { claimRef: { namespace: 'default', name: 'other' } }));
      },
      ['c'],
      {
        'node-a': `UnschedulableAndUnresolvable: ${ERR_REASON_BIND_CONFLICT}`,
        'node-b': `UnschedulableAndUnresolvable: ${ERR_REASON_BIND_CONFLICT}`,
      },
    ],
    [
      'no volume, but a class that provisions',
      (c) => c.putClaim(pvc('c', 'wait')),
      ['c'],
      { 'node-a': 'Success', 'node-b': 'Success' },
    ],
    [
      'provisioning restricted by allowedTopologies to node-a',
      (c) => {
        c.classes.set(
          'zoned',
          storageClass('zoned', WAIT, {
            allowedTopologies: [{ matchLabelExpressions: [{ key: HOSTNAME, values: ['node-a'] }] }],
          }),
        );
        c.putClaim(pvc('c', 'zoned'));
      },
      ['c'],
      { 'node-a': 'Success', 'node-b': `UnschedulableAndUnresolvable: ${ERR_REASON_BIND_CONFLICT}` },
    ],
    [
      'a claim whose provisioning was started for node-b',
      (c) => c.putClaim(pvc('c', 'wait', { annotations: { [ANN_SELECTED_NODE]: 'node-b' } })),
      ['c'],
      { 'node-a': `UnschedulableAndUnresolvable: ${ERR_REASON_BIND_CONFLICT}`, 'node-b': 'Success' },
    ],
    [
      'a bound claim on node-a and a volume for another claim on node-b only: each node its reason',
      (c) => {
        c.putClaim(boundPvc('bound', 'wait', 'va'));
        c.putVolume(pv('va', 'wait', 'node-a'));
        c.putClaim(pvc('c', 'manual'));
        c.putVolume(pv('vb', 'manual', 'node-b'));
      },
      ['bound', 'c'],
      {
        'node-a': `UnschedulableAndUnresolvable: ${ERR_REASON_BIND_CONFLICT}`,
        'node-b': `UnschedulableAndUnresolvable: ${ERR_REASON_NODE_CONFLICT}`,
      },
    ],
    [
      'two claims and one volume: one volume per claim',
      (c) => {
        c.putClaim(pvc('c1', 'manual'));
        c.putClaim(pvc('c2', 'manual'));
        c.putVolume(pv('v', 'manual'));
      },
      ['c1', 'c2'],
      {
        'node-a': `UnschedulableAndUnresolvable: ${ERR_REASON_BIND_CONFLICT}`,
        'node-b': `UnschedulableAndUnresolvable: ${ERR_REASON_BIND_CONFLICT}`,
      },
    ],
    [
      'a claim of a class that does not exist',
      (c) => {
        const claim = pvc('c', 'missing');
        c.putClaim(claim);
      },
      ['c'],
      { preFilter: `UnschedulableAndUnresolvable: ${ERR_UNBOUND_IMMEDIATE_PVC}` },
    ],
  ])('%s', (_name, prepare, claims, want) => {
    const { cluster, plugin, nodes } = setup({ 'node-a': {}, 'node-b': {} });
    prepare(cluster);
    expect(run(plugin, podWithClaims('p', ...claims), nodes)).toEqual(want);
  });

  it('runs its PreFilter checks when Filter is called without one', () => {
    const { plugin, nodes } = setup();
    const status = plugin.filter(new CycleState(), podWithClaims('p', 'nope'), nodes[0]!);
    expect(status?.code).toBe(Code.UnschedulableAndUnresolvable);
    expect(status?.reasons).toEqual(['persistentvolumeclaim "nope" not found']);
  });

  it('validates bindTimeoutSeconds', () => {
    expect(validateVolumeBindingArgs({ bindTimeoutSeconds: 30 })).toEqual({ bindTimeoutSeconds: 30 });
    expect(() => validateVolumeBindingArgs({ bindTimeoutSeconds: 0 })).toThrow(
      'invalid BindTimeoutSeconds: 0, must be positive integer',
    );
  });
});

describe('VolumeBinding Reserve, Unreserve and PreBind', () => {
  /** Schedules `pod` up to Reserve on `node`; the state for the later points. */
  function reserveOn(s: Setup, pod: Pod, node: string): CycleState {
    const state = new CycleState();
    const outcome = run(s.plugin, pod, s.nodes, state);
    expect(outcome[node]).toBe('Success');
    expect(s.plugin.reserve(state, pod, node)).toBeUndefined();
    return state;
  }

  const onNode = (pod: Pod, node: string): Pod => ({ ...pod, spec: { ...pod.spec!, nodeName: node } });

  it('assumes the chosen volume so that the next pod does not get it; Unreserve gives it back', () => {
    const s = setup();
    s.cluster.putClaim(pvc('c1', 'manual'));
    s.cluster.putClaim(pvc('c2', 'manual'));
    s.cluster.putVolume(pv('v', 'manual', 'node-b'));
    const first = podWithClaims('first', 'c1');
    const state = reserveOn(s, first, 'node-b');
    expect(s.plugin.binder.volumeCache.get('v')?.spec?.claimRef?.name).toBe('c1');
    // the informer's volume is untouched
    expect(s.cluster.volume('v')?.spec?.claimRef).toBeUndefined();
    const second = podWithClaims('second', 'c2');
    expect(run(s.plugin, second, s.nodes)['node-b']).toBe(
      `UnschedulableAndUnresolvable: ${ERR_REASON_BIND_CONFLICT}`,
    );
    s.plugin.unreserve(state, first, 'node-b');
    expect(run(s.plugin, second, s.nodes)['node-b']).toBe('Success');
  });

  it('has nothing to bind for a pod whose claims are all bound', async () => {
    const s = setup();
    s.cluster.putClaim(boundPvc('c', 'wait', 'v'));
    s.cluster.putVolume(pv('v', 'wait'));
    const pod = podWithClaims('p', 'c');
    const state = reserveOn(s, pod, 'node-a');
    expect(await s.plugin.preBind(state, onNode(pod, 'node-a'), 'node-a')).toBeUndefined();
    expect(s.cluster.volumeUpdates).toEqual([]);
  });

  it('binds the volume to the claim through the API and waits until the claim is bound', async () => {
    const s = setup();
    s.cluster.putClaim(pvc('c', 'manual'));
    s.cluster.putVolume(pv('v', 'manual', 'node-b'));
    const pod = podWithClaims('p', 'c');
    const state = reserveOn(s, pod, 'node-b');
    const preBind = s.plugin.preBind(state, onNode(pod, 'node-b'), 'node-b');
    // the PV controller finishes once the volume names the claim
    await new Promise((r) => setTimeout(r, 20));
    const updated = s.cluster.volumeUpdates[0] as PersistentVolume;
    expect(updated.spec?.claimRef).toMatchObject({
      kind: 'PersistentVolumeClaim',
      namespace: 'default',
      name: 'c',
      uid: 'uid-c',
    });
    expect(updated.metadata?.annotations?.['pv.kubernetes.io/bound-by-controller']).toBe('yes');
    s.cluster.completeBinding('c', 'v');
    expect(await preBind).toBeUndefined();
    expect(s.cluster.volumeUpdates).toHaveLength(1);
  });

  it('sets the selected node on a claim to provision and fails when provisioning is given up', async () => {
    const s = setup();
    s.cluster.putClaim(pvc('c', 'wait'));
    const pod = podWithClaims('p', 'c');
    const state = reserveOn(s, pod, 'node-a');
    expect(s.plugin.binder.claimCache.get('default/c')?.metadata?.annotations?.[ANN_SELECTED_NODE]).toBe(
      'node-a',
    );
    const preBind = s.plugin.preBind(state, onNode(pod, 'node-a'), 'node-a');
    await new Promise((r) => setTimeout(r, 20));
    const updated = s.cluster.volumeUpdates[0] as PersistentVolumeClaim;
    expect(updated.metadata?.annotations?.[ANN_SELECTED_NODE]).toBe('node-a');
    // the provisioner failed: it drops the annotation
    const c = s.cluster.claim('default', 'c')!;
    s.cluster.putClaim({ ...c, metadata: { ...c.metadata, annotations: { other: 'x' } } });
    const status = await preBind;
    expect(status?.code).toBe(Code.Error);
    expect(status?.message()).toBe('binding volumes: provisioning failed for PVC "c"');
  });

  it('fails when the claimRef is reset, when the write fails, and after the bind timeout', async () => {
    const reset = setup();
    reset.cluster.putClaim(pvc('c', 'manual'));
    reset.cluster.putVolume(pv('v', 'manual'));
    const pod = podWithClaims('p', 'c');
    let state = reserveOn(reset, pod, 'node-a');
    let preBind = reset.plugin.preBind(state, onNode(pod, 'node-a'), 'node-a');
    await new Promise((r) => setTimeout(r, 20));
    reset.cluster.putVolume(pv('v', 'manual'));
    expect((await preBind)?.message()).toBe('binding volumes: ClaimRef got reset for pv "v"');

    const failing = setup();
    failing.cluster.putClaim(pvc('c', 'manual'));
    failing.cluster.putVolume(pv('v', 'manual'));
    state = reserveOn(failing, pod, 'node-a');
    failing.cluster.failUpdates = 'conflict';
    expect((await failing.plugin.preBind(state, onNode(pod, 'node-a'), 'node-a'))?.message()).toBe(
      'conflict',
    );
    // what was not written is no longer assumed
    expect(failing.plugin.binder.volumeCache.isAssumed('v')).toBe(false);

    const slow = setup();
    slow.cluster.putClaim(pvc('c', 'manual'));
    slow.cluster.putVolume(pv('v', 'manual'));
    state = reserveOn(slow, pod, 'node-a');
    preBind = slow.plugin.preBind(state, onNode(pod, 'node-a'), 'node-a');
    expect((await preBind)?.message()).toBe('binding volumes: timed out waiting for the condition');
  });
});
