import { join } from 'node:path';
import { report, runConcurrently, timed } from '../testing/measure';
import { tempDir } from '../testing/temp-dir';
import { SqliteStorage } from './sqlite-storage';

describe('embedded store throughput (file on disk, synchronous=NORMAL)', () => {
  const dir = tempDir('sqlite-perf');
  let store: SqliteStorage;

  beforeAll(() => {
    store = new SqliteStorage(join(dir.path, 'perf.db'), { compactionIntervalMs: 0 });
  });

  afterAll(async () => {
    await store.close();
    dir.remove();
  });

  test('creates per second, one transaction each', async () => {
    const value = Buffer.from(
      JSON.stringify({ kind: 'Pod', metadata: { name: 'x' }, spec: { a: 'b'.repeat(300) } }),
    );
    const count = 20_000;
    const ms = await timed(async () => {
      for (let i = 0; i < count; i++)
        await store.create(`/registry/pods/perf/p${String(i).padStart(6, '0')}`, value);
    });
    const rate = Math.round((count / ms) * 1000);
    report(`embedded: ${rate} creates/s (${count} creates of ${value.length} B in ${ms.toFixed(0)} ms)`);
    expect(rate).toBeGreaterThan(1000);
  });

  test('creates per second with 64 in flight (group commit)', async () => {
    const value = Buffer.from('x'.repeat(354));
    const count = 20_000;
    const ms = await timed(() =>
      runConcurrently(count, 64, (i) => store.create(`/registry/pods/concurrent/p${i}`, value)),
    );
    const rate = Math.round((count / ms) * 1000);
    report(`embedded: ${rate} creates/s with 64 in flight (${count} creates in ${ms.toFixed(0)} ms)`);
    expect(rate).toBeGreaterThan(1000);
  });

  test('writes go on while a large compaction runs', async () => {
    // Supersede the 20,000 rows written above so that compaction has history to remove.
    await runConcurrently(20_000, 64, (i) =>
      store.update(`/registry/pods/concurrent/p${i}`, Buffer.from('y')),
    );
    const mark = await store.currentRevision();
    let stop = false;
    let writes = 0;
    let worst = 0;
    const writer = (async () => {
      for (let i = 0; !stop; i++) {
        const start = process.hrtime.bigint();
        await store.create(`/registry/pods/during/p${i}`, Buffer.from('x'));
        worst = Math.max(worst, Number(process.hrtime.bigint() - start) / 1e6);
        writes++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const ms = await timed(() => store.compact(mark));
    stop = true;
    await writer;
    report(
      `embedded: compaction of ${mark} revisions took ${ms.toFixed(0)} ms; ${writes} creates meanwhile, slowest ${worst.toFixed(1)} ms`,
    );
    expect(writes).toBeGreaterThan(0);
    expect(worst).toBeLessThan(1000);
  });

  test('list of 10k keys', async () => {
    const keys = 10_000;
    const all = await store.list('/registry/pods/perf/', { limit: keys });
    expect(all.items).toHaveLength(keys);
    const whole = await timed(() => store.list('/registry/pods/perf/', { limit: keys }));
    const revision = all.revision;
    await store.update(all.items[0].key, Buffer.from('changed'));
    let chunks = 0;
    const chunked = await timed(async () => {
      let page = await store.list('/registry/pods/perf/', { revision, limit: 500 });
      let got = page.items.length;
      chunks++;
      while (got < keys) {
        page = await store.list('/registry/pods/perf/', {
          revision,
          limit: 500,
          startKey: `${page.items[page.items.length - 1].key}\0`,
        });
        got += page.items.length;
        chunks++;
      }
    });
    report(`embedded: list 10k keys at the current revision ${whole.toFixed(1)} ms`);
    report(`embedded: list 10k keys at a past revision in ${chunks} chunks of 500 ${chunked.toFixed(1)} ms`);
    expect(whole).toBeLessThan(2000);
  });
});
