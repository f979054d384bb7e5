/** The label carrying a ReplicaSet's template hash. */
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

/** Kubernetes' SafeEncodeString alphabet: no vowels and no look-alike characters. */
const SAFE_ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/** Maps every character to the safe alphabet (Kubernetes' rand.SafeEncodeString). */
export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += SAFE_ALPHANUMS[s.charCodeAt(i) % SAFE_ALPHANUMS.length];
  return out;
}

/** 32-bit FNV-1a over bytes. */
export function fnv32a(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i]!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * A stable serialization: object keys sorted, absent/null values and empty maps and lists left
 * out, so templates that Kubernetes' semantic equality treats as equal serialize the same.
 */
export function canonicalJSON(value: unknown): string {
  return JSON.stringify(normalize(value)) ?? '';
}

function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map((v) => normalize(v) ?? null);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = normalize((value as Record<string, unknown>)[key]);
      if (v !== undefined) out[key] = v;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return value === null ? undefined : value;
}

/**
 * The pod-template-hash of a template (Kubernetes' ComputeHash): FNV-32a over the template's
 * serialization followed by the collision count as four little-endian bytes when set, the decimal
 * sum rendered with the safe alphabet. The serialization is orch's canonical JSON.
 */
export function computeHash(template: unknown, collisionCount?: number): string {
  let h = fnv32a(Buffer.from(canonicalJSON(template), 'utf8'));
  if (collisionCount !== undefined && collisionCount !== null) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(collisionCount >>> 0);
    h = fnv32a(b, h);
  }
  return safeEncodeString(String(h));
}
