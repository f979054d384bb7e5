import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { etcdStorageInThread } from '../storage/etcd/etcd-in-thread';
import type { SqliteStorage } from '../storage/embedded/sqlite-storage';
import type { Storage } from '../storage/storage';

export interface StorageConfig {
  backend: 'etcd3' | 'embedded';
  etcdServers: string[];
  etcdCompactionIntervalMs: number;
  embeddedDir: string;
}

/**
 * The storage backend the flags name. Only the chosen backend's module is loaded: the etcd client
 * (etcd3, gRPC) and the embedded store (better-sqlite3) each cost several megabytes resident.
 * The etcd client runs in its own thread (see `ThreadStorage`): its calls (gRPC over HTTP/2, and
 * the watch streams) cost CPU beside the request handling, on the other core.
 */
export function createStorage(config: StorageConfig): Storage {
  if (config.backend === 'embedded') {
    mkdirSync(config.embeddedDir, { recursive: true });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { SqliteStorage: Sqlite } = require('../storage/embedded/sqlite-storage') as {
      SqliteStorage: typeof SqliteStorage;
    };
    return new Sqlite(join(config.embeddedDir, 'orch.db'));
  }
  return etcdStorageInThread({
    endpoints: config.etcdServers,
    compactionIntervalMs: config.etcdCompactionIntervalMs,
  });
}
