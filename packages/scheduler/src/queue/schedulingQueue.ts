import type { Pod } from '@orch/api';
import type { QueuedPodInfo } from '../framework/interfaces';
import { podKey } from '../framework/nodeInfo';
import { Heap } from './heap';
import { PodNominator } from './nominator';
import { affinityTermsMatchPod } from './podAffinityMatch';

/** Kubernetes' podInitialBackoffSeconds and podMaxBackoffSeconds. */
export const DEFAULT_POD_INITIAL_BACKOFF_MS = 1_000;
export const DEFAULT_POD_MAX_BACKOFF_MS = 10_000;
/** How long a pod may stay unschedulable before it is retried anyway. */
export const UNSCHEDULABLE_Q_TIME_INTERVAL_MS = 60_000;
const BACKOFF_FLUSH_INTERVAL_MS = 1_000;
const UNSCHEDULABLE_FLUSH_INTERVAL_MS = 30_000;

/** Cluster changes that may make unschedulable pods schedulable. */
export type ClusterEvent =
  | 'NodeAdd'
  | 'NodeSpecUnschedulableChange'
  | 'NodeAllocatableChange'
  | 'NodeLabelChange'
  | 'NodeTaintChange'
  | 'NodeConditionChange'
  | 'AssignedPodAdd'
  | 'AssignedPodUpdate'
  | 'AssignedPodDelete'
  | 'PvAdd'
  | 'PvUpdate'
  | 'PvcAdd'
  | 'PvcUpdate'
  | 'StorageClassAdd'
  | 'CSINodeAdd'
  | 'CSINodeUpdate'
  | 'ServiceAdd'
  | 'ServiceUpdate'
  | 'ServiceDelete'
  | 'UnschedulableTimeout'
  | 'ForceActivate';

export interface SchedulingQueueOptions {
  /** The QueueSort plugin's order. */
  less: (a: QueuedPodInfo, b: QueuedPodInfo) => boolean;
  podInitialBackoffMs?: number;
  podMaxBackoffMs?: number;
  unschedulableTimeoutMs?: number;
  now?: () => number;
  /** Called with each event that moved pods (for logs). */
  onMove?: (event: ClusterEvent, moved: number) => void;
}

export interface PendingPods {
  active: number;
  backoff: number;
  unschedulable: number;
}

/** Whether an update changed anything but the resource version, generation and status. */
function podChanged(oldPod: Pod, newPod: Pod): boolean {
  const strip = (p: Pod): string => {
    const { resourceVersion: _rv, generation: _g, managedFields: _m, ...meta } = p.metadata ?? {};
    return JSON.stringify([meta, p.spec]);
  };
  return strip(oldPod) !== strip(newPod);
}

/**
 * Kubernetes' PriorityQueue: an active heap in QueueSort order, a backoff heap ordered by backoff
 * expiry, and the unschedulable pods, which cluster events move back to the active or backoff queue.
 */
export class SchedulingQueue {
  readonly nominator = new PodNominator();
  private readonly activeQ: Heap<QueuedPodInfo>;
  private readonly backoffQ: Heap<QueuedPodInfo>;
  private readonly unschedulableQ = new Map<string, QueuedPodInfo>();
  private readonly now: () => number;
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly unschedulableTimeoutMs: number;
  private waiters: ((p: QueuedPodInfo | undefined) => void)[] = [];
  private timers: NodeJS.Timeout[] = [];
  private closed = false;
  /** Incremented on every pop. */
  schedulingCycle = 0;
  /** The cycle of the last move request: pods that failed in an earlier cycle go to backoff, not unschedulable. */
  private moveRequestCycle = -1;

