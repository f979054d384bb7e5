import { StatusError } from '../rest/StatusError';
import type { LeaderElectionRecord } from './LeaderElectionRecord';
import { UNKNOWN_LEADER } from './LeaderElectionRecord';
import { LeaderElector, validateLeaderElectionConfig, type LeaderElectionConfig } from './LeaderElector';
import { MultiLock } from './MultiLock';
import type { LockState, ResourceLock } from './ResourceLock';

/** One stored record with a resource version, shared by the candidates' locks. */
class Store {
  record: LeaderElectionRecord | undefined;
  rv = 0;
  failWrites = new Set<string>();
  /**
   * When the stored record last changed (ms since the epoch). A renewal within the same second as the
   * previous one writes the same bytes (times have second precision), which observers cannot see.
   */
  lastChange = 0;
}

const notFound = (): StatusError => new StatusError({ code: 404, reason: 'NotFound', message: 'not found' });
const conflict = (): StatusError => new StatusError({ code: 409, reason: 'Conflict', message: 'conflict' });

/** A lock over a Store with the API server's optimistic concurrency. */
class MemoryLock implements ResourceLock {
  private seenRv: number | undefined;
  constructor(
    private readonly store: Store,
    private readonly id: string,
  ) {}
  async get(): Promise<LockState> {
    if (!this.store.record) throw notFound();
    this.seenRv = this.store.rv;
    return { record: { ...this.store.record }, raw: JSON.stringify(this.store.record) };
  }
  async create(record: LeaderElectionRecord): Promise<void> {
    if (this.store.record) throw new StatusError({ code: 409, reason: 'AlreadyExists', message: 'exists' });
    this.store.record = { ...record };
    this.seenRv = ++this.store.rv;
  }
  async update(record: LeaderElectionRecord): Promise<void> {
    if (this.store.failWrites.has(this.id))
      throw new StatusError({ code: 503, reason: 'ServiceUnavailable', message: 'down' });
    if (this.seenRv !== this.store.rv) throw conflict();
    if (JSON.stringify(record) !== JSON.stringify(this.store.record)) this.store.lastChange = Date.now();
    this.store.record = { ...record };
    this.seenRv = ++this.store.rv;
  }
  identity(): string {
    return this.id;
  }
  describe(): string {
    return 'mem/lock';
  }
}

// The margin between lease duration and renew deadline (what keeps a stalled leader from overlapping a
// new one) is wide enough for a loaded test machine's timer lag.
const timing = { leaseDurationMs: 1500, renewDeadlineMs: 800, retryPeriodMs: 100 };

function candidate(
  store: Store,
  id: string,
  log: string[],
  extra: Partial<LeaderElectionConfig> = {},
): LeaderElector {
  return new LeaderElector({
    lock: new MemoryLock(store, id),
    ...timing,
    callbacks: {
      onStartedLeading: () => void log.push(`${Date.now()} start ${id}`),
      onStoppedLeading: () => void log.push(`${Date.now()} stop ${id}`),
      onNewLeader: (leader) => void log.push(`${Date.now()} leader ${leader} seen by ${id}`),
    },
    ...extra,
  });
}

