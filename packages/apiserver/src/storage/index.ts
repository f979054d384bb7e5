export type {
  KV,
  ListOptions,
  ListResult,
  Storage,
  WatchEvent,
  WatchEventType,
  WatchHandle,
  WatchOptions,
  WriteOptions,
} from './storage';
export { StorageError, isStorageError, type StorageErrorCode } from './storage-error';
export { guaranteedUpdate, type GuaranteedUpdateOptions } from './guaranteed-update';
export { prefixEnd } from './key-range';
export { PeriodicCompactor, type PeriodicCompactorOptions } from './periodic-compactor';
export { SqliteStorage, type SqliteStorageOptions } from './embedded/sqlite-storage';
export { EtcdStorage, type EtcdStorageOptions } from './etcd/etcd-storage';
export { EtcdKVClient, int64, type EtcdKVClientOptions } from './etcd/etcd-kv-client';
export { Cacher, type CacherOptions } from './cacher/cacher';