  constructor(private readonly opts: SchedulingQueueOptions) {
    this.now = opts.now ?? Date.now;
    this.initialBackoffMs = opts.podInitialBackoffMs ?? DEFAULT_POD_INITIAL_BACKOFF_MS;
    this.maxBackoffMs = opts.podMaxBackoffMs ?? DEFAULT_POD_MAX_BACKOFF_MS;
    this.unschedulableTimeoutMs = opts.unschedulableTimeoutMs ?? UNSCHEDULABLE_Q_TIME_INTERVAL_MS;
    this.activeQ = new Heap((p) => podKey(p.pod), opts.less);
    this.backoffQ = new Heap(
      (p) => podKey(p.pod),
      (a, b) => this.backoffExpiry(a) < this.backoffExpiry(b),
    );
  }

  /** Starts the periodic flushes of the backoff and unschedulable queues. */
  run(): void {
    if (this.closed || this.timers.length > 0) return;
    this.timers = [
      setInterval(() => this.flushBackoffQCompleted(), BACKOFF_FLUSH_INTERVAL_MS),
      setInterval(() => this.flushUnschedulableQLeftover(), UNSCHEDULABLE_FLUSH_INTERVAL_MS),
    ];
    for (const t of this.timers) t.unref();
  }

  /** Stops the flushes; a pending and every later pop resolves with undefined. */
  close(): void {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w(undefined);
  }

  private newPodInfo(pod: Pod): QueuedPodInfo {
    const now = this.now();
    return { pod, timestamp: now, attempts: 0, initialAttemptTimestamp: now };
  }

  /** Kubernetes' backoff: initial × 2^(attempts-1), capped at the maximum. */
  backoffDuration(pInfo: QueuedPodInfo): number {
    let duration = this.initialBackoffMs;
    for (let i = 1; i < pInfo.attempts; i++) {
      duration *= 2;
      if (duration > this.maxBackoffMs) return this.maxBackoffMs;
    }
    return Math.min(duration, this.maxBackoffMs);
  }

  backoffExpiry(pInfo: QueuedPodInfo): number {
    return pInfo.timestamp + this.backoffDuration(pInfo);
  }

  private isBackingOff(pInfo: QueuedPodInfo): boolean {
    return this.backoffExpiry(pInfo) > this.now();
  }

  private pushActive(pInfo: QueuedPodInfo): void {
    const waiter = this.waiters.shift();
    if (waiter) {
      this.schedulingCycle++;
      pInfo.attempts++;
      waiter(pInfo);
      return;
    }
    this.activeQ.addOrUpdate(pInfo);
  }

  /** A new pending pod: straight to the active queue. */
  add(pod: Pod): void {
    const key = podKey(pod);
    const existing = this.unschedulableQ.get(key) ?? this.backoffQ.get(key);
    this.unschedulableQ.delete(key);
    this.backoffQ.delete(key);
    const pInfo = existing ? { ...existing, pod } : this.newPodInfo(pod);
    if (existing) pInfo.timestamp = this.now();
    this.nominator.add(pod);
    this.pushActive(pInfo);
  }

  /**
   * Puts back a pod that failed in `podSchedulingCycle`: to the backoff queue when a move request
   * came during or after that cycle (the failure may be stale), else among the unschedulable pods.
   */
  addUnschedulableIfNotPresent(pInfo: QueuedPodInfo, podSchedulingCycle: number): void {
    const key = podKey(pInfo.pod);
    if (this.unschedulableQ.has(key) || this.activeQ.has(key) || this.backoffQ.has(key)) return;
    pInfo.timestamp = this.now();
    if (this.moveRequestCycle >= podSchedulingCycle) this.backoffQ.addOrUpdate(pInfo);
    else this.unschedulableQ.set(key, pInfo);
    this.nominator.add(pInfo.pod);
  }

