import { WatchRecorder, waitUntil } from '../conformance/watch-recorder';
import { SqliteStorage } from '../embedded/sqlite-storage';
import { StorageError } from '../storage-error';
import { Cacher } from './cacher';

const text = (s: string) => Buffer.from(s);

describe('watch cache', () => {
  let backend: SqliteStorage;
  let cacher: Cacher;
  let clock = 1_000_000;
  const recorders: WatchRecorder[] = [];

  const start = async (options: Partial<Parameters<typeof Cacher.start>[1]> = {}) => {
    cacher = await Cacher.start(backend, { prefix: '/registry/pods/', now: () => clock, ...options });
    return cacher;
  };
  const watch = async (prefix: string, from: number, bookmarks = false) => {
    const recorder = await WatchRecorder.start(cacher, prefix, from, bookmarks);
    recorders.push(recorder);
    return recorder;
  };

  /** The error callbacks of the backend watches opened from now on: calling one fails that watch. */
  const failableWatches = () => {
    const failSource: ((error: Error) => void)[] = [];
    const watchBackend = backend.watch.bind(backend);
    backend.watch = (prefix, from, onEvent, onError, options) => {
      failSource.push(onError);
      return watchBackend(prefix, from, onEvent, onError, options);
    };
    return failSource;
  };

  beforeEach(async () => {
    backend = new SqliteStorage(':memory:', { compactionIntervalMs: 0 });
    // Revision 1 exists before the cache starts, so that revision 0 ("now") is never asked for.
    await backend.create('/registry/seed', text('seed'));
  });

  afterEach(async () => {
    for (const recorder of recorders.splice(0)) recorder.stop();
    await cacher?.close();
    await backend.close();
  });

  test('starts from the backend state and follows it', async () => {
    await backend.create('/registry/pods/ns/a', text('a1'));
    await backend.create('/registry/services/ns/x', text('x'));
    await start();
    expect((await cacher.list('/registry/pods/', { fromCache: true })).items.map((kv) => kv.key)).toEqual([
      '/registry/pods/ns/a',
    ]);
    await cacher.update('/registry/pods/ns/a', text('a2'));
    const b = await cacher.create('/registry/pods/ns/b', text('b1'));
    await waitUntil(
      () => cacher.cachedRevision === b.modRevision,
      5000,
      () => 'cache caught up',
    );
    const cached = await cacher.list('/registry/pods/ns/', { fromCache: true, limit: 1 });
    expect(cached.items.map((kv) => kv.value.toString())).toEqual(['a2']);
    expect(cached).toMatchObject({ revision: b.modRevision, more: true, remaining: 1 });
    expect(await cacher.list('/registry/pods/ns/', { fromCache: true })).toEqual(
      await backend.list('/registry/pods/ns/'),
    );
  });

  test('reads from the backend hand out the cached KV of the same revision', async () => {
    await backend.create('/registry/pods/ns/a', text('a1'));
    await backend.create('/registry/pods/ns/b', text('b1'));
    await start();
    const first = await cacher.list('/registry/pods/');
    const second = await cacher.list('/registry/pods/');
    expect(second.items.map((kv) => kv.value.toString())).toEqual(['a1', 'b1']);
    expect(second.items[0]).toBe(first.items[0]);
    expect(await cacher.get('/registry/pods/ns/a')).toBe(first.items[0]);
    expect(await cacher.cached('/registry/pods/ns/b')).toBe(first.items[1]);
    expect(await cacher.cached('/registry/services/ns/x')).toBeUndefined();
    // a newer revision is a new KV, with its value
    const updated = await backend.update('/registry/pods/ns/a', text('a2'));
    while ((await cacher.cached('/registry/pods/ns/a'))?.modRevision !== updated.modRevision)
      await new Promise((r) => setTimeout(r, 5));
    const third = await cacher.list('/registry/pods/');
    expect(third.items.map((kv) => kv.value.toString())).toEqual(['a2', 'b1']);
    expect(third.items[1]).toBe(first.items[1]);
  });

  test('a backend read the cache has not caught up with still returns the values read', async () => {
    await start();
    // stop the cache from following its backend: what is written now is not in the cache
    (cacher as unknown as { source: { stop(): void } }).source.stop();
    await backend.create('/registry/pods/ns/a', text('a1'));
    const page = await cacher.list('/registry/pods/', { limit: 1 });
    expect(page.items.map((kv) => [kv.key, kv.value.toString()])).toEqual([['/registry/pods/ns/a', 'a1']]);
    expect(await cacher.cached('/registry/pods/ns/a')).toBeUndefined();
  });

  test('lists at the current revision come from memory while the backend has nothing newer under the prefix', async () => {
    await backend.create('/registry/pods/ns/a', text('a1'));
    await start();
    const backendList = jest.spyOn(backend, 'list');
    await backend.create('/registry/services/ns/x', text('x'));
    const now = await cacher.list('/registry/pods/');
    expect(now.revision).toBe(await backend.currentRevision());
    expect(now.items.map((kv) => kv.value.toString())).toEqual(['a1']);
    // a next chunk at that revision is served from memory too
    const chunk = await cacher.list('/registry/pods/', { revision: now.revision, limit: 1 });
    expect(chunk.items).toEqual(now.items);
    expect(backendList).not.toHaveBeenCalled();

    // a write under the prefix the cache has not seen: the backend answers
    (cacher as unknown as { source: { stop(): void } }).source.stop();
    await backend.create('/registry/pods/ns/b', text('b1'));
    const fresh = await cacher.list('/registry/pods/');
    expect(fresh.items.map((kv) => kv.value.toString())).toEqual(['a1', 'b1']);
    expect(backendList).toHaveBeenCalled();
    // and a list at the revision the cache held is still answered as it was
    const then = await cacher.list('/registry/pods/', { revision: now.revision });
    expect(then.items.map((kv) => kv.value.toString())).toEqual(['a1']);
    backendList.mockRestore();
  });

  test('gets come from memory while the backend has nothing newer under the prefix, else from the backend', async () => {
    const a = await backend.create('/registry/pods/ns/a', text('a1'));
    await start();
    const backendGet = jest.spyOn(backend, 'get');
    await backend.create('/registry/services/ns/x', text('x'));
    const held = await cacher.get('/registry/pods/ns/a');
    expect(held).toBe(await cacher.cached('/registry/pods/ns/a'));
    expect(held).toMatchObject({ modRevision: a.modRevision });
    expect(await cacher.get('/registry/pods/ns/absent')).toBeUndefined();
    expect(backendGet).not.toHaveBeenCalled();

    // writes under the prefix the cache has not seen: the backend answers, with the new values
    (cacher as unknown as { source: { stop(): void } }).source.stop();
    await backend.update('/registry/pods/ns/a', text('a2'));
    await backend.create('/registry/pods/ns/b', text('b1'));
    expect((await cacher.get('/registry/pods/ns/a'))?.value.toString()).toBe('a2');
    expect((await cacher.get('/registry/pods/ns/b'))?.value.toString()).toBe('b1');
    expect(backendGet).toHaveBeenCalledTimes(2);
    // outside the prefix: always the backend
    expect((await cacher.get('/registry/services/ns/x'))?.value.toString()).toBe('x');
    expect(backendGet).toHaveBeenCalledTimes(3);
    backendGet.mockRestore();
  });

  test('cached lists sort keys by their UTF-8 bytes', async () => {
    // U+FF5E sorts before U+1F600 in UTF-8 (and code points), after it in UTF-16 code units
    const keys = ['/registry/pods/ns/\u{1F600}', '/registry/pods/ns/\uFF5E', '/registry/pods/ns/z'];
    for (const k of keys) await backend.create(k, text(k));
    await start();
    const expected = [...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(expected[1]).toBe('/registry/pods/ns/\uFF5E');
    expect((await cacher.list('/registry/pods/', { fromCache: true })).items.map((kv) => kv.key)).toEqual(
      expected,
    );
    expect((await cacher.list('/registry/pods/')).items.map((kv) => kv.key)).toEqual(expected);
  });

  test('a watch older than the time window gets Compacted', async () => {
    await start({ windowMs: 60_000 });
    const first = await cacher.create('/registry/pods/ns/a', text('1'));
    clock += 30_000;
    const second = await cacher.update('/registry/pods/ns/a', text('2'));
    await waitUntil(
      () => cacher.cachedRevision === second.modRevision,
      5000,
      () => 'cache caught up',
    );

    const replay = await watch('/registry/pods/', first.modRevision - 1);
    expect((await replay.waitForEvents(2)).map((e) => e.value.toString())).toEqual(['1', '2']);

    clock += 45_000; // the first event is now 75 s old, the second 45 s
    const expired = await watch('/registry/pods/', first.modRevision - 1);
    const error = await expired.waitForError();
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).code).toBe('Compacted');
    const recent = await watch('/registry/pods/', first.modRevision);
    expect((await recent.waitForEvents(1)).map((e) => e.value.toString())).toEqual(['2']);
  });

  test('the capacity bounds the window', async () => {
    await start({ capacity: 3 });
    const from = await cacher.currentRevision();
    let last = 0;
    for (let i = 0; i < 5; i++)
      last = (await cacher.create(`/registry/pods/ns/p${i}`, text(String(i)))).modRevision;
    await waitUntil(
      () => cacher.cachedRevision === last,
      5000,
      () => 'cache caught up',
    );
    const tooOld = await watch('/registry/pods/', from);
    expect(((await tooOld.waitForError()) as StorageError).code).toBe('Compacted');
    const inWindow = await watch('/registry/pods/', last - 3);
    expect((await inWindow.waitForEvents(3)).map((e) => e.value.toString())).toEqual(['2', '3', '4']);
  });

  test('fan-out: 100 watchers each get every event exactly once, in order', async () => {
    await start();
    const from = await cacher.currentRevision();
    const watchers = await Promise.all(Array.from({ length: 100 }, () => watch('/registry/pods/', from)));
    expect(cacher.watcherCount).toBe(100);
    const revisions: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; i < 25; i++) {
          revisions.push((await cacher.create(`/registry/pods/ns/w${w}-${i}`, text('x'))).modRevision);
        }
      }),
    );
    revisions.sort((a, b) => a - b);
    for (const recorder of watchers) {
      const events = await recorder.waitForEvents(100);
      expect(events.map((e) => e.modRevision)).toEqual(revisions);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(watchers.every((r) => r.events.length === 100 && r.errors.length === 0)).toBe(true);
  });

  test('one backend watch serves all cache watchers', async () => {
    let backendWatches = 0;
    const watchBackend = backend.watch.bind(backend);
    backend.watch = (...args) => {
      backendWatches++;
      return watchBackend(...args);
    };
    await start();
    for (let i = 0; i < 10; i++) await watch(`/registry/pods/ns${i}/`, 0);
    expect(backendWatches).toBe(1);
    await watch('/registry/services/', 0);
    expect(backendWatches).toBe(2);
  });

  test('watchers that ask for bookmarks get them, with the cached revision', async () => {
    await start({ bookmarkIntervalMs: 20 });
    const kv = await cacher.create('/registry/pods/ns/a', text('1'));
    await waitUntil(
      () => cacher.cachedRevision === kv.modRevision,
      5000,
      () => 'cache caught up',
    );
    const withBookmarks = await watch('/registry/pods/', kv.modRevision, true);
    const without = await watch('/registry/pods/', kv.modRevision);
    await waitUntil(
      () => withBookmarks.bookmarks.length >= 2,
      5000,
      () => 'bookmarks',
    );
    expect(withBookmarks.bookmarks.every((r) => r === kv.modRevision)).toBe(true);
    expect(without.bookmarks).toEqual([]);
    expect(withBookmarks.events).toEqual([]);
  });

  test('after its backend watch fails, the cache ends its watchers and rebuilds itself', async () => {
    const failSource = failableWatches();
    await start({ retryDelayMs: 10 });
    const before = await watch('/registry/pods/', 0);
    failSource[0](new Error('connection lost'));
    expect(((await before.waitForError()) as StorageError).code).toBe('Unavailable');

    const kv = await backend.create('/registry/pods/ns/late', text('x'));
    await waitUntil(
      () => failSource.length === 2 && cacher.cachedRevision >= kv.modRevision,
      5000,
      () => 'rebuilt',
    );
    expect((await cacher.list('/registry/pods/', { fromCache: true })).items.map((i) => i.key)).toEqual([
      '/registry/pods/ns/late',
    ]);
    const after = await watch('/registry/pods/', kv.modRevision);
    const next = await cacher.update('/registry/pods/ns/late', text('y'));
    expect((await after.waitForEvents(1)).map((e) => e.modRevision)).toEqual([next.modRevision]);
  });

  test('while it rebuilds, reads go to the backend instead of waiting for it', async () => {
    const failSource = failableWatches();
    const a = await backend.create('/registry/pods/ns/a', text('a1'));
    await start({ retryDelayMs: 60_000 });
    expect((await cacher.cached('/registry/pods/ns/a'))?.modRevision).toBe(a.modRevision);
    expect((await cacher.cached('/registry/pods/ns/a'))?.value.toString()).toBe('a1');
    failSource[0](new Error('connection lost'));
    // the cache is down for a minute: nothing it answers may wait that long
    const b = await backend.create('/registry/pods/ns/b', text('b1'));
    const within = <T>(p: Promise<T>) =>
      Promise.race([
        p,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('waited')), 1000)),
      ]);
    expect(await within(cacher.cached('/registry/pods/ns/a'))).toBeUndefined();
    const fromCache = await within(cacher.list('/registry/pods/', { fromCache: true }));
    expect(fromCache.items.map((kv) => kv.key)).toEqual(['/registry/pods/ns/a', '/registry/pods/ns/b']);
    expect(fromCache.revision).toBe(b.modRevision);
    const consistent = await within(cacher.list('/registry/pods/'));
    expect(consistent.items.map((kv) => kv.value.toString())).toEqual(['a1', 'b1']);
  });

  test('closing ends the watchers and keeps a shared backend open', async () => {
    await start();
    const recorder = await watch('/registry/pods/', 0);
    await cacher.close();
    expect(((await recorder.waitForError()) as StorageError).code).toBe('Unavailable');
    expect(await backend.currentRevision()).toBe(1);
  });
});
