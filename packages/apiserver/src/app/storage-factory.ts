import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { EtcdStorage } from '../storage/etcd/etcd-storage';
import { SqliteStorage } from '../storage/embedded/sqlite-storage';
import type { Storage } from '../storage/storage';

export interface StorageConfig {
  backend: 'etcd3' | 'embedded';
  etcdServers: string[];
  etcdCompactionIntervalMs: number;
  embeddedDir: string;
}

/** The storage backend the flags name. */
export function createStorage(config: StorageConfig): Storage {
  if (config.backend === 'embedded') {
    mkdirSync(config.embeddedDir, { recursive: true });
    return new SqliteStorage(join(config.embeddedDir, 'orch.db'));
  }
  return new EtcdStorage({
    endpoints: config.etcdServers,
    compactionIntervalMs: config.etcdCompactionIntervalMs,
  });
}