  /** The next pod to schedule; waits while the active queue is empty; undefined once closed. */
  pop(): Promise<QueuedPodInfo | undefined> {
    if (this.closed) return Promise.resolve(undefined);
    const pInfo = this.activeQ.pop();
    if (pInfo) {
      this.schedulingCycle++;
      pInfo.attempts++;
      return Promise.resolve(pInfo);
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** An update of a pending pod. */
  update(oldPod: Pod, newPod: Pod): void {
    const key = podKey(newPod);
    const active = this.activeQ.get(key);
    if (active) {
      this.nominator.update(oldPod, newPod);
      this.activeQ.addOrUpdate({ ...active, pod: newPod });
      return;
    }
    const backingOff = this.backoffQ.get(key);
    if (backingOff) {
      this.nominator.update(oldPod, newPod);
      this.backoffQ.addOrUpdate({ ...backingOff, pod: newPod });
      return;
    }
    const unschedulable = this.unschedulableQ.get(key);
    if (unschedulable) {
      this.nominator.update(oldPod, newPod);
      const pInfo = { ...unschedulable, pod: newPod };
      if (podChanged(oldPod, newPod)) {
        this.unschedulableQ.delete(key);
        if (this.isBackingOff(pInfo)) this.backoffQ.addOrUpdate(pInfo);
        else this.pushActive(pInfo);
      } else this.unschedulableQ.set(key, pInfo);
      return;
    }
    // Not queued (e.g. being scheduled right now): queue the new version.
    this.nominator.add(newPod);
    this.pushActive(this.newPodInfo(newPod));
  }

  delete(pod: Pod): void {
    const key = podKey(pod);
    this.nominator.delete(pod);
    this.activeQ.delete(key);
    this.backoffQ.delete(key);
    this.unschedulableQ.delete(key);
  }

  /** Moves every unschedulable pod to the active queue, or to the backoff queue while it backs off. */
  moveAllToActiveOrBackoffQueue(event: ClusterEvent): void {
    this.movePods([...this.unschedulableQ.values()], event);
  }

  /** A pod was bound: retry the unschedulable pods whose pod affinity it may satisfy. */
  assignedPodAdded(pod: Pod): void {
    this.movePods(this.podsWithMatchingAffinity(pod), 'AssignedPodAdd');
  }

  assignedPodUpdated(pod: Pod): void {
    this.movePods(this.podsWithMatchingAffinity(pod), 'AssignedPodUpdate');
  }

  private podsWithMatchingAffinity(pod: Pod): QueuedPodInfo[] {
    const result: QueuedPodInfo[] = [];
    for (const pInfo of this.unschedulableQ.values())
      if (affinityTermsMatchPod(pInfo.pod, pod)) result.push(pInfo);
    return result;
  }

  private movePods(pods: QueuedPodInfo[], event: ClusterEvent): void {
    for (const pInfo of pods) {
      this.unschedulableQ.delete(podKey(pInfo.pod));
      if (this.isBackingOff(pInfo)) this.backoffQ.addOrUpdate(pInfo);
      else this.pushActive(pInfo);
    }
    this.moveRequestCycle = this.schedulingCycle;
    if (pods.length > 0) this.opts.onMove?.(event, pods.length);
  }

  /** Moves pods whose backoff has expired to the active queue. */
  flushBackoffQCompleted(): void {
    for (;;) {
      const head = this.backoffQ.peek();
      if (!head || this.isBackingOff(head)) return;
      this.backoffQ.pop();
      this.pushActive(head);
    }
  }

  /** Retries pods that have been unschedulable for longer than the timeout (60 s). */
  flushUnschedulableQLeftover(): void {
    const now = this.now();
    const stale = [...this.unschedulableQ.values()].filter(
      (p) => now - p.timestamp > this.unschedulableTimeoutMs,
    );
    if (stale.length > 0) this.movePods(stale, 'UnschedulableTimeout');
  }

  pendingPods(): PendingPods {
    return {
      active: this.activeQ.length,
      backoff: this.backoffQ.length,
      unschedulable: this.unschedulableQ.size,
    };
  }

  /** Every queued pod (for debugging and tests). */
  list(): { active: Pod[]; backoff: Pod[]; unschedulable: Pod[] } {
    return {
      active: this.activeQ.list().map((p) => p.pod),
      backoff: this.backoffQ.list().map((p) => p.pod),
      unschedulable: [...this.unschedulableQ.values()].map((p) => p.pod),
    };
  }
}
