import { statusErrors } from '../errors/status-error';

/**
 * Continue tokens as Kubernetes makes them: base64 of `{"v":"meta.k8s.io/v1","rv":<revision>,"start":"<key
 * after the prefix>"}`. The token names the snapshot revision and the key the next chunk starts at.
 */
export interface ContinueToken {
  revision: number;
  /** The next chunk's first key, relative to the resource prefix. */
  start: string;
}

export function encodeContinue(token: ContinueToken): string {
  return Buffer.from(
    JSON.stringify({ v: 'meta.k8s.io/v1', rv: token.revision, start: token.start }),
  ).toString('base64url');
}

export function decodeContinue(value: string): ContinueToken {
  let parsed: { v?: unknown; rv?: unknown; start?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as typeof parsed;
  } catch {
    throw statusErrors.badRequest(`continue key is not valid: ${value}`);
  }
  if (parsed.v !== 'meta.k8s.io/v1' || typeof parsed.rv !== 'number' || typeof parsed.start !== 'string') {
    throw statusErrors.badRequest(
      'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
    );
  }
  if (parsed.rv <= 0)
    throw statusErrors.badRequest(
      'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
    );
  if (parsed.start.includes('..') || parsed.start.startsWith('/'))
    throw statusErrors.badRequest('continue key is not valid: invalid start path');
  return { revision: parsed.rv, start: parsed.start };
}
