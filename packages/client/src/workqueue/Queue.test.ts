import { DelayingQueue, MAX_TIMER_MS } from './DelayingQueue';
import { Queue } from './Queue';
import { RateLimitingQueue } from './RateLimitingQueue';
import {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  FixedItemIntervalRateLimiter,
  ItemExponentialFailureRateLimiter,
  ItemFastSlowRateLimiter,
  MaxOfRateLimiter,
} from './rateLimiters';
import { runWorkers } from './runWorkers';

const tick = (ms = 0): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('Queue', () => {
  it('dedupes queued items and re-queues items added while processing after done()', async () => {
    const q = new Queue<string>();
    q.add('a');
    q.add('b');
    q.add('a');
    expect(q.len()).toBe(2);
    const first = await q.get();
    expect(first).toEqual({ item: 'a', shutdown: false });
    q.add('a'); // while processing: not handed out again yet
    expect(q.len()).toBe(1);
    expect((await q.get()).item).toBe('b');
    expect(q.len()).toBe(0);
    q.done('a');
    expect(q.len()).toBe(1);
    expect((await q.get()).item).toBe('a');
    q.done('a');
    q.done('b');
    expect(q.len()).toBe(0);
  });

  it('wakes a waiting getter and reports shutdown after the remaining items', async () => {
    const q = new Queue<string>();
    const waiting = q.get();
    q.add('x');
    expect(await waiting).toEqual({ item: 'x', shutdown: false });
    q.add('y');
    q.shutDown();
    q.add('z'); // ignored after shutdown
    expect((await q.get()).item).toBe('y');
    expect(await q.get()).toEqual({ item: undefined, shutdown: true });
    const late = new Queue<string>();
    const pending = late.get();
    late.shutDown();
    expect((await pending).shutdown).toBe(true);
  });

  it('shutDownWithDrain waits for items in flight to be done', async () => {
    const q = new Queue<string>();
    q.add('a');
    const { item } = await q.get();
    let drained = false;
    const p = q.shutDownWithDrain().then(() => (drained = true));
    await tick(10);
    expect(drained).toBe(false);
    q.done(item!);
    await p;
    expect(drained).toBe(true);
  });

  it('never hands a key to two workers at once and processes every key added after its last start', async () => {
    const q = new RateLimitingQueue<string>(new ItemExponentialFailureRateLimiter(1, 5));
    const keys = Array.from({ length: 20 }, (_, i) => `k${i}`);
    const active = new Set<string>();
    const lastStart = new Map<string, number>();
    const lastAdd = new Map<string, number>();
    let clock = 0;
    let overlaps = 0;
    const workers = runWorkers(q, 8, async (key) => {
      if (active.has(key)) {
        overlaps++;
      }
      active.add(key);
      lastStart.set(key, ++clock);
      await tick(Math.random() * 3);
      active.delete(key);
      if (Math.random() < 0.1) {
        throw new Error('transient');
      }
    });
    for (let round = 0; round < 30; round++) {
      for (let i = 0; i < 40; i++) {
        const key = keys[Math.floor(Math.random() * keys.length)]!;
        lastAdd.set(key, ++clock);
        q.add(key);
      }
      await tick(1);
    }
    // Let everything settle, including rate-limited retries.
    while (q.len() > 0 || q.waitingLen() > 0 || active.size > 0) {
      await tick(5);
    }
    await q.shutDownWithDrain();
    await workers;
    expect(overlaps).toBe(0);
    for (const [key, added] of lastAdd) {
      expect(lastStart.get(key)! > added).toBe(true);
    }
  });

  it('retries failed items rate-limited and forgets them on success', async () => {
    const q = new RateLimitingQueue<string>(new ItemExponentialFailureRateLimiter(5, 1000));
    let attempts = 0;
    const workers = runWorkers(q, 2, (key) => {
      attempts++;
      if (attempts < 4) {
        throw new Error(`fail ${key}`);
      }
    });
    q.add('item');
    const start = Date.now();
    while (attempts < 4) {
      await tick(2);
    }
    await tick(5);
    // 5 + 10 + 20 ms of backoff before the fourth attempt.
    expect(Date.now() - start).toBeGreaterThanOrEqual(30);
    expect(q.numRequeues('item')).toBe(0);
    q.shutDown();
    await workers;
  });
});

