/**
 * Protobuf bytes laid out by hand, for test vectors written from Kubernetes' published field numbers
 * (k8s.io/api/<group>/<version>/generated.proto): what the codec decodes must be what Kubernetes
 * writes, not merely what the codec itself encodes.
 */

/** A varint. */
export function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 127) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/** A length-delimited field (a message, bytes or a string). */
export function bytes(field: number, data: number[]): number[] {
  return [...varint((field << 3) | 2), ...varint(data.length), ...data];
}

/** A string field. */
export function str(field: number, s: string): number[] {
  return bytes(field, [...Buffer.from(s, 'utf8')]);
}

/** A varint field (an integer or a bool). */
export function int(field: number, n: number): number[] {
  return [...varint(field << 3), ...varint(n)];
}
