import type { WatchEvent } from './storage';
import { WatchHub } from './watch-hub';

const put = (key: string, modRevision: number): WatchEvent => ({
  type: 'put',
  key,
  value: Buffer.from(String(modRevision)),
  modRevision,
  createRevision: modRevision,
});
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('WatchHub', () => {
  test('replays the backlog, then live events, filtered by prefix and revision, bookmarks in order', async () => {
    const hub = new WatchHub();
    const seen: string[] = [];
    hub.add(
      '/a/',
      1,
      (e) => seen.push(`${e.key}@${e.modRevision}`),
      () => undefined,
      { onBookmark: (r) => seen.push(`bookmark@${r}`) },
      [put('/a/x', 1), put('/b/x', 2), put('/a/y', 3)],
    );
    hub.publish(put('/a/y', 3)); // already in the backlog: not repeated
    hub.publish(put('/ab', 4));
    hub.bookmark(4);
    hub.publish(put('/a/z', 5));
    await tick();
    expect(seen).toEqual(['/a/y@3', 'bookmark@4', '/a/z@5']);
  });

  test('a throwing callback ends that watcher with the error; others go on', async () => {
    const hub = new WatchHub();
    const errors: Error[] = [];
    const good: number[] = [];
    hub.add(
      '/',
      0,
      () => {
        throw new Error('boom');
      },
      (e) => errors.push(e),
    );
    hub.add(
      '/',
      0,
      (e) => good.push(e.modRevision),
      () => undefined,
    );
    hub.publish(put('/k', 1));
    hub.publish(put('/k', 2));
    await tick();
    expect(errors.map((e) => e.message)).toEqual(['boom']);
    expect(good).toEqual([1, 2]);
    expect(hub.size).toBe(1);
  });

  test('stop inside a callback prevents any later callback', async () => {
    const hub = new WatchHub();
    const seen: number[] = [];
    const handle = hub.add(
      '/',
      0,
      (e) => {
        seen.push(e.modRevision);
        handle.stop();
      },
      () => undefined,
    );
    hub.publish(put('/k', 1));
    hub.publish(put('/k', 2));
    await tick();
    expect(seen).toEqual([1]);
    expect(hub.size).toBe(0);
  });

  test('delivery is after publish returns; events published by a callback reach every watcher in order', async () => {
    const hub = new WatchHub();
    const first: number[] = [];
    const second: number[] = [];
    hub.add(
      '/',
      0,
      (e) => {
        first.push(e.modRevision);
        // a write made by a watcher is published while the others are still being delivered to
        if (e.modRevision === 1) hub.publish(put('/k', 3));
      },
      () => undefined,
    );
    hub.add(
      '/',
      0,
      (e) => second.push(e.modRevision),
      () => undefined,
    );
    hub.publish(put('/k', 1));
    hub.publish(put('/k', 2));
    expect(first).toEqual([]);
    await tick();
    expect(first).toEqual([1, 2, 3]);
    expect(second).toEqual([1, 2, 3]);
  });
});
