/**
 * The smallest byte string greater than every key that starts with `prefix`, comparing keys by
 * their UTF-8 bytes (etcd's "range end" of a prefix). Undefined when there is no such bound (empty
 * prefix, or a prefix made of 0xff bytes only), which means "to the end of the key space".
 */
export function prefixEnd(prefix: string | Buffer): Buffer | undefined {
  const bytes = typeof prefix === 'string' ? Buffer.from(prefix, 'utf8') : prefix;
  for (let i = bytes.length - 1; i >= 0; i--) {
    if (bytes[i] < 0xff) {
      const end = Buffer.from(bytes.subarray(0, i + 1));
      end[i] += 1;
      return end;
    }
  }
  return undefined;
}

/** The first key of a list: `startKey` when it lies inside the prefix range, else the prefix. */
export function rangeStart(prefix: string, startKey: string | undefined): Buffer {
  const p = Buffer.from(prefix, 'utf8');
  if (startKey === undefined) return p;
  const s = Buffer.from(startKey, 'utf8');
  return Buffer.compare(s, p) > 0 ? s : p;
}
