import { FakeClock } from './Clock';
import { DueQueue } from './DueQueue';
import { nextSlot, staggerOffset } from './stagger';

/** Lets handler promises and their `finally` callbacks run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

describe('stagger slots', () => {
  it('spreads N jobs evenly over the period', () => {
    expect([0, 1, 2, 3].map((i) => staggerOffset(i, 4, 10_000))).toEqual([0, 2500, 5000, 7500]);
    expect(staggerOffset(0, 0, 10_000)).toBe(0);
  });

  it('gives the first slot strictly after now, keeping the job in its place in the period', () => {
    // Job 1 of 4 with a 10 s period sits at 2.5 s of each period from the origin 1000.
    expect(nextSlot(1000, 1, 4, 10_000, 0)).toBe(3500);
    expect(nextSlot(1000, 1, 4, 10_000, 3500)).toBe(13_500);
    expect(nextSlot(1000, 1, 4, 10_000, 40_000)).toBe(43_500);
  });
});

describe('DueQueue', () => {
  it('runs 2,000 periodic jobs spread evenly over their period with a single timer', async () => {
    const clock = new FakeClock(0);
    const n = 2000;
    const period = 10_000;
    const runs: number[] = [];
    const queue: DueQueue = new DueQueue({
      clock,
      concurrency: 16,
      handler: async (key) => {
        runs.push(clock.now());
        const index = Number(key.slice(4));
        queue.schedule(key, nextSlot(0, index, n, period, clock.now()));
      },
    });
    for (let i = 0; i < n; i++) queue.schedule(`job/${i}`, nextSlot(0, i, n, period, -1));
    expect(clock.pendingTimers).toBe(1);
    for (let t = 5; t < 3 * period; t += 5) {
      clock.advance(5);
      await settle();
      expect(clock.pendingTimers).toBeLessThanOrEqual(1);
    }
    // Every job ran once per period: 3 periods.
    expect(runs.length).toBe(3 * n);
    // Per second of the period, the same number of runs (200 = 2000 jobs / 10 s).
    const perSecond = new Map<number, number>();
    for (const at of runs)
      perSecond.set(Math.floor(at / 1000), (perSecond.get(Math.floor(at / 1000)) ?? 0) + 1);
    for (const count of perSecond.values()) expect(count).toBe(n / 10);
    await queue.stop();
  });

  it('bounds the handlers in flight and never runs one key twice at once', async () => {
    const clock = new FakeClock(0);
    const pending: (() => void)[] = [];
    const started: string[] = [];
    let maxActive = 0;
    const queue = new DueQueue({
      clock,
      concurrency: 3,
      handler: (key) =>
        new Promise<void>((resolve) => {
          started.push(key);
          maxActive = Math.max(maxActive, queue.active);
          pending.push(resolve);
        }),
    });
    for (let i = 0; i < 10; i++) queue.now(`k${i}`);
    clock.advance(0);
    await settle();
    expect(started).toEqual(['k0', 'k1', 'k2']);
    // k0 falls due again while it runs: it runs again only after it finished.
    queue.now('k0');
    clock.advance(0);
    await settle();
    expect(started).toEqual(['k0', 'k1', 'k2']);
    while (pending.length > 0) {
      pending.shift()!();
      await settle();
    }
    expect(started).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8', 'k9', 'k0']);
    expect(maxActive).toBe(3);
    await queue.stop();
  });

  it('moves a rescheduled key, forgets a cancelled one and reports handler failures', async () => {
    const clock = new FakeClock(0);
    const ran: [string, number][] = [];
    const errors: string[] = [];
    const queue = new DueQueue({
      clock,
      concurrency: 4,
      handler: async (key) => {
        ran.push([key, clock.now()]);
        if (key === 'boom') throw new Error('write failed');
      },
      onError: (key, err) => errors.push(`${key}: ${(err as Error).message}`),
    });
    queue.schedule('a', 100);
    queue.schedule('b', 200);
    queue.schedule('a', 300);
    queue.schedule('boom', 250);
    queue.cancel('b');
    expect(queue.dueAt('a')).toBe(300);
    expect(queue.dueAt('b')).toBeUndefined();
    clock.advance(1000);
    await settle();
    expect(ran).toEqual([
      ['boom', 250],
      ['a', 300],
    ]);
    expect(errors).toEqual(['boom: write failed']);
    await queue.stop();
    queue.schedule('late', 2000);
    expect(queue.size).toBe(0);
    expect(clock.pendingTimers).toBe(0);
  });

  it('stop waits for running handlers', async () => {
    const clock = new FakeClock(0);
    let release!: () => void;
    const queue = new DueQueue({
      clock,
      concurrency: 1,
      handler: () => new Promise<void>((r) => (release = r)),
    });
    queue.now('x');
    clock.advance(0);
    let stopped = false;
    const stopping = queue.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(stopped).toBe(true);
  });
});
