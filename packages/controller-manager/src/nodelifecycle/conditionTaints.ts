import {
  formatTime,
  TAINT_NODE_DISK_PRESSURE,
  TAINT_NODE_MEMORY_PRESSURE,
  TAINT_NODE_NETWORK_UNAVAILABLE,
  TAINT_NODE_NOT_READY,
  TAINT_NODE_PID_PRESSURE,
  TAINT_NODE_UNREACHABLE,
  TAINT_NODE_UNSCHEDULABLE,
  type Node,
  type Taint,
} from '@orch/api';

export type NodeCondition = NonNullable<NonNullable<Node['status']>['conditions']>[number];

/** The NoExecute taint of a node whose Ready condition is Unknown. */
export const UNREACHABLE_TAINT_TEMPLATE: Readonly<Taint> = {
  key: TAINT_NODE_UNREACHABLE,
  effect: 'NoExecute',
};
/** The NoExecute taint of a node whose Ready condition is False. */
export const NOT_READY_TAINT_TEMPLATE: Readonly<Taint> = { key: TAINT_NODE_NOT_READY, effect: 'NoExecute' };

/** For each condition type, the taint key each of its statuses maps to (Kubernetes' nodeConditionToTaintKeyStatusMap). */
export const CONDITION_TAINT_KEYS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Ready: { False: TAINT_NODE_NOT_READY, Unknown: TAINT_NODE_UNREACHABLE },
  MemoryPressure: { True: TAINT_NODE_MEMORY_PRESSURE },
  DiskPressure: { True: TAINT_NODE_DISK_PRESSURE },
  NetworkUnavailable: { True: TAINT_NODE_NETWORK_UNAVAILABLE },
  PIDPressure: { True: TAINT_NODE_PID_PRESSURE },
};

const CONDITION_TAINT_KEY_SET = new Set(Object.values(CONDITION_TAINT_KEYS).flatMap((m) => Object.values(m)));

/** The node's condition of `type`, if it has one. */
export function nodeCondition(node: Node | undefined, type: string): NodeCondition | undefined {
  return node?.status?.conditions?.find((c) => c.type === type);
}

/** Whether a taint with the template's key and effect is among `taints`. */
export function taintExists(taints: readonly Taint[] | undefined, template: Readonly<Taint>): boolean {
  return (taints ?? []).some((t) => t.key === template.key && t.effect === template.effect);
}

/**
 * The NoSchedule taints the node's conditions and spec.unschedulable call for (TaintNodesByCondition):
 * Ready False → not-ready, Ready Unknown → unreachable, a pressure or NetworkUnavailable condition True
 * → its taint, spec.unschedulable → unschedulable.
 */
export function conditionNoScheduleTaints(node: Node): Taint[] {
  const taints: Taint[] = [];
  for (const c of node.status?.conditions ?? []) {
    const key = CONDITION_TAINT_KEYS[c.type ?? '']?.[c.status ?? ''];
    if (key) taints.push({ key, effect: 'NoSchedule' });
  }
  if (node.spec?.unschedulable) taints.push({ key: TAINT_NODE_UNSCHEDULABLE, effect: 'NoSchedule' });
  return taints;
}

/**
 * The NoSchedule taints to add and to remove so that the node's condition taints are the ones its
 * conditions call for; other taints are not this controller's.
 */
export function noScheduleTaintDiff(node: Node): { add: Taint[]; remove: Taint[] } {
  const wanted = conditionNoScheduleTaints(node);
  const current = (node.spec?.taints ?? []).filter(
    (t) =>
      t.effect === 'NoSchedule' &&
      (t.key === TAINT_NODE_UNSCHEDULABLE || CONDITION_TAINT_KEY_SET.has(t.key ?? '')),
  );
  return {
    add: wanted.filter((w) => !taintExists(current, w)),
    remove: current.filter((c) => !taintExists(wanted, c)),
  };
}

/**
 * The node's taints with `remove` taken off (matched by key and effect) and `add` put on with
 * timeAdded `now` (one already there with the same value is kept as it is); undefined when nothing
 * changes.
 */
export function swapTaints(
  taints: readonly Taint[] | undefined,
  add: readonly Taint[],
  remove: readonly Taint[],
  now: number,
): Taint[] | undefined {
  let changed = false;
  const out: Taint[] = [];
  for (const t of taints ?? []) {
    if (taintExists(remove, t) && !taintExists(add, t)) {
      changed = true;
      continue;
    }
    const replacement = add.find((a) => a.key === t.key && a.effect === t.effect);
    if (replacement && (replacement.value ?? '') !== (t.value ?? '')) {
      out.push({ ...replacement, timeAdded: formatTime(now) });
      changed = true;
      continue;
    }
    out.push(t);
  }
  for (const a of add) {
    if (!taintExists(out, a)) {
      out.push({ ...a, timeAdded: formatTime(now) });
      changed = true;
    }
  }
  return changed ? out : undefined;
}
