/**
 * The manager recorded for a write: the fieldManager parameter, else the User-Agent up to its first '/'
 * (`kubectl/v1.29.0 (linux/amd64) ...` → `kubectl`), printable characters only, at most 128 bytes — as
 * Kubernetes derives it.
 */
export function managerOrUserAgent(fieldManager: string | undefined, userAgent: string | undefined): string {
  if (fieldManager) return fieldManager;
  const prefix = (userAgent ?? '').split('/')[0]!;
  let out = '';
  let bytes = 0;
  for (const ch of prefix) {
    if (/\p{C}/u.test(ch)) continue;
    const size = Buffer.byteLength(ch);
    if (bytes + size > 128) break;
    out += ch;
    bytes += size;
  }
  return out;
}
