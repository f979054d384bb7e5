import { formatMicroTime, formatTime, type Node } from '@orch/api';
import type { NodeCondition } from './conditionTaints';
import { observeNodeHealth, type NodeHealth } from './nodeHealth';

const T0 = Date.parse('2024-05-01T10:00:00Z');
const periods = { monitorGracePeriodMs: 40_000, startupGracePeriodMs: 60_000 };

function node(heartbeat: number | undefined, status = 'True', created = T0): Node {
  const conditions: NodeCondition[] = [];
  if (heartbeat !== undefined) {
    for (const type of ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready']) {
      conditions.push({
        type,
        status: type === 'Ready' ? status : 'False',
        reason: 'KubeletReady',
        message: 'kubelet is posting ready status',
        lastHeartbeatTime: formatTime(heartbeat),
        lastTransitionTime: formatTime(T0),
      });
    }
    conditions.push({ type: 'NetworkUnavailable', status: 'False' });
  }
  return {
    metadata: { name: 'n', creationTimestamp: formatTime(created) },
    status: { conditions },
  } as Node;
}

/** Observes the node at each time in turn, keeping the health as the controller does. */
function watch(steps: { at: number; node: Node; lease?: string }[]) {
  let health: NodeHealth | undefined;
  return steps.map(({ at, node: n, lease }) => {
    const o = observeNodeHealth(health, n, lease, at, periods);
    health = o.statusUpdate ? o.healthAfterUpdate : o.health;
    return o;
  });
}

describe('observeNodeHealth', () => {
  test('a node heartbeating stays as it is', () => {
    const obs = watch([
      { at: T0, node: node(T0) },
      { at: T0 + 30_000, node: node(T0 + 30_000) },
      { at: T0 + 60_000, node: node(T0 + 60_000) },
      { at: T0 + 95_000, node: node(T0 + 90_000) },
    ]);
    expect(obs.map((o) => o.statusUpdate)).toEqual([undefined, undefined, undefined, undefined]);
    expect(obs[3]!.health.probeTimestamp).toBe(T0 + 95_000);
  });

  test('silent for the grace period, on the controller clock: Unknown, heartbeat kept', () => {
    const silent = node(T0);
    const [first, within, after] = watch([
      { at: T0, node: silent },
      { at: T0 + 40_000, node: silent },
      { at: T0 + 40_001, node: silent },
    ]);
    expect(first!.statusUpdate).toBeUndefined();
    expect(within!.statusUpdate).toBeUndefined();
    expect(after!.observedReady.status).toBe('True');
    expect(after!.currentReady).toEqual({
      type: 'Ready',
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
      lastHeartbeatTime: formatTime(T0),
      lastTransitionTime: formatTime(T0 + 40_001),
    });
    const byType = Object.fromEntries(after!.statusUpdate!.conditions!.map((c) => [c.type, c]));
    for (const type of ['MemoryPressure', 'DiskPressure', 'PIDPressure']) {
      expect(byType[type]).toMatchObject({
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
        lastHeartbeatTime: formatTime(T0),
        lastTransitionTime: formatTime(T0 + 40_001),
      });
    }
    // NetworkUnavailable is the control plane's.
    expect(byType.NetworkUnavailable).toEqual({ type: 'NetworkUnavailable', status: 'False' });
    expect(after!.healthAfterUpdate).toMatchObject({
      probeTimestamp: T0,
      readyTransitionTimestamp: T0 + 40_001,
    });
  });

  test('already Unknown: nothing more to write', () => {
    const unknown = node(T0, 'Unknown');
    const [, later] = watch([
      { at: T0, node: unknown },
      { at: T0 + 100_000, node: unknown },
    ]);
    expect(later!.statusUpdate).toBeUndefined();
    expect(later!.currentReady?.status).toBe('Unknown');
  });

  test('a renewed Lease alone keeps a node healthy; a Lease not renewed does not', () => {
    const silent = node(T0);
    const renewing = watch([
      { at: T0, node: silent, lease: formatMicroTime(T0) },
      { at: T0 + 30_000, node: silent, lease: formatMicroTime(T0 + 30_000) },
      { at: T0 + 60_000, node: silent, lease: formatMicroTime(T0 + 60_000) },
      { at: T0 + 90_000, node: silent, lease: formatMicroTime(T0 + 90_000) },
    ]);
    expect(renewing.every((o) => o.statusUpdate === undefined)).toBe(true);
    const stale = watch([
      { at: T0, node: silent, lease: formatMicroTime(T0) },
      { at: T0 + 30_000, node: silent, lease: formatMicroTime(T0 + 30_000) },
      { at: T0 + 71_000, node: silent, lease: formatMicroTime(T0 + 30_000) },
    ]);
    expect(stale[2]!.statusUpdate).toBeDefined();
  });

  test('a node that never posted status gets the startup grace period from its creation', () => {
    const fresh = node(undefined, 'True', T0);
    const [within, after] = watch([
      { at: T0 + 59_000, node: fresh },
      { at: T0 + 60_001, node: fresh },
    ]);
    expect(within!.gracePeriodMs).toBe(60_000);
    expect(within!.statusUpdate).toBeUndefined();
    expect(within!.observedReady).toMatchObject({ type: 'Ready', status: 'Unknown' });
    expect(
      after!.statusUpdate!.conditions!.map((c) => [c.type, c.status, c.reason, c.lastHeartbeatTime]),
    ).toEqual([
      ['Ready', 'Unknown', 'NodeStatusNeverUpdated', formatTime(T0)],
      ['MemoryPressure', 'Unknown', 'NodeStatusNeverUpdated', formatTime(T0)],
      ['DiskPressure', 'Unknown', 'NodeStatusNeverUpdated', formatTime(T0)],
      ['PIDPressure', 'Unknown', 'NodeStatusNeverUpdated', formatTime(T0)],
    ]);
    expect(after!.statusUpdate!.conditions![0]!.message).toBe('Kubelet never posted node status.');
  });

  test('a Ready transition moves the transition timestamp; a heartbeat alone does not', () => {
    const obs = watch([
      { at: T0, node: node(T0) },
      { at: T0 + 10_000, node: node(T0 + 10_000) },
      {
        at: T0 + 20_000,
        node: (() => {
          const n = node(T0 + 20_000, 'False');
          n.status!.conditions!.find((c) => c.type === 'Ready')!.lastTransitionTime = formatTime(T0 + 20_000);
          return n;
        })(),
      },
    ]);
    expect(obs[1]!.health.readyTransitionTimestamp).toBe(T0);
    expect(obs[2]!.health.readyTransitionTimestamp).toBe(T0 + 20_000);
    expect(obs[2]!.observedReady.status).toBe('False');
    expect(obs[2]!.statusUpdate).toBeUndefined();
  });

  test('a node first seen by a restarted controller counts from now, not from its old heartbeat', () => {
    const old = node(T0);
    const [first] = watch([{ at: T0 + 300_000, node: old }]);
    expect(first!.statusUpdate).toBeUndefined();
    expect(first!.health.probeTimestamp).toBe(T0 + 300_000);
  });
});