const until = async (cond: () => boolean, ms = 5000): Promise<void> => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('LeaderElector', () => {
  it('validates the timing rules of client-go', () => {
    const lock = new MemoryLock(new Store(), 'a');
    const callbacks = { onStartedLeading: () => undefined, onStoppedLeading: () => undefined };
    expect(() =>
      validateLeaderElectionConfig({
        lock,
        callbacks,
        leaseDurationMs: 10,
        renewDeadlineMs: 10,
        retryPeriodMs: 1,
      }),
    ).toThrow('leaseDuration must be greater than renewDeadline');
    expect(() =>
      validateLeaderElectionConfig({
        lock,
        callbacks,
        leaseDurationMs: 15,
        renewDeadlineMs: 10,
        retryPeriodMs: 9,
      }),
    ).toThrow('renewDeadline must be greater than retryPeriod*JitterFactor');
    expect(() =>
      validateLeaderElectionConfig({
        lock: new MemoryLock(new Store(), ''),
        callbacks,
        leaseDurationMs: 15,
        renewDeadlineMs: 10,
        retryPeriodMs: 2,
      }),
    ).toThrow('Lock identity is empty');
  });

  it('creates the lock, records transitions, and stops a leader that cannot renew before another takes over', async () => {
    const store = new Store();
    const log: string[] = [];
    const a = candidate(store, 'a', log);
    const b = candidate(store, 'b', log);
    const stopA = new AbortController();
    const stopB = new AbortController();
    const runA = a.run(stopA.signal);
    await until(() => a.isLeader());
    const runB = b.run(stopB.signal);
    await new Promise((r) => setTimeout(r, 300));
    expect(b.getLeader()).toBe('a');
    expect(store.record).toMatchObject({
      holderIdentity: 'a',
      leaseDurationSeconds: 2,
      leaderTransitions: 0,
    });

    // a's writes fail from now on: it must stop within renewDeadline of its last renewal, and b may
    // only take over a lease duration after it last saw the record change.
    store.failWrites.add('a');
    const cut = Date.now();
    await runA;
    const lastChangeByA = store.lastChange;
    await until(() => b.isLeader());
    const stoppedA = Number(log.find((l) => l.endsWith('stop a'))!.split(' ')[0]);
    const startedB = Number(log.find((l) => l.endsWith('start b'))!.split(' ')[0]);
    expect(stoppedA - cut).toBeLessThanOrEqual(timing.renewDeadlineMs + 50);
    expect(startedB).toBeGreaterThan(stoppedA);
    // b saw the record's last change no earlier than it landed, and waits a whole lease from then
    expect(startedB - lastChangeByA).toBeGreaterThanOrEqual(timing.leaseDurationMs);
    expect(store.record).toMatchObject({ holderIdentity: 'b', leaderTransitions: 1 });
    expect(log.some((l) => l.endsWith('leader b seen by b'))).toBe(true);

    stopB.abort();
    await runB;
  });

  it('releases on cancel: an empty holder with a one-second lease and the transition count kept', async () => {
    const store = new Store();
    const log: string[] = [];
    const a = candidate(store, 'a', log, { releaseOnCancel: true });
    const stop = new AbortController();
    let leadingSignal: AbortSignal | undefined;
    const run = new LeaderElector({
      ...a.config,
      callbacks: { ...a.config.callbacks, onStartedLeading: (s) => void (leadingSignal = s) },
    }).run(stop.signal);
    await until(() => leadingSignal !== undefined);
    stop.abort();
    await run;
    expect(leadingSignal!.aborted).toBe(true);
    expect(store.record).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1, leaderTransitions: 0 });
    // A new candidate takes the released lock at once.
    const b = candidate(store, 'b', log);
    expect(await b.tryAcquireOrRenew()).toBe(true);
    expect(store.record).toMatchObject({ holderIdentity: 'b', leaderTransitions: 1 });
  });
});

describe('LeaderElector.check', () => {
  it('fails only for a leader whose record has not changed for lease duration plus the tolerance', async () => {
    let now = 1_000_000;
    const store = new Store();
    const a = candidate(store, 'a', [], { now: () => now });
    expect(() => a.check(100)).not.toThrow();
    expect(await a.tryAcquireOrRenew()).toBe(true);
    now += timing.leaseDurationMs + 100;
    expect(() => a.check(100)).not.toThrow();
    now += 1;
    expect(() => a.check(100)).toThrow('failed election to renew leadership on lease mem/lock');
    expect(await a.tryAcquireOrRenew()).toBe(true);
    expect(() => a.check(100)).not.toThrow();
  });
});

describe('MultiLock', () => {
  const rec = (holderIdentity: string): LeaderElectionRecord => ({
    holderIdentity,
    leaseDurationSeconds: 15,
    acquireTime: '2024-01-01T00:00:00Z',
    renewTime: '2024-01-01T00:00:00Z',
    leaderTransitions: 0,
  });

  it('reports an unknown leader when primary and secondary disagree, and creates a missing secondary', async () => {
    const primary = new Store();
    const secondary = new Store();
    const lock = new MultiLock(new MemoryLock(primary, 'me'), new MemoryLock(secondary, 'me'));
    primary.record = rec('old-client');
    expect((await lock.get()).record.holderIdentity).toBe('old-client');
    secondary.record = rec('other');
    const state = await lock.get();
    expect(state.record.holderIdentity).toBe(UNKNOWN_LEADER);
    secondary.record = undefined;
    primary.record = rec('me');
    await expect(lock.get()).rejects.toThrow('not found');
    await lock.update(rec('me'));
    expect(secondary.record).toMatchObject({ holderIdentity: 'me' });
  });

  it('lets only the first of two candidates racing to create the locks hold them', async () => {
    const primary = new Store();
    const secondary = new Store();
    const a = new MultiLock(new MemoryLock(primary, 'a'), new MemoryLock(secondary, 'a'));
    const b = new MultiLock(new MemoryLock(primary, 'b'), new MemoryLock(secondary, 'b'));
    // both found no lock; a creates the primary first
    await expect(a.get()).rejects.toThrow('not found');
    await expect(b.get()).rejects.toThrow('not found');
    await new MemoryLock(primary, 'a').create(rec('a'));
    // b lost the race: it must neither succeed nor create the secondary
    await expect(b.create(rec('b'))).rejects.toThrow('exists');
    expect(secondary.record).toBeUndefined();
    // a, whose primary it is, completes its pair
    await a.create(rec('a'));
    expect((await b.get()).record.holderIdentity).toBe('a');
  });
});
