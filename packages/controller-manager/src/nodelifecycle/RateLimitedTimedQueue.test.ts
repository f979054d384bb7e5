import { RateLimitedTimedQueue, type TimedValue } from './RateLimitedTimedQueue';
import { TokenBucket } from './TokenBucket';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('TokenBucket', () => {
  test('starts full, refills at qps up to the burst', () => {
    const c = clock();
    const b = new TokenBucket(0.1, 1, c.now);
    expect(b.tryAccept()).toBe(true);
    expect(b.tryAccept()).toBe(false);
    c.advance(9_999);
    expect(b.tryAccept()).toBe(false);
    c.advance(1);
    expect(b.tryAccept()).toBe(true);
    c.advance(60_000);
    expect(b.tryAccept()).toBe(true);
    expect(b.tryAccept()).toBe(false);
  });

  test('a rate of 0 accepts nothing', () => {
    const c = clock();
    const b = new TokenBucket(0, 1, c.now);
    c.advance(1e9);
    expect(b.tryAccept()).toBe(false);
  });
});

describe('RateLimitedTimedQueue', () => {
  const collect = (q: RateLimitedTimedQueue, done = true) => {
    const seen: string[] = [];
    return q
      .try(async (v: TimedValue) => {
        seen.push(v.value);
        return { done };
      })
      .then(() => seen);
  };

  test('one node per 1/qps seconds, in order', async () => {
    const c = clock();
    const q = new RateLimitedTimedQueue(c.now, 0.1);
    q.add('a', 'ua');
    q.add('b', 'ub');
    q.add('c', 'uc');
    expect(await collect(q)).toEqual(['a']);
    c.advance(5_000);
    expect(await collect(q)).toEqual([]);
    c.advance(5_000);
    expect(await collect(q)).toEqual(['b']);
    c.advance(10_000);
    expect(await collect(q)).toEqual(['c']);
  });

  test('a value is added once until removed, even when done', async () => {
    const c = clock();
    const q = new RateLimitedTimedQueue(c.now, 10);
    expect(q.add('a', 'u')).toBe(true);
    expect(q.add('a', 'u')).toBe(false);
    expect(await collect(q)).toEqual(['a']);
    expect(q.add('a', 'u')).toBe(false);
    expect(q.remove('a')).toBe(true);
    expect(q.add('a', 'u')).toBe(true);
  });

  test('a value not done is retried after its delay', async () => {
    const c = clock();
    const q = new RateLimitedTimedQueue(c.now, 1000, 10);
    q.add('a', 'u');
    let calls = 0;
    const fail = () =>
      q.try(async () => {
        calls++;
        return { done: false, retryAfterMs: 500 };
      });
    await fail();
    expect(calls).toBe(1);
    c.advance(400);
    await fail();
    expect(calls).toBe(1);
    c.advance(200);
    await fail();
    expect(calls).toBe(2);
    expect(q.pending().map((v) => v.value)).toEqual(['a']);
  });

  test('swapping the limiter to 0 stops it; back to a rate resumes it', async () => {
    const c = clock();
    const q = new RateLimitedTimedQueue(c.now, 0.1);
    q.swapLimiter(0);
    q.add('a', 'u');
    c.advance(100_000);
    expect(await collect(q)).toEqual([]);
    q.swapLimiter(0.1);
    expect(q.qps).toBe(0.1);
    expect(await collect(q)).toEqual(['a']);
  });
});
