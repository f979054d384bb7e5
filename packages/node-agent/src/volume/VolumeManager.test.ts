import type { Node, PersistentVolume, PersistentVolumeClaim, Pod } from '@orch/api';
import { StatusError } from '@orch/client';
import { Logger, MemoryEventRecorder } from '@orch/component-base';
import { FakeClock } from '../scheduling/Clock';
import { POD_ATTACH_AND_MOUNT_TIMEOUT_MS } from './podVolumes';
import { VolumeManager, type VolumeWait } from './VolumeManager';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const DATA = 'kubernetes.io/csi/disk.example.com^h-data';

function podWith(name: string, volumes: NonNullable<Pod['spec']>['volumes'], phase?: string): Pod {
  return {
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: { nodeName: 'n1', containers: [{ name: 'app', image: 'nginx' }], volumes },
    ...(phase ? { status: { phase } } : {}),
  } as Pod;
}

const claimPod = (name: string, claimName = 'data', phase?: string) =>
  podWith(name, [{ name: 'vol', persistentVolumeClaim: { claimName } }], phase);

function setup() {
  const clock = new FakeClock(T0);
  const claims = new Map<string, PersistentVolumeClaim>();
  const volumes = new Map<string, PersistentVolume>();
  const nodes = new Map<string, Node>([['n1', { metadata: { name: 'n1' }, status: {} } as Node]]);
  const woken: string[] = [];
  const inUseChanges: string[] = [];
  const claimWrites: PersistentVolumeClaim[] = [];
  const recorder = new MemoryEventRecorder();
  let cachesCreated = 0;
  let changed = () => {};
  const vm = new VolumeManager({
    caches: (onChange) => {
      cachesCreated++;
      changed = onChange;
      return {
        claim: (ns, name) => claims.get(`${ns}/${name}`),
        volume: (name) => volumes.get(name),
        synced: () => true,
      };
    },
    nodeClient: {
      get: async (name: string) =>
        nodes.get(name) ?? Promise.reject(new StatusError({ code: 404, reason: 'NotFound', message: 'x' })),
    },
    claimClient: {
      updateStatus: async (c: PersistentVolumeClaim) => {
        claimWrites.push(c);
        claims.set(`${c.metadata?.namespace}/${c.metadata?.name}`, c);
        return c;
      },
    },
    queue: { now: (key) => woken.push(key), schedule: (key) => woken.push(key) },
    clock,
    isAgentNode: (name) => name === 'n1',
    inUseChanged: (name) => inUseChanges.push(name),
    logger: new Logger({}, { stderr: { write: () => true } }),
    recorderFor: () => recorder,
  });
  const bind = (capacity = '1Gi', pvCapacity = capacity) => {
    claims.set('default/data', {
      metadata: { name: 'data', namespace: 'default' },
      spec: { volumeName: 'pv-data' },
      status: { phase: 'Bound', capacity: { storage: capacity } },
    } as PersistentVolumeClaim);
    volumes.set('pv-data', {
      metadata: { name: 'pv-data' },
      spec: {
        capacity: { storage: pvCapacity },
        csi: { driver: 'disk.example.com', volumeHandle: 'h-data' },
      },
    } as PersistentVolume);
    changed();
  };
  const nodeStatus = (status: Node['status']) =>
    nodes.set('n1', { metadata: { name: 'n1' }, status } as Node);
  const settle = () => new Promise((r) => setImmediate(r));
  return {
    vm,
    clock,
    claims,
    woken,
    inUseChanges,
    claimWrites,
    recorder,
    bind,
    nodeStatus,
    settle,
    cachesCreated: () => cachesCreated,
  };
}

test('a pod without claims starts at once and needs no claim caches', async () => {
  const t = setup();
  const pod = podWith('plain', [{ name: 'tmp', emptyDir: {} }]);
  t.vm.onPod(pod);
  expect(await t.vm.waitForAttachAndMount(pod)).toEqual({ ready: true });
  expect(t.cachesCreated()).toBe(0);
  expect(t.vm.volumesInUse('n1')).toEqual([]);
});

