import { generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import {
  jwtAlgorithm,
  keyID,
  legacyServiceAccountIssuer,
  parsePrivateKeyPEM,
  signLegacyServiceAccountToken,
} from './serviceAccountToken';

const account = { namespace: 'team-a', name: 'ci', uid: 'uid-1', secretName: 'ci-token' };

function decode(part: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** Verifies the compact JWS with the public key, as a JWT library would. */
function verifies(token: string, publicKey: KeyObject, digest: string): boolean {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  return verify(
    digest,
    Buffer.from(`${header}.${payload}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
}

describe('secret-based service account tokens', () => {
  const cases = [
    {
      name: 'RSA',
      alg: 'RS256',
      digest: 'sha256',
      pair: () => generateKeyPairSync('rsa', { modulusLength: 2048 }),
    },
    {
      name: 'P-256',
      alg: 'ES256',
      digest: 'sha256',
      pair: () => generateKeyPairSync('ec', { namedCurve: 'P-256' }),
    },
    {
      name: 'P-384',
      alg: 'ES384',
      digest: 'sha384',
      pair: () => generateKeyPairSync('ec', { namedCurve: 'P-384' }),
    },
    {
      name: 'P-521',
      alg: 'ES512',
      digest: 'sha512',
      pair: () => generateKeyPairSync('ec', { namedCurve: 'P-521' }),
    },
  ];
  test.each(cases)(
    '$name keys sign $alg tokens the public key verifies, with the legacy claims',
    async (c) => {
      const { privateKey, publicKey } = c.pair();
      const token = await signLegacyServiceAccountToken(privateKey, account);
      const [header, payload] = token.split('.') as [string, string];
      expect(decode(header)).toEqual({ alg: c.alg, kid: keyID(publicKey) });
      expect(decode(payload)).toEqual({
        iss: legacyServiceAccountIssuer,
        'kubernetes.io/serviceaccount/namespace': 'team-a',
        'kubernetes.io/serviceaccount/secret.name': 'ci-token',
        'kubernetes.io/serviceaccount/service-account.name': 'ci',
        'kubernetes.io/serviceaccount/service-account.uid': 'uid-1',
        sub: 'system:serviceaccount:team-a:ci',
      });
      expect(verifies(token, publicKey, c.digest)).toBe(true);
      const other = c.pair().publicKey;
      expect(verifies(token, other, c.digest)).toBe(false);
    },
  );

  test('a key of another type or curve is refused', () => {
    expect(() => jwtAlgorithm(generateKeyPairSync('ed25519').privateKey)).toThrow(
      /unsupported key type ed25519/,
    );
    expect(() => jwtAlgorithm(generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).privateKey)).toThrow(
      /unsupported ECDSA curve secp256k1/,
    );
  });
});

describe('parsePrivateKeyPEM', () => {
  test('reads PKCS#1 RSA, SEC 1 EC after EC PARAMETERS, and PKCS#8 keys', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const pkcs1 = rsa.export({ type: 'pkcs1', format: 'pem' }) as string;
    expect(parsePrivateKeyPEM(pkcs1).asymmetricKeyType).toBe('rsa');
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const sec1 = ec.export({ type: 'sec1', format: 'pem' }) as string;
    const params = '-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n';
    expect(parsePrivateKeyPEM(params + sec1).asymmetricKeyType).toBe('ec');
    expect(parsePrivateKeyPEM(ec.export({ type: 'pkcs8', format: 'pem' }) as string).asymmetricKeyType).toBe(
      'ec',
    );
  });

  test('a public key, an Ed25519 key or garbage is no signing key', () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const message = 'data does not contain a valid RSA or ECDSA private key';
    expect(() => parsePrivateKeyPEM(publicKey.export({ type: 'spki', format: 'pem' }) as string)).toThrow(
      message,
    );
    const ed = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    expect(() => parsePrivateKeyPEM(ed)).toThrow(message);
    expect(() =>
      parsePrivateKeyPEM('-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----\n'),
    ).toThrow(message);
  });
});
