import { isErrorLike } from '../errorMessage';

/** Renders one value the way klog's structured logging prints it. */
export function formatValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (value === undefined || value === null) return '<nil>';
  if (isErrorLike(value)) return JSON.stringify(value.message);
  try {
    return JSON.stringify(value);
  } catch {
    return JSON.stringify(String(value));
  }
}

/** Pairs up klog-style alternating key/value arguments; a dangling key gets `(MISSING)`. */
export function keyValuePairs(kv: readonly unknown[]): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (let i = 0; i < kv.length; i += 2) {
    out.push([String(kv[i]), i + 1 < kv.length ? kv[i + 1] : '(MISSING)']);
  }
  return out;
}

/** `msg="..." key="value" n=3` */
export function structuredText(msg: string, pairs: readonly [string, unknown][]): string {
  return [`msg=${JSON.stringify(msg)}`, ...pairs.map(([k, v]) => `${k}=${formatValue(v)}`)].join(' ');
}