test('a pod with a CSI claim waits until its volume is attached and reported in use, with FailedMount after the timeout', async () => {
  const t = setup();
  const pod = claimPod('web');
  t.vm.onPod(pod);
  expect(t.cachesCreated()).toBe(1);
  // the claim is not bound yet: nothing in use, the pod waits
  const first = await t.vm.waitForAttachAndMount(pod);
  expect(first).toEqual({ ready: false, retryAt: T0 + 500 });
  expect(t.vm.volumesInUse('n1')).toEqual([]);

  t.bind();
  await t.settle();
  expect(t.woken).toContain('pod/uid-web');
  expect(t.vm.volumesInUse('n1')).toEqual([DATA]);
  expect(t.inUseChanges).toEqual(['n1']);

  // reported in use but not attached: still waiting
  t.nodeStatus({ volumesInUse: [DATA] });
  t.clock.advance(1000);
  expect((await t.vm.waitForAttachAndMount(pod)).ready).toBe(false);
  expect(t.recorder.events).toEqual([]);

  t.clock.advance(POD_ATTACH_AND_MOUNT_TIMEOUT_MS);
  const timedOut = (await t.vm.waitForAttachAndMount(pod)) as Extract<VolumeWait, { ready: false }>;
  expect(timedOut.ready).toBe(false);
  expect(t.recorder.events).toEqual([
    {
      name: 'web',
      type: 'Warning',
      reason: 'FailedMount',
      message:
        'Unable to attach or mount volumes: unmounted volumes=[vol], unattached volumes=[vol]: timed out waiting for the condition',
    },
  ]);
  // the next wait runs anew
  expect(timedOut.retryAt).toBeLessThanOrEqual(t.clock.now() + POD_ATTACH_AND_MOUNT_TIMEOUT_MS);

  // attached: seen at the next check, after the back-off
  t.nodeStatus({ volumesInUse: [DATA], volumesAttached: [{ name: DATA, devicePath: '' }] });
  expect(await t.vm.waitForAttachAndMount(pod)).toEqual(timedOut);
  t.clock.advance(timedOut.retryAt - t.clock.now());
  expect(await t.vm.waitForAttachAndMount(pod)).toEqual({ ready: true });

  // the pod goes: the volume leaves volumesInUse
  t.vm.onPodDeleted(pod);
  expect(t.vm.volumesInUse('n1')).toEqual([]);
  expect(t.inUseChanges).toEqual(['n1', 'n1']);
});

test('a status the node posts wakes the pods waiting on it before their back-off ends', async () => {
  const t = setup();
  t.bind();
  const pod = claimPod('web');
  t.vm.onPod(pod);
  const waiting = await t.vm.waitForAttachAndMount(pod);
  expect(waiting.ready).toBe(false);
  t.woken.length = 0;
  const node = {
    metadata: { name: 'n1' },
    status: { volumesInUse: [DATA], volumesAttached: [{ name: DATA, devicePath: '' }] },
  } as Node;
  t.vm.nodeStatusPosted(node);
  expect(t.woken).toEqual(['pod/uid-web']);
  expect(await t.vm.waitForAttachAndMount(pod)).toEqual({ ready: true });
});

test('a finished pod no longer holds its volume in use; pods of other nodes are ignored', () => {
  const t = setup();
  t.bind();
  t.vm.onPod(claimPod('a'));
  t.vm.onPod(claimPod('b'));
  expect(t.vm.volumesInUse('n1')).toEqual([DATA]);
  t.vm.onPod(claimPod('a', 'data', 'Succeeded'));
  expect(t.vm.volumesInUse('n1')).toEqual([DATA]);
  t.vm.onPod(claimPod('b', 'data', 'Failed'));
  expect(t.vm.volumesInUse('n1')).toEqual([]);
  const elsewhere = { ...claimPod('c'), spec: { ...claimPod('c').spec, nodeName: 'other' } } as Pod;
  t.vm.onPod(elsewhere);
  expect(t.vm.volumesInUse('other')).toEqual([]);
});

test('a claim whose volume grew has its file system grown once a pod mounted it: capacity, conditions, events', async () => {
  const t = setup();
  t.bind('1Gi', '1Gi');
  t.nodeStatus({ volumesInUse: [DATA], volumesAttached: [{ name: DATA, devicePath: '' }] });
  const pod = claimPod('db');
  t.vm.onPod(pod);
  expect(await t.vm.waitForAttachAndMount(pod)).toEqual({ ready: true });
  await t.vm.handle('default/data');
  expect(t.claimWrites).toEqual([]);

  // the expand controller grew the volume and left the claim to the node
  t.bind('1Gi', '2Gi');
  t.claims.set('default/data', {
    ...t.claims.get('default/data')!,
    status: {
      phase: 'Bound',
      capacity: { storage: '1Gi' },
      conditions: [
        { type: 'Custom', status: 'True' },
        { type: 'FileSystemResizePending', status: 'True', message: 'Waiting for user to (re-)start a pod' },
      ],
    },
  } as PersistentVolumeClaim);
  t.woken.length = 0;
  await t.settle();
  expect(t.woken).toEqual(['volume/default/data']);
  await t.vm.handle('default/data');
  expect(t.claimWrites.map((c) => c.status)).toEqual([
    { phase: 'Bound', capacity: { storage: '2Gi' }, conditions: [{ type: 'Custom', status: 'True' }] },
  ]);
  const message = 'MountVolume.NodeExpandVolume succeeded for volume "pv-data"';
  expect(t.recorder.events).toEqual([
    { name: 'db', type: 'Normal', reason: 'FileSystemResizeSuccessful', message },
    { name: 'data', type: 'Normal', reason: 'FileSystemResizeSuccessful', message },
  ]);
  // done: nothing more to write
  await t.vm.handle('default/data');
  expect(t.claimWrites).toHaveLength(1);
});

test('a claim no mounted pod uses is left alone', async () => {
  const t = setup();
  t.bind('1Gi', '2Gi');
  t.vm.onPod(claimPod('waiting'));
  await t.vm.handle('default/data');
  expect(t.claimWrites).toEqual([]);
});
