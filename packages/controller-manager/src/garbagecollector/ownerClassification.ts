/** What the garbage collector found about one owner reference. */
export type OwnerState = 'solid' | 'dangling' | 'waitingForDependentsDeletion';

/** The deletion an object without a solid owner gets, or what to do instead. */
export type GCDecision =
  | { action: 'keep' }
  | { action: 'removeOwnerRefs'; uids: string[] }
  | { action: 'delete'; propagationPolicy: 'Orphan' | 'Foreground' | 'Background' };

export interface OwnerLookup {
  uid: string;
  state: OwnerState;
}

/**
 * Kubernetes' attemptToDeleteItem decision: an object with a solid owner is kept, dropping its
 * references to dangling owners and owners waiting for their dependents; otherwise it is deleted —
 * in the foreground when an owner waits for dependents and the object has dependents itself,
 * else with the propagation its own finalizers ask for.
 */
export function decideDependent(
  owners: readonly OwnerLookup[],
  finalizers: readonly string[],
  hasDependents: boolean,
): GCDecision {
  if (owners.length === 0) return { action: 'keep' };
  const solid = owners.filter((o) => o.state === 'solid');
  const others = owners.filter((o) => o.state !== 'solid').map((o) => o.uid);
  if (solid.length > 0)
    return others.length > 0 ? { action: 'removeOwnerRefs', uids: others } : { action: 'keep' };
  const waiting = owners.some((o) => o.state === 'waitingForDependentsDeletion');
  if (waiting && hasDependents) return { action: 'delete', propagationPolicy: 'Foreground' };
  if (finalizers.includes('orphan')) return { action: 'delete', propagationPolicy: 'Orphan' };
  if (finalizers.includes('foregroundDeletion')) return { action: 'delete', propagationPolicy: 'Foreground' };
  return { action: 'delete', propagationPolicy: 'Background' };
}