describe('DelayingQueue', () => {
  it('adds after the delay, keeping the earliest of several', async () => {
    const q = new DelayingQueue<string>();
    // the later deadlines are seconds away, so a timer delayed on a loaded machine cannot pass for them
    q.addAfter('a', 5000);
    q.addAfter('a', 20);
    q.addAfter('a', 3000);
    expect(q.len()).toBe(0);
    expect(q.waitingLen()).toBe(1);
    const start = Date.now();
    const got = await q.get();
    expect(got.item).toBe('a');
    expect(Date.now() - start).toBeGreaterThanOrEqual(15);
    expect(Date.now() - start).toBeLessThan(2000);
    q.addAfter('b', 1000);
    q.shutDown();
    expect(q.waitingLen()).toBe(0);
  });

  it('waits out delays longer than one timer can hold instead of adding at once', () => {
    jest.useFakeTimers();
    try {
      const q = new DelayingQueue<string>();
      const day = 24 * 3600 * 1000;
      q.addAfter('far', 40 * day);
      jest.advanceTimersByTime(1);
      expect(q.len()).toBe(0);
      jest.advanceTimersByTime(30 * day);
      expect(q.len()).toBe(0);
      expect(q.waitingLen()).toBe(1);
      // an earlier deadline still replaces the far one
      q.addAfter('far', day);
      jest.advanceTimersByTime(day);
      expect(q.len()).toBe(1);
      expect(q.waitingLen()).toBe(0);
      q.addAfter('later', MAX_TIMER_MS + 5 * day);
      jest.advanceTimersByTime(MAX_TIMER_MS);
      expect(q.len()).toBe(1);
      jest.advanceTimersByTime(5 * day);
      expect(q.len()).toBe(2);
      q.shutDown();
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('rate limiters', () => {
  it('per-item exponential backoff doubles from 5 ms up to the cap, per item, and resets on forget', () => {
    const rl = new ItemExponentialFailureRateLimiter<string>();
    expect([1, 2, 3, 4, 5].map(() => rl.when('a'))).toEqual([5, 10, 20, 40, 80]);
    expect(rl.when('b')).toBe(5);
    expect(rl.numRequeues('a')).toBe(5);
    rl.forget('a');
    expect(rl.numRequeues('a')).toBe(0);
    expect(rl.when('a')).toBe(5);
    const capped = new ItemExponentialFailureRateLimiter<string>(5, 1_000_000);
    const delays = Array.from({ length: 40 }, () => capped.when('x'));
    expect(delays[17]).toBe(5 * 2 ** 17);
    expect(delays[18]).toBe(1_000_000);
    expect(delays[39]).toBe(1_000_000);
  });

  it('fixed-interval limiter gives every item the same delay and keeps no history', () => {
    const rl = new FixedItemIntervalRateLimiter<string>(15_000);
    expect([rl.when('a'), rl.when('a'), rl.when('b')]).toEqual([15_000, 15_000, 15_000]);
    expect(rl.numRequeues('a')).toBe(0);
  });

  it('bucket limiter allows the burst then spaces items at 1/qps', () => {
    let now = 0;
    const rl = new BucketRateLimiter<string>(10, 3, () => now);
    expect([rl.when('a'), rl.when('b'), rl.when('c')]).toEqual([0, 0, 0]);
    expect(rl.when('d')).toBeCloseTo(100);
    expect(rl.when('e')).toBeCloseTo(200);
    now = 1000;
    expect(rl.when('f')).toBe(0);
  });

  it('max-of combines; the default controller limiter is exponential within the burst', () => {
    const fastSlow = new ItemFastSlowRateLimiter<string>(1, 50, 2);
    expect([fastSlow.when('a'), fastSlow.when('a'), fastSlow.when('a')]).toEqual([1, 1, 50]);
    const max = new MaxOfRateLimiter<string>(
      new ItemExponentialFailureRateLimiter(5, 1000),
      new ItemFastSlowRateLimiter(1, 50, 2),
    );
    expect([max.when('a'), max.when('a'), max.when('a'), max.when('a')]).toEqual([5, 10, 50, 50]);
    expect(max.numRequeues('a')).toBe(4);
    max.forget('a');
    expect(max.numRequeues('a')).toBe(0);
    const def = defaultControllerRateLimiter<string>();
    expect([def.when('k'), def.when('k'), def.when('k')]).toEqual([5, 10, 20]);
  });
});
