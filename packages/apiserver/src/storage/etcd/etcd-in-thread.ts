import { ThreadStorage } from '../worker/thread-storage';
import type { EtcdStorageOptions } from './etcd-storage';

/**
 * The etcd backend with its client in a storage thread of its own (see {@link ThreadStorage}). The
 * options are copied to the thread, so they hold data only (no fault-handling policies).
 */
export function etcdStorageInThread(options: EtcdStorageOptions): ThreadStorage {
  return new ThreadStorage({ module: require.resolve('./etcd-storage'), exportName: 'EtcdStorage', options });
}
