import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SqliteStorage } from '../storage/embedded/sqlite-storage';
import type { EtcdStorage } from '../storage/etcd/etcd-storage';
import type { Storage } from '../storage/storage';

export interface StorageConfig {
  backend: 'etcd3' | 'embedded';
  etcdServers: string[];
  etcdCompactionIntervalMs: number;
  /** `--etcd-prefix`; `/registry` when absent. */
  etcdPrefix?: string;
  /** `--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile` (PEM files); empty or absent: none. */
  etcdCAFile?: string;
  etcdCertFile?: string;
  etcdKeyFile?: string;
  embeddedDir: string;
}

/**
 * The storage backend the flags name. Only the chosen backend's module is loaded: the etcd clients
 * (etcd3 and gRPC for watches) and the embedded store (better-sqlite3) each cost several megabytes
 * resident.
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
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { EtcdStorage: Etcd } = require('../storage/etcd/etcd-storage') as {
    EtcdStorage: typeof EtcdStorage;
  };
  const file = (path: string | undefined) => (path ? readFileSync(path) : undefined);
  const tls = { ca: file(config.etcdCAFile), cert: file(config.etcdCertFile), key: file(config.etcdKeyFile) };
  return new Etcd({
    endpoints: config.etcdServers,
    compactionIntervalMs: config.etcdCompactionIntervalMs,
    prefix: config.etcdPrefix,
    tls: tls.ca || tls.cert ? tls : undefined,
  });
}
