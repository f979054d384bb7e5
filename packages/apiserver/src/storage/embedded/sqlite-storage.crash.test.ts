import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { WatchEvent } from '../storage';
import { compileStorage } from '../testing/compile-storage';
import { tempDir } from '../testing/temp-dir';
import { SqliteStorage } from './sqlite-storage';

interface Ack {
  writer: number;
  iteration: number;
  op: 'create' | 'update' | 'delete';
  key: string;
  revision: number;
  value: string;
}

const NODE_MODULES = join(__dirname, '..', '..', '..', '..', '..', 'node_modules');

describe('embedded store: process killed with SIGKILL while writing', () => {
  const dir = tempDir('sqlite-crash');
  const compiled = join(dir.path, 'compiled');
  const file = join(dir.path, 'store.db');
  const acks: Ack[] = [];

  beforeAll(async () => {
    compileStorage(compiled);
    const child = spawn(process.execPath, [join(__dirname, 'testdata', 'crash-writer.js'), compiled, file], {
      env: { ...process.env, NODE_PATH: NODE_MODULES },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    const lines = createInterface({ input: child.stdout });
    const done = new Promise<void>((resolve) => lines.once('close', resolve));
    lines.on('line', (line) => {
      const [writer, iteration, op, key, revision, value] = line.split(' ');
      acks.push({
        writer: +writer,
        iteration: +iteration,
        op: op as Ack['op'],
        key,
        revision: +revision,
        value,
      });
      if (acks.length === 3000) child.kill('SIGKILL');
    });
    const signal = await exited;
    await done;
    if (signal !== 'SIGKILL') throw new Error(`writer did not get killed (${signal}): ${stderr}`);
  }, 60_000);

  afterAll(() => dir.remove());

  test('every acknowledged write is there after reopening', async () => {
    expect(acks.length).toBeGreaterThanOrEqual(3000);
    const store = new SqliteStorage(file, { compactionIntervalMs: 0 });
    try {
      // Each writer may have committed one more write than it printed: its next iteration's key.
      const lastIteration = new Map<number, number>();
      for (const ack of acks) lastIteration.set(ack.writer, ack.iteration);
      const uncertain = new Set([...lastIteration].map(([w, i]) => `/registry/crash/w${w}/k${(i + 1) % 50}`));
      const last = new Map<string, Ack>();
      for (const ack of acks) last.set(ack.key, ack);
      let checked = 0;
      for (const [key, ack] of last) {
        if (uncertain.has(key)) continue;
        const kv = await store.get(key);
        if (ack.op === 'delete') expect(kv).toBeUndefined();
        else expect([kv?.value.toString(), kv?.modRevision]).toEqual([ack.value, ack.revision]);
        checked++;
      }
      expect(checked).toBeGreaterThan(150);

      const revisions = acks.map((a) => a.revision);
      expect(new Set(revisions).size).toBe(revisions.length);
      const current = await store.currentRevision();
      expect(current).toBeGreaterThanOrEqual(Math.max(...revisions));
      expect(current).toBeLessThanOrEqual(Math.max(...revisions) + 4);
    } finally {
      await store.close();
    }
  });

  test('the reopened store is consistent: past state plus history gives the current state', async () => {
    const store = new SqliteStorage(file, { compactionIntervalMs: 0 });
    try {
      const compacted = await store.compactedRevision();
      const current = await store.currentRevision();
      expect(compacted).toBeGreaterThan(0); // compaction ran during the writes
      const state = new Map(
        (await store.list('/registry/crash/', { revision: compacted })).items.map((kv) => [
          kv.key,
          kv.value.toString(),
        ]),
      );
      const events: WatchEvent[] = [];
      const handle = await store.watch(
        '/registry/crash/',
        compacted,
        (e) => events.push(e),
        (e) => {
          throw e;
        },
      );
      await new Promise((resolve) => setImmediate(resolve));
      handle.stop();
      expect(events.length).toBe(current - compacted);
      events.forEach((e, i) => expect(e.modRevision).toBe(compacted + i + 1));
      for (const e of events) {
        if (e.type === 'delete') {
          expect(state.get(e.key)).toBe(e.value.toString());
          state.delete(e.key);
        } else {
          expect(state.get(e.key)).toBe(e.prevValue?.toString());
          state.set(e.key, e.value.toString());
        }
      }
      const now = (await store.list('/registry/crash/')).items.map((kv) => [kv.key, kv.value.toString()]);
      expect(now).toEqual([...state].sort(([a], [b]) => (a < b ? -1 : 1)));

      const next = await store.create('/registry/crash/after', Buffer.from('x'));
      expect(next.modRevision).toBe(current + 1);
    } finally {
      await store.close();
    }
  });
});
