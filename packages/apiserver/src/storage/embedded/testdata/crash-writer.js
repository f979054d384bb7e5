/* global setImmediate */
// Child process of the embedded crash test. Runs the real embedded store (transpiled storage code
// in argv[2]) on the file argv[3] with concurrent writers and frequent automatic compaction, and
// prints one line per acknowledged write: "<writer> <iteration> <op> <key> <revision> <value>".
// Writes to a pipe are synchronous on Linux, so a printed line was acknowledged before the next
// write of that writer started. The test kills this process with SIGKILL at some point.
const path = require('path');
const { SqliteStorage } = require(path.join(process.argv[2], 'embedded', 'sqlite-storage.js'));

const store = new SqliteStorage(process.argv[3], {
  historyRetentionMs: 20,
  compactionIntervalMs: 10,
  compactionBatchRevisions: 100,
});
const WRITERS = 4;
const KEYS_PER_WRITER = 50;

async function writer(w) {
  const live = new Set();
  for (let i = 0; ; i++) {
    const key = `/registry/crash/w${w}/k${i % KEYS_PER_WRITER}`;
    const value = `${w}-${i}`;
    let kv;
    let op;
    if (!live.has(key)) {
      op = 'create';
      kv = await store.create(key, Buffer.from(value));
      live.add(key);
    } else if (i % 7 === 0) {
      op = 'delete';
      kv = await store.delete(key);
      live.delete(key);
    } else {
      op = 'update';
      kv = await store.update(
        key,
        Buffer.from(value),
        i % 2 === 0 ? undefined : (await store.get(key)).modRevision,
      );
    }
    process.stdout.write(`${w} ${i} ${op} ${key} ${kv.modRevision} ${value}\n`);
    // Let the other writers and the compactor interleave.
    if (i % 5 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
}

for (let w = 0; w < WRITERS; w++) {
  writer(w).catch((error) => {
    process.stderr.write(`writer ${w}: ${error.stack}\n`);
    process.exit(1);
  });
}
