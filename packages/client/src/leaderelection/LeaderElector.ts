import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { isNotFound } from '../rest/StatusError';
import { sleep } from '../util/sleep';
import { formatTime } from '../util/metaTime';
import type { LeaderElectionRecord } from './LeaderElectionRecord';
import type { LockState, ResourceLock } from './ResourceLock';

/** client-go's jitter factor of the acquire loop; renewDeadline must exceed retryPeriod times it. */
export const JITTER_FACTOR = 1.2;

export interface LeaderCallbacks {
  /** Called on gaining leadership; `signal` aborts when leadership ends. */
  onStartedLeading(signal: AbortSignal): void | Promise<void>;
  /** Called once leadership ends (lost, released or the elector stopped). */
  onStoppedLeading(): void;
  /** Called when the observed holder changes (including to this candidate). */
  onNewLeader?(identity: string): void;
}

export interface LeaderElectionConfig {
  lock: ResourceLock;
  /** How long others wait after observing a change of the record before taking over. */
  leaseDurationMs: number;
  /** How long the leader keeps retrying to renew before giving up. */
  renewDeadlineMs: number;
  /** Wait between attempts. */
  retryPeriodMs: number;
  callbacks: LeaderCallbacks;
  /** Release the lock (empty holder, leaseDurationSeconds 1) when stopped while leading. */
  releaseOnCancel?: boolean;
  /** Name used in logs. */
  name?: string;
  /** Clock, for tests. */
  now?: () => number;
  /** Receives errors of lock reads and writes (they are retried). */
  onError?: (err: unknown) => void;
}

/** `<hostname>_<uuid>`: a unique candidate identity. */
export function defaultIdentity(): string {
  return `${hostname()}_${randomUUID()}`;
}

/** Checks the timing rules client-go enforces. */
export function validateLeaderElectionConfig(c: LeaderElectionConfig): void {
  if (c.leaseDurationMs <= c.renewDeadlineMs) {
    throw new Error('leaseDuration must be greater than renewDeadline');
  }
  if (c.renewDeadlineMs <= JITTER_FACTOR * c.retryPeriodMs) {
    throw new Error(`renewDeadline must be greater than retryPeriod*JitterFactor`);
  }
  if (c.leaseDurationMs < 1 || c.renewDeadlineMs < 1 || c.retryPeriodMs < 1) {
    throw new Error('leaseDuration, renewDeadline and retryPeriod must be greater than zero');
  }
  if (!c.lock.identity()) {
    throw new Error('Lock identity is empty');
  }
}

/**
 * client-go's leader election. A candidate acquires the lock when it is free or when the record has
 * not changed for leaseDuration as observed on the local clock (the remote times are never
 * compared), renews every retryPeriod while leading, and stops leading when it could not renew for
 * renewDeadline, which is shorter than leaseDuration, so it stops before anyone else may take over.
 * Every write goes through the lock's optimistic concurrency.
 */
export class LeaderElector {
  private observed: LockState | undefined;
  private observedTime = 0;
  private reportedLeader = '';
  /** Start of the last successful attempt: the write committed after it. */
  private renewedAt = 0;
  private readonly now: () => number;

  constructor(readonly config: LeaderElectionConfig) {
    validateLeaderElectionConfig(config);
    this.now = config.now ?? Date.now;
  }

  /** True while the last observed record names this candidate. */
  isLeader(): boolean {
    return this.observed?.record.holderIdentity === this.config.lock.identity();
  }

  /** The last observed holder. */
  getLeader(): string {
    return this.observed?.record.holderIdentity ?? '';
  }

  /**
   * client-go's health check of an elector: throws when this candidate believes it leads but has not
   * seen its record change for leaseDuration plus `maxTolerableExpiredLeaseMs` (its renewals are
   * stuck). Shape it as a health check with `{ name: 'leaderElection', check: () => elector.check(20_000) }`.
   */
  check(maxTolerableExpiredLeaseMs: number): void {
    if (!this.isLeader()) {
      return;
    }
    if (this.now() > this.observedTime + this.config.leaseDurationMs + maxTolerableExpiredLeaseMs) {
      throw new Error(`failed election to renew leadership on lease ${this.config.lock.describe()}`);
    }
  }

