import { createHmac } from 'node:crypto';

/**
 * The detached JWS (RFC 7515, appendix F) of `content` signed with a bootstrap token, as
 * Kubernetes computes it: HS256 keyed with the token secret, the protected header
 * `{"alg":"HS256","kid":"<token-id>"}`, serialized compactly with the payload left out
 * (`header..signature`).
 */
export function detachedSignature(content: string, tokenID: string, tokenSecret: string): string {
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', kid: tokenID })).toString('base64url');
  const payload = Buffer.from(content, 'utf8').toString('base64url');
  const signature = createHmac('sha256', Buffer.from(tokenSecret, 'utf8'))
    .update(`${header}.${payload}`)
    .digest('base64url');
  return `${header}..${signature}`;
}
