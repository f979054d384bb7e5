import type { Event } from '@orch/api';
import { AGGREGATED_MESSAGE_PREFIX, EventCorrelator } from './EventCorrelator';

const base = Date.parse('2024-05-01T10:00:00Z');

function ev(message: string, over: Partial<Event> = {}): Event {
  return {
    metadata: { name: `web.${Math.random().toString(16).slice(2)}`, namespace: 'ns' },
    involvedObject: { kind: 'Pod', namespace: 'ns', name: 'web', uid: 'u1', apiVersion: 'v1' },
    reason: 'BackOff',
    message,
    type: 'Warning',
    source: { component: 'test', host: 'h' },
    count: 1,
    firstTimestamp: '2024-05-01T10:00:00Z',
    lastTimestamp: '2024-05-01T10:00:00Z',
    ...over,
  };
}

describe('EventCorrelator', () => {
  let now = base;
  const clock = (): number => now;
  beforeEach(() => {
    now = base;
  });

  it('dedupes identical events: the repeat patches count and lastTimestamp of the first', () => {
    const c = new EventCorrelator({ clock });
    const first = c.correlate(ev('pulling'));
    expect(first.patch).toBeUndefined();
    c.updateState({ ...first.event, metadata: { ...first.event.metadata, resourceVersion: '7' } });
    const second = c.correlate(ev('pulling', { lastTimestamp: '2024-05-01T10:00:05Z' }));
    expect(second.event.metadata).toMatchObject({ name: first.event.metadata!.name, resourceVersion: '7' });
    expect(second.event.count).toBe(2);
    expect(second.patch).toEqual({ count: 2, lastTimestamp: '2024-05-01T10:00:05Z', message: 'pulling' });
    expect(c.correlate(ev('pulling')).patch?.count).toBe(3);
  });

  it('combines similar events once 10 distinct messages arrive within 10 minutes', () => {
    const c = new EventCorrelator({ clock });
    for (let i = 0; i < 9; i++) {
      const r = c.correlate(ev(`message ${i}`));
      expect(r.event.message).toBe(`message ${i}`);
    }
    const tenth = c.correlate(ev('message 9'));
    expect(tenth.event.message).toBe(`${AGGREGATED_MESSAGE_PREFIX}message 9`);
    expect(tenth.event.metadata?.name).toMatch(/^web\.[0-9a-f]+$/);
    expect(tenth.event.count).toBe(1);
    // Further similar events update the combined one.
    const eleventh = c.correlate(ev('message 10'));
    expect(eleventh.event.metadata?.name).toBe(tenth.event.metadata?.name);
    expect(eleventh.event.message).toBe(`${AGGREGATED_MESSAGE_PREFIX}message 10`);
    expect(eleventh.patch).toMatchObject({ count: 2, message: `${AGGREGATED_MESSAGE_PREFIX}message 10` });
    // A different reason is not similar.
    expect(c.correlate(ev('other', { reason: 'Failed' })).event.message).toBe('other');
    // After the window the count of messages starts afresh.
    now += 601_000;
    expect(c.correlate(ev('late')).event.message).toBe('late');
  });

  it('filters spam: 25 events per source and object, then one per 5 minutes', () => {
    const c = new EventCorrelator({ clock });
    const results = Array.from({ length: 30 }, (_, i) => c.correlate(ev(`m${i % 3}`)).skip);
    expect(results.filter((s) => !s)).toHaveLength(25);
    expect(results.slice(25)).toEqual([true, true, true, true, true]);
    // Another object has its own bucket.
    expect(
      c.correlate(
        ev('x', {
          involvedObject: { kind: 'Pod', namespace: 'ns', name: 'db', uid: 'u2', apiVersion: 'v1' },
        }),
      ).skip,
    ).toBe(false);
    now += 299_000;
    expect(c.correlate(ev('m0')).skip).toBe(true);
    now += 1_000;
    expect(c.correlate(ev('m0')).skip).toBe(false);
    expect(c.correlate(ev('m0')).skip).toBe(true);
  });
});
