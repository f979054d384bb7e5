/** The root every storage key of orch-apiserver starts with (see registry/keys.ts). */
export const STORAGE_ROOT = '/registry';

/**
 * Where orch's storage keys live in etcd: under `--etcd-prefix` (default `/registry`) instead of
 * their own root, as kube-apiserver prefixes its keys, so that several clusters can share one etcd.
 */
export class EtcdKeys {
  private readonly same: boolean;

  constructor(private readonly prefix = STORAGE_ROOT) {
    if (!prefix.startsWith('/')) throw new Error(`etcd prefix "${prefix}" must start with "/"`);
    this.prefix = prefix.replace(/\/+$/, '') || '/';
    this.same = this.prefix === STORAGE_ROOT;
  }

  /** The etcd key of a storage key (or key prefix). */
  toEtcd(key: string): Buffer {
    if (this.same) return Buffer.from(key);
    if (key !== STORAGE_ROOT && !key.startsWith(`${STORAGE_ROOT}/`)) {
      throw new Error(`storage key "${key}" is not under ${STORAGE_ROOT}`);
    }
    const rest = key.slice(STORAGE_ROOT.length);
    return Buffer.from(this.prefix === '/' ? rest || '/' : this.prefix + rest);
  }

  /** The storage key of an etcd key under the prefix. */
  fromEtcd(key: Buffer): string {
    const text = key.toString();
    if (this.same) return text;
    return STORAGE_ROOT + (this.prefix === '/' ? text : text.slice(this.prefix.length));
  }
}