  /**
   * Campaigns until leading, leads until renewal fails or `signal` aborts, then resolves (after
   * releasing when configured). Leadership is not retried: a daemon exits when run() resolves.
   */
  async run(signal: AbortSignal): Promise<void> {
    if (!(await this.acquire(signal))) {
      return;
    }
    const leading = new AbortController();
    const onAbort = (): void => leading.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      void Promise.resolve()
        .then(() => this.config.callbacks.onStartedLeading(leading.signal))
        .catch((err: unknown) => this.config.onError?.(err));
      await this.renew(leading);
    } finally {
      signal.removeEventListener('abort', onAbort);
      leading.abort();
      this.config.callbacks.onStoppedLeading();
      if (this.config.releaseOnCancel && signal.aborted) {
        await this.release();
      }
    }
  }

  private jittered(): number {
    return this.config.retryPeriodMs * (1 + Math.random() * JITTER_FACTOR);
  }

  /** Tries every retryPeriod (jittered) until the lock is ours; false when aborted first. */
  private async acquire(signal: AbortSignal): Promise<boolean> {
    while (!signal.aborted) {
      if (await this.tryAcquireOrRenew(signal)) {
        return true;
      }
      await sleep(this.jittered(), signal).catch(() => undefined);
    }
    return false;
  }

  /**
   * Renews every retryPeriod until a renewal did not succeed within renewDeadline of the last one, or
   * leadership is aborted. A timer armed for that deadline aborts `leading` on its own, so the leader
   * stops acting on time even while an attempt is still in flight.
   */
  private async renew(leading: AbortController): Promise<void> {
    const signal = leading.signal;
    let deadline: NodeJS.Timeout | undefined;
    const arm = (): void => {
      clearTimeout(deadline);
      const left = this.renewedAt + this.config.renewDeadlineMs - this.now();
      deadline = setTimeout(() => leading.abort(), Math.max(0, left));
    };
    arm();
    try {
      while (!signal.aborted) {
        const lastRenew = this.renewedAt;
        await sleep(this.config.retryPeriodMs, signal).catch(() => undefined);
        let renewed = false;
        while (!signal.aborted) {
          const left = lastRenew + this.config.renewDeadlineMs - this.now();
          if (left <= 0) {
            break;
          }
          const attempt = AbortSignal.any([signal, AbortSignal.timeout(left)]);
          if (await this.tryAcquireOrRenew(attempt)) {
            renewed = true;
            break;
          }
          const wait = Math.min(
            this.config.retryPeriodMs,
            lastRenew + this.config.renewDeadlineMs - this.now(),
          );
          if (wait <= 0) {
            break;
          }
          await sleep(wait, signal).catch(() => undefined);
        }
        if (!renewed || signal.aborted) {
          return;
        }
        arm();
      }
    } finally {
      clearTimeout(deadline);
    }
  }

  /** One attempt: create the lock, take over an expired one, or renew our own. */
  async tryAcquireOrRenew(signal?: AbortSignal): Promise<boolean> {
    const lock = this.config.lock;
    const now = this.now();
    const record: LeaderElectionRecord = {
      holderIdentity: lock.identity(),
      leaseDurationSeconds: Math.ceil(this.config.leaseDurationMs / 1000),
      acquireTime: formatTime(new Date(now)),
      renewTime: formatTime(new Date(now)),
      leaderTransitions: 0,
    };
    let old: LockState;
    try {
      old = await lock.get(signal);
    } catch (err) {
      if (!isNotFound(err)) {
        this.config.onError?.(err);
        return false;
      }
      try {
        await lock.create(record, signal);
      } catch (createErr) {
        this.config.onError?.(createErr);
        return false;
      }
      this.observe({ record, raw: JSON.stringify(record) }, this.now());
      this.renewedAt = now;
      return true;
    }

    if (!this.observed || this.observed.raw !== old.raw) {
      this.observe(old, this.now());
    }
    const held = old.record.holderIdentity !== '';
    if (held && this.observedTime + this.config.leaseDurationMs > now && !this.isLeader()) {
      return false;
    }

    if (this.isLeader()) {
      record.acquireTime = old.record.acquireTime;
      record.leaderTransitions = old.record.leaderTransitions;
    } else {
      record.leaderTransitions = old.record.leaderTransitions + 1;
    }
    try {
      await lock.update(record, signal);
    } catch (err) {
      this.config.onError?.(err);
      return false;
    }
    this.observe({ record, raw: JSON.stringify(record) }, this.now());
    this.renewedAt = now;
    return true;
  }

  /** Gives the lock up: an empty holder with a one-second lease, keeping the transition count. */
  async release(): Promise<boolean> {
    if (!this.isLeader() || !this.observed) {
      return false;
    }
    const now = formatTime(new Date(this.now()));
    const record: LeaderElectionRecord = {
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: now,
      renewTime: now,
      leaderTransitions: this.observed.record.leaderTransitions,
    };
    try {
      await this.config.lock.update(record, AbortSignal.timeout(this.config.renewDeadlineMs));
    } catch (err) {
      this.config.onError?.(err);
      return false;
    }
    this.observe({ record, raw: JSON.stringify(record) }, this.now());
    return true;
  }

  private observe(state: LockState, at: number): void {
    this.observed = state;
    this.observedTime = at;
    const holder = state.record.holderIdentity;
    if (holder !== this.reportedLeader) {
      this.reportedLeader = holder;
      if (holder) {
        this.config.callbacks.onNewLeader?.(holder);
      }
    }
  }
}
