import type { Node } from '@orch/api';
import type { NodeCondition } from './conditionTaints';

export type ZoneState = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption';

/** Nodes with this label do not count in their zone's health (with the NodeDisruptionExclusion gate on). */
export const EXCLUDE_DISRUPTION_LABEL = 'node.kubernetes.io/exclude-disruption';

/** A zone key as people read it. */
export function zoneName(key: string): string {
  return key === '' ? '(no zone)' : key.replace(':\x00:', '/');
}

/** The feature gates that leave nodes out of zone health. */
export interface DisruptionExclusionGates {
  /** The exclude-disruption label counts. */
  nodeDisruptionExclusion: boolean;
  /** Nodes named as masters (`…master`, `…master-xyz`) are left out (deprecated). */
  legacyNodeRoleBehavior: boolean;
}

/** Whether a node name is a master's by the legacy rule: it ends in `master` or `master-` and 3 more characters. */
export function legacyIsMasterNode(name: string): boolean {
  return name.endsWith('master') || (name.length >= 10 && name.slice(0, -3).endsWith('master-'));
}

/**
 * Whether the node is left out of zone health: a master by name with the LegacyNodeRoleBehavior gate
 * on, or labelled exclude-disruption with the NodeDisruptionExclusion gate on.
 */
export function isExcludedFromDisruptionChecks(node: Node, gates: DisruptionExclusionGates): boolean {
  if (gates.legacyNodeRoleBehavior && legacyIsMasterNode(node.metadata?.name ?? '')) return true;
  return gates.nodeDisruptionExclusion && EXCLUDE_DISRUPTION_LABEL in (node.metadata?.labels ?? {});
}

/**
 * A zone's state from its nodes' Ready conditions: FullDisruption when none is ready,
 * PartialDisruption when more than 2 are not ready and they are at least `threshold` of the zone,
 * Normal otherwise. Also returns how many are not ready.
 */
export function computeZoneState(
  ready: readonly (NodeCondition | undefined)[],
  threshold: number,
): { notReady: number; state: ZoneState } {
  let readyNodes = 0;
  let notReady = 0;
  for (const c of ready) {
    if (c?.status === 'True') readyNodes++;
    else notReady++;
  }
  if (readyNodes === 0 && notReady > 0) return { notReady, state: 'FullDisruption' };
  if (notReady > 2 && notReady / (notReady + readyNodes) >= threshold)
    return { notReady, state: 'PartialDisruption' };
  return { notReady, state: 'Normal' };
}

export interface EvictionRates {
  nodeEvictionRate: number;
  secondaryNodeEvictionRate: number;
  largeClusterSizeThreshold: number;
}

/**
 * The rate (nodes per second) at which a zone in `state` with `zoneSize` nodes is tainted or
 * evicted: --node-eviction-rate when Normal (and when fully disrupted while other zones are not);
 * when partially disrupted, --secondary-node-eviction-rate if the zone has more nodes than
 * --large-cluster-size-threshold, else 0.
 */
export function zoneEvictionRate(state: ZoneState, zoneSize: number, rates: EvictionRates): number {
  if (state === 'PartialDisruption')
    return zoneSize > rates.largeClusterSizeThreshold ? rates.secondaryNodeEvictionRate : 0;
  return rates.nodeEvictionRate;
}

/** What a monitoring pass does about disruption (Kubernetes' handleDisruption). */
export interface DisruptionPlan {
  /**
   * 'enterFullDisruption': every zone is fully disrupted (and was not before): every node's
   * NoExecute taints go (or its evictions are cancelled) and every zone's rate is 0.
   * 'exitFullDisruption': some node is ready again after all zones were down: every node's probe
   * and transition timestamps restart now, and each zone gets the rate of its state.
   * 'update': the zones whose state changed get the rate of their new state.
   * 'none': all zones were and are fully disrupted; nothing changes.
   */
  action: 'none' | 'enterFullDisruption' | 'exitFullDisruption' | 'update';
  /** The zone states after the pass. */
  states: Map<string, ZoneState>;
  /** The new rate of each zone whose rate changes. */
  rates: Map<string, number>;
}

/** Plans a pass from the previous zone states and the Ready conditions of each zone's nodes. */
export function planDisruption(
  previous: ReadonlyMap<string, ZoneState>,
  zoneConditions: ReadonlyMap<string, readonly (NodeCondition | undefined)[]>,
  threshold: number,
  rates: EvictionRates,
): DisruptionPlan {
  const newStates = new Map<string, ZoneState>();
  let allAreFullyDisrupted = true;
  for (const [zone, conditions] of zoneConditions) {
    const { state } = computeZoneState(conditions, threshold);
    if (state !== 'FullDisruption') allAreFullyDisrupted = false;
    newStates.set(zone, state);
  }
  // Zones seen before and still there; new ones start in Initial.
  const states = new Map<string, ZoneState>();
  for (const zone of zoneConditions.keys()) states.set(zone, previous.get(zone) ?? 'Initial');
  let allWasFullyDisrupted = true;
  for (const state of states.values()) if (state !== 'FullDisruption') allWasFullyDisrupted = false;

  const ratesOut = new Map<string, number>();
  if (allAreFullyDisrupted && allWasFullyDisrupted) return { action: 'none', states, rates: ratesOut };
  if (allAreFullyDisrupted) {
    for (const zone of states.keys()) {
      states.set(zone, 'FullDisruption');
      ratesOut.set(zone, 0);
    }
    return { action: 'enterFullDisruption', states, rates: ratesOut };
  }
  const size = (zone: string) => zoneConditions.get(zone)?.length ?? 0;
  if (allWasFullyDisrupted) {
    for (const zone of states.keys()) {
      const state = newStates.get(zone)!;
      ratesOut.set(zone, zoneEvictionRate(state, size(zone), rates));
      states.set(zone, state);
    }
    return { action: 'exitFullDisruption', states, rates: ratesOut };
  }
  for (const [zone, state] of states) {
    const next = newStates.get(zone)!;
    if (state === next) continue;
    ratesOut.set(zone, zoneEvictionRate(next, size(zone), rates));
    states.set(zone, next);
  }
  return { action: 'update', states, rates: ratesOut };
}
