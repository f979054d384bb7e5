import { createHmac } from 'node:crypto';
import { detachedSignature } from './jws';

/** base64url without padding (RFC 7515 section 2), from plain base64. */
const b64url = (bytes: Buffer): string =>
  bytes.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** The JWS compact serialization (RFC 7515 section 7.1) of `payload`, HMAC-SHA256 over `header.payload`. */
function compactHS256(headerJSON: string, payload: string, key: string): string {
  const input = `${b64url(Buffer.from(headerJSON))}.${b64url(Buffer.from(payload))}`;
  return `${input}.${b64url(createHmac('sha256', key).update(input).digest())}`;
}

const KUBECONFIG = [
  'apiVersion: v1',
  'kind: Config',
  'clusters:',
  '- cluster:',
  '    certificate-authority-data: LS0tLS1CRUdJTi==',
  '    server: https://10.0.0.1:6443',
  '  name: ""',
  'contexts: []',
  'current-context: ""',
  'preferences: {}',
  'users: []',
  '',
].join('\n');

test('the signature is the compact JWS with the payload left out (RFC 7515 appendix F)', () => {
  const full = compactHS256('{"alg":"HS256","kid":"abcdef"}', KUBECONFIG, '0123456789abcdef').split('.');
  expect(detachedSignature(KUBECONFIG, 'abcdef', '0123456789abcdef')).toBe(`${full[0]}..${full[2]}`);
});

test('the protected header names HS256 and the token id, in that order', () => {
  const [header, payload, signature] = detachedSignature(KUBECONFIG, 'x1y2z3', '0123456789abcdef').split('.');
  expect(Buffer.from(header!, 'base64url').toString()).toBe('{"alg":"HS256","kid":"x1y2z3"}');
  expect(payload).toBe('');
  expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
});

test('the key is the token secret: another secret, id or content gives another signature', () => {
  const base = detachedSignature(KUBECONFIG, 'abcdef', '0123456789abcdef');
  expect(detachedSignature(KUBECONFIG, 'abcdef', '0123456789abcdef')).toBe(base);
  expect(detachedSignature(KUBECONFIG, 'abcdef', '0123456789abcdeg')).not.toBe(base);
  expect(detachedSignature(KUBECONFIG, 'abcdeg', '0123456789abcdef')).not.toBe(base);
  expect(detachedSignature(`${KUBECONFIG} `, 'abcdef', '0123456789abcdef')).not.toBe(base);
});

test('an empty kubeconfig is signed too', () => {
  const full = compactHS256('{"alg":"HS256","kid":"abcdef"}', '', '0123456789abcdef').split('.');
  expect(full[1]).toBe('');
  expect(detachedSignature('', 'abcdef', '0123456789abcdef')).toBe(`${full[0]}..${full[2]}`);
});
