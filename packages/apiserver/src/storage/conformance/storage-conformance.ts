import { guaranteedUpdate } from '../guaranteed-update';
import type { KV, Storage } from '../storage';
import { StorageError, type StorageErrorCode } from '../storage-error';
import { WatchRecorder, waitUntil } from './watch-recorder';

/** Makes a fresh, open store for one test. The suite closes it after the test. */
export type StorageFactory = () => Promise<Storage>;

let sequence = 0;

const text = (value: string) => Buffer.from(value);
const str = (kv: { value: Buffer } | undefined) => kv?.value.toString();

async function expectCode(promise: Promise<unknown>, code: StorageErrorCode): Promise<StorageError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StorageError);
  expect((error as StorageError).code).toBe(code);
  return error as StorageError;
}

/**
 * The behaviour every {@link Storage} implementation must have, as one jest suite. Call it at the
 * top level of a test file with the backend's factory. Every test uses its own key prefix, so the
 * factory may hand out stores that share data (e.g. clients of one etcd cluster).
 */
export function runStorageConformance(name: string, factory: StorageFactory): void {
  describe(`storage conformance: ${name}`, () => {
    let store: Storage;
    let prefix: string;
    const recorders: WatchRecorder[] = [];
    const key = (name: string) => `${prefix}${name}`;
    const watch = async (p: string, from: number) => {
      const recorder = await WatchRecorder.start(store, p, from);
      recorders.push(recorder);
      return recorder;
    };

    beforeEach(async () => {
      store = await factory();
      prefix = `/registry/conformance/t${process.pid}-${++sequence}/`;
    });

    afterEach(async () => {
      for (const recorder of recorders.splice(0)) recorder.stop();
      await store.close();
    });

    test('create, get, update and delete', async () => {
      const created = await store.create(key('a'), text('v1'));
      expect(created).toEqual({
        key: key('a'),
        value: text('v1'),
        modRevision: created.createRevision,
        createRevision: created.createRevision,
      });
      expect(await store.get(key('a'))).toEqual(created);

      const updated = await store.update(key('a'), text('v2'));
      expect(updated.modRevision).toBeGreaterThan(created.modRevision);
      expect(updated.createRevision).toBe(created.createRevision);
      expect(await store.get(key('a'))).toEqual(updated);

      const deleted = await store.delete(key('a'));
      expect(deleted.value.toString()).toBe('v2');
      expect(deleted.createRevision).toBe(created.createRevision);
      expect(deleted.modRevision).toBeGreaterThan(updated.modRevision);
      expect(await store.get(key('a'))).toBeUndefined();
      expect(await store.currentRevision()).toBeGreaterThanOrEqual(deleted.modRevision);

      const again = await store.create(key('a'), text('v3'));
      expect(again.createRevision).toBeGreaterThan(deleted.modRevision);
    });

    test('typed errors for missing and existing keys', async () => {
      await store.create(key('a'), text('v1'));
      const exists = await expectCode(store.create(key('a'), text('v2')), 'KeyExists');
      expect(exists.details.key).toBe(key('a'));
      await expectCode(store.update(key('missing'), text('v')), 'NotFound');
      await expectCode(store.update(key('missing'), text('v'), 5), 'NotFound');
      await expectCode(store.delete(key('missing')), 'NotFound');
      expect(str(await store.get(key('a')))).toBe('v1');
    });

    test('guarded update and delete report conflicts with the current object', async () => {
      const v1 = await store.create(key('a'), text('v1'));
      const v2 = await store.update(key('a'), text('v2'), v1.modRevision);
      const conflict = await expectCode(store.update(key('a'), text('stale'), v1.modRevision), 'Conflict');
      expect(conflict.details.current).toEqual(v2);
      const delConflict = await expectCode(store.delete(key('a'), v1.modRevision), 'Conflict');
      expect(delConflict.details.current).toEqual(v2);
      expect(str(await store.get(key('a')))).toBe('v2');
      const deleted = await store.delete(key('a'), v2.modRevision);
      expect(str(deleted)).toBe('v2');
    });

    test('list returns the prefix sorted by key, and only the prefix', async () => {
      for (const name of ['c', 'a', 'b/x', 'b', 'aa']) await store.create(key(name), text(name));
      await store.create(`${prefix.slice(0, -1)}x/outside`, text('no'));
      await store.create(`${prefix.slice(0, -1)}`, text('no'));
      const result = await store.list(prefix);
      expect(result.items.map((kv) => kv.key)).toEqual(['a', 'aa', 'b', 'b/x', 'c'].map(key));
      expect(result.items.map(str)).toEqual(['a', 'aa', 'b', 'b/x', 'c']);
      expect(result.more).toBe(false);
      expect(result.remaining).toBe(0);
      expect(result.revision).toBe(await store.currentRevision());
      expect((await store.list(key('zz'))).items).toEqual([]);
    });

    test('list at a past revision sees the state of that revision', async () => {
      await store.create(key('a'), text('a1'));
      await store.create(key('b'), text('b1'));
      const past = await store.currentRevision();
      await store.update(key('a'), text('a2'));
      await store.delete(key('b'));
      await store.create(key('c'), text('c1'));

      const then = await store.list(prefix, { revision: past });
      expect(then.revision).toBe(past);
      expect(then.items.map((kv) => [kv.key, str(kv)])).toEqual([
        [key('a'), 'a1'],
        [key('b'), 'b1'],
      ]);
      const now = await store.list(prefix);
      expect(now.items.map((kv) => [kv.key, str(kv)])).toEqual([
        [key('a'), 'a2'],
        [key('c'), 'c1'],
      ]);
      await expectCode(
        store.list(prefix, { revision: (await store.currentRevision()) + 1000 }),
        'FutureRevision',
      );
    });

    test('list at a past revision: keys written many times, recreated or short-lived since', async () => {
      await store.create(key('gone'), text('g1'));
      await store.delete(key('gone'));
      await store.create(key('twice'), text('t1'));
      await store.create(key('same'), text('s1'));
      const past = await store.currentRevision();
      await store.update(key('twice'), text('t2'));
      await store.update(key('twice'), text('t3'));
      await store.create(key('gone'), text('g2'));
      await store.create(key('brief'), text('b1'));
      await store.delete(key('brief'));
      await store.delete(key('twice'));
      await store.create(key('twice'), text('t4'));

      const then = await store.list(prefix, { revision: past });
      expect(then.items.map((kv) => [kv.key, str(kv)])).toEqual([
        [key('same'), 's1'],
        [key('twice'), 't1'],
      ]);
      const first = await store.list(prefix, { revision: past, limit: 1 });
      expect(first.items.map(str)).toEqual(['s1']);
      expect([first.more, first.remaining]).toEqual([true, 1]);
      const now = await store.list(prefix);
      expect(now.items.map((kv) => [kv.key, str(kv)])).toEqual([
        [key('gone'), 'g2'],
        [key('same'), 's1'],
        [key('twice'), 't4'],
      ]);
    });

    test('the pages of a list at a past revision keep its state while writes go on between them', async () => {
      for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) await store.create(key(name), text(`${name}1`));
      const past = await store.currentRevision();
      await store.update(key('b'), text('b2'));
      const page = (startKey?: string, keysOnly = false) =>
        store.list(prefix, { revision: past, limit: 2, startKey, keysOnly });
      const first = await page();
      expect(first.items.map(str)).toEqual(['a1', 'b1']);
      expect([first.more, first.remaining]).toEqual([true, 4]);
      // between the pages: keys of the next pages first written now, deleted, recreated, created
      await store.update(key('d'), text('d2'));
      await store.delete(key('c'));
      await store.update(key('b'), text('b3'));
      await store.delete(key('e'));
      await store.create(key('e'), text('e2'));
      await store.create(key('cc'), text('cc1'));
      const second = await page(`${key('b')}\0`);
      expect(second.items.map((kv) => [kv.key, str(kv)])).toEqual([
        [key('c'), 'c1'],
        [key('d'), 'd1'],
      ]);
      expect([second.more, second.remaining]).toEqual([true, 2]);
      await store.update(key('f'), text('f2'));
      const last = await page(`${key('d')}\0`);
      expect(last.items.map(str)).toEqual(['e1', 'f1']);
      expect(last.more).toBe(false);
      // every key keeps the revisions it had then, with or without values
      const whole = await store.list(prefix, { revision: past });
      const keys = await page(`${key('b')}\0`, true);
      expect(keys.items.map(({ value: _v, ...rest }) => rest)).toEqual(
        whole.items.slice(2, 4).map(({ value: _v, ...rest }) => rest),
      );
      expect(whole.items.map((kv) => kv.modRevision)).toEqual(
        [...first.items, ...second.items, ...last.items].map((kv) => kv.modRevision),
      );
    });

    test('keysOnly lists keys and revisions without values, now and at a past revision', async () => {
      for (const name of ['b', 'a', 'c']) await store.create(key(name), text(`${name}1`));
      const past = await store.currentRevision();
      await store.update(key('a'), text('a2'));
      await store.delete(key('b'));
      for (const revision of [undefined, past]) {
        const full = await store.list(prefix, { revision, limit: 2 });
        const keys = await store.list(prefix, { revision, limit: 2, keysOnly: true });
        expect(keys.items.map((kv) => kv.value.length)).toEqual(full.items.map(() => 0));
        expect(keys.items.map(({ value: _v, ...rest }) => rest)).toEqual(
          full.items.map(({ value: _v, ...rest }) => rest),
        );
        expect([keys.revision, keys.more, keys.remaining]).toEqual([
          full.revision,
          full.more,
          full.remaining,
        ]);
      }
      const then = await store.list(prefix, { revision: past, keysOnly: true });
      expect(then.items.map((kv) => kv.key)).toEqual(['a', 'b', 'c'].map(key));
    });

    test('changedAfter (where a backend has it) tells whether a key under the prefix changed', async () => {
      if (!store.changedAfter) return;
      const a = await store.create(key('a'), text('a1'));
      expect(await store.changedAfter(prefix, a.modRevision)).toBe(false);
      expect(await store.changedAfter(prefix, a.modRevision - 1)).toBe(true);
      await store.create(`${prefix.slice(0, -1)}x/outside`, text('no'));
      expect(await store.changedAfter(prefix, a.modRevision)).toBe(false);
      const deleted = await store.delete(key('a'));
      expect(await store.changedAfter(prefix, a.modRevision)).toBe(true);
      expect(await store.changedAfter(prefix, deleted.modRevision)).toBe(false);
    });

    test('limit and startKey give a consistent snapshot while writes happen between chunks', async () => {
      const names = Array.from({ length: 10 }, (_, i) => `k${String(i).padStart(2, '0')}`);
      for (const name of names) await store.create(key(name), text(`${name}-old`));

      const first = await store.list(prefix, { limit: 3 });
      expect(first.items.map((kv) => kv.key)).toEqual(names.slice(0, 3).map(key));
      expect(first.more).toBe(true);
      expect(first.remaining).toBe(7);
      const items: KV[] = [...first.items];
      let page = first;
      let writes = 0;
      while (page.more) {
        // Writes between chunks: an update and a delete ahead of the cursor, a new key too.
        await store.update(key(names[9 - writes]), text('new'));
        await store.delete(key(names[8 - writes]));
        await store.create(key(`k0${writes}x`), text('new'));
        writes += 2;
        const startKey = `${page.items[page.items.length - 1].key}\u0000`;
        page = await store.list(prefix, { revision: first.revision, limit: 3, startKey });
        expect(page.revision).toBe(first.revision);
        items.push(...page.items);
        expect(page.remaining).toBe(10 - items.length);
        expect(page.more).toBe(items.length < 10);
      }
      expect(items.map((kv) => kv.key)).toEqual(names.map(key));
      expect(items.map(str)).toEqual(names.map((n) => `${n}-old`));
      expect(items.every((kv) => kv.modRevision <= first.revision)).toBe(true);
    });

    test('watch from a revision replays history, then delivers live events', async () => {
      const a = await store.create(key('a'), text('1'));
      await store.update(key('a'), text('2'));
      await store.create(key('b'), text('3'));
      const recorder = await watch(prefix, a.modRevision);
      await store.delete(key('a'));
      await store.create(key('c'), text('4'));
      const events = await recorder.waitForEvents(4);
      expect(events.map((e) => [e.type, e.key, e.value.toString()])).toEqual([
        ['put', key('a'), '2'],
        ['put', key('b'), '3'],
        ['delete', key('a'), '2'],
        ['put', key('c'), '4'],
      ]);
      expect(events[0].prevValue?.toString()).toBe('1');
      expect(events[0].createRevision).toBe(a.modRevision);
      expect(events[1].prevValue).toBeUndefined();
      const revisions = events.map((e) => e.modRevision);
      expect([...revisions].sort((x, y) => x - y)).toEqual(revisions);
      expect(revisions[0]).toBeGreaterThan(a.modRevision);
    });

    test('watch from 0 starts now; stop ends delivery', async () => {
      await store.create(key('before'), text('x'));
      const recorder = await watch(prefix, 0);
      const after = await store.create(key('after'), text('y'));
      const events = await recorder.waitForEvents(1);
      expect(events.map((e) => e.key)).toEqual([key('after')]);
      expect(events[0].modRevision).toBe(after.modRevision);
      recorder.stop();
      await store.create(key('stopped'), text('z'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(recorder.events).toHaveLength(1);
      expect(recorder.errors).toEqual([]);
    });

    test('watch never skips or reorders under concurrent writers', async () => {
      const start = await store.currentRevision();
      const recorder = await watch(prefix, start);
      const writers = 5;
      const perWriter = 30;
      const acknowledged: number[] = [];
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          for (let i = 0; i < perWriter; i++) {
            const kv =
              i === 0
                ? await store.create(key(`w${w}`), text('0'))
                : await store.update(key(`w${w}`), text(String(i)));
            acknowledged.push(kv.modRevision);
          }
        }),
      );
      const events = await recorder.waitForEvents(writers * perWriter);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(recorder.events).toHaveLength(writers * perWriter);
      const revisions = events.map((e) => e.modRevision);
      for (let i = 1; i < revisions.length; i++) expect(revisions[i]).toBeGreaterThan(revisions[i - 1]);
      expect(revisions).toEqual([...acknowledged].sort((x, y) => x - y));
      for (let w = 0; w < writers; w++) {
        const values = events.filter((e) => e.key === key(`w${w}`)).map((e) => e.value.toString());
        expect(values).toEqual(Array.from({ length: perWriter }, (_, i) => String(i)));
      }
    });

    test('a prefix watch does not see other prefixes', async () => {
      const from = await store.currentRevision();
      const recorder = await watch(key('dir/'), from);
      await store.create(key('dir'), text('sibling'));
      await store.create(key('dir2/x'), text('other'));
      await store.create(key('dir/x'), text('mine'));
      await store.create(key('other/y'), text('other'));
      await store.create(key('dir/y'), text('mine'));
      await recorder.waitForEvents(2);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(recorder.events.map((e) => e.key)).toEqual([key('dir/x'), key('dir/y')]);
    });

    test('delete events carry the previous value', async () => {
      const from = await store.currentRevision();
      const recorder = await watch(prefix, from);
      const created = await store.create(key('a'), text('one'));
      await store.update(key('a'), text('two'));
      const deleted = await store.delete(key('a'));
      const [, update, del] = await recorder.waitForEvents(3);
      expect(update.prevValue?.toString()).toBe('one');
      expect(del).toMatchObject({ type: 'delete', key: key('a'), modRevision: deleted.modRevision });
      expect(del.prevValue?.toString()).toBe('two');
      expect(del.value.toString()).toBe('two');
      expect(del.createRevision).toBe(created.createRevision);
    });

    test('a key written with a time to live is deleted when it runs out, unless written again', async () => {
      const from = await store.currentRevision();
      const recorder = await watch(prefix, from);
      const ttl = { ttlSeconds: 1 };
      await store.create(key('expires'), text('gone soon'), ttl);
      // written again without one: the earlier time to live no longer counts
      await store.create(key('cleared'), text('one'), ttl);
      await store.update(key('cleared'), text('two'));
      // written again with a longer one
      await store.create(key('extended'), text('one'), ttl);
      await store.update(key('extended'), text('two'), undefined, { ttlSeconds: 60 });
      // deleted and created again without one
      await store.create(key('recreated'), text('one'), ttl);
      await store.delete(key('recreated'));
      await store.create(key('recreated'), text('two'));
      await store.create(key('plain'), text('stays'));

      const started = Date.now();
      await waitUntil(
        () => recorder.events.some((e) => e.type === 'delete' && e.key === key('expires')),
        15_000,
        () => 'expected the delete of the expired key',
      );
      const expired = recorder.events.find((e) => e.type === 'delete' && e.key === key('expires'))!;
      expect(expired.value.toString()).toBe('gone soon');
      expect(await store.get(key('expires'))).toBeUndefined();
      // as long again as the first one took: the others had as much time to go wrongly
      await new Promise((resolve) => setTimeout(resolve, Math.max(1500, Date.now() - started)));
      expect(str(await store.get(key('cleared')))).toBe('two');
      expect(str(await store.get(key('extended')))).toBe('two');
      expect(str(await store.get(key('recreated')))).toBe('two');
      expect(str(await store.get(key('plain')))).toBe('stays');
      expect(recorder.events.filter((e) => e.type === 'delete').map((e) => e.key)).toEqual([
        key('recreated'),
        key('expires'),
      ]);
    });

    test('compaction: reads and watches before the compacted revision fail with Compacted', async () => {
      const old = await store.create(key('a'), text('1'));
      await store.update(key('a'), text('2'));
      await store.create(key('b'), text('3'));
      const mark = await store.currentRevision();
      await store.update(key('a'), text('4'));
      await store.delete(key('b'));
      await store.compact(mark);
      expect(await store.compactedRevision()).toBe(mark);

      await expectCode(store.list(prefix, { revision: old.modRevision }), 'Compacted');
      const atMark = await store.list(prefix, { revision: mark });
      expect(atMark.items.map((kv) => [kv.key, str(kv)])).toEqual([
        [key('a'), '2'],
        [key('b'), '3'],
      ]);
      const tooOld = await watch(prefix, old.modRevision);
      const error = await tooOld.waitForError();
      expect(error).toBeInstanceOf(StorageError);
      expect((error as StorageError).code).toBe('Compacted');
      expect(tooOld.events).toEqual([]);

      const fromMark = await watch(prefix, mark);
      const events = await fromMark.waitForEvents(2);
      expect(events.map((e) => [e.type, e.key])).toEqual([
        ['put', key('a')],
        ['delete', key('b')],
      ]);
      expect(events[0].prevValue?.toString()).toBe('2');
      expect(events[1].value.toString()).toBe('3');
      // Compacting again to an older revision is a no-op.
      await store.compact(old.modRevision);
      expect(await store.compactedRevision()).toBe(mark);
      expect(str(await store.get(key('a')))).toBe('4');
    });

    test('currentRevision increases with every write and never goes back', async () => {
      const seen = [await store.currentRevision()];
      for (let i = 0; i < 5; i++) {
        const kv = await store.create(key(`r${i}`), text('x'));
        const current = await store.currentRevision();
        expect(current).toBeGreaterThanOrEqual(kv.modRevision);
        seen.push(current);
      }
      await expectCode(store.delete(key('nope')), 'NotFound');
      seen.push(await store.currentRevision());
      for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
      expect(seen[5]).toBeGreaterThan(seen[0]);
    });

    test('guaranteedUpdate: 20 concurrent increments all land', async () => {
      await store.create(key('counter'), text('0'));
      const increment = () =>
        guaranteedUpdate(store, key('counter'), (current) =>
          text(String(Number(current!.value.toString()) + 1)),
        );
      const results = await Promise.all(Array.from({ length: 20 }, increment));
      expect(str(await store.get(key('counter')))).toBe('20');
      expect(new Set(results.map((kv) => kv.value.toString())).size).toBe(20);

      const created = await guaranteedUpdate(
        store,
        key('fresh'),
        (current) => text(current ? 'update' : 'create'),
        {
          ignoreNotFound: true,
        },
      );
      expect(str(created)).toBe('create');
      await expectCode(
        guaranteedUpdate(store, key('absent'), () => text('x')),
        'NotFound',
      );
      const unchanged = await guaranteedUpdate(store, key('fresh'), () => undefined);
      expect(unchanged.modRevision).toBe(created.modRevision);
    });
  });
}
