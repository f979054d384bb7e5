import { createHash, createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';

/** The issuer of secret-based (legacy) service-account tokens. */
export const legacyServiceAccountIssuer = 'kubernetes/serviceaccount';

/** The claims of a secret-based service-account token. */
export const legacyServiceAccountClaims = {
  namespace: 'kubernetes.io/serviceaccount/namespace',
  secretName: 'kubernetes.io/serviceaccount/secret.name',
  serviceAccountName: 'kubernetes.io/serviceaccount/service-account.name',
  serviceAccountUID: 'kubernetes.io/serviceaccount/service-account.uid',
} as const;

/** The username of a service account. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/** The key id of a token header: unpadded base64url of the SHA-256 of the public key's DER. */
export function keyID(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64url');
}

/** The JWS algorithm of a signing key: RS256 for RSA, ES256/ES384/ES512 by ECDSA curve. */
export function jwtAlgorithm(key: KeyObject): 'RS256' | 'ES256' | 'ES384' | 'ES512' {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return 'ES256';
    if (curve === 'secp384r1') return 'ES384';
    if (curve === 'secp521r1') return 'ES512';
    throw new Error(`unsupported ECDSA curve ${curve ?? '(unknown)'}: want P-256, P-384 or P-521`);
  }
  throw new Error(`unsupported key type ${key.asymmetricKeyType ?? key.type}: want RSA or ECDSA`);
}

const digestOf = { RS256: 'sha256', ES256: 'sha256', ES384: 'sha384', ES512: 'sha512' } as const;

/** A compact JWS of `claims`, its header naming the algorithm and the key id. */
export function signJWT(key: KeyObject, claims: Record<string, unknown>): string {
  const alg = jwtAlgorithm(key);
  const encode = (part: unknown): string => Buffer.from(JSON.stringify(part)).toString('base64url');
  const input = `${encode({ alg, kid: keyID(key) })}.${encode(claims)}`;
  // a JWS carries an ECDSA signature as r || s, not DER
  const signature = sign(digestOf[alg], Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

/**
 * The private key of a PEM file (Kubernetes' PrivateKeyFromFile): the first RSA or ECDSA private key
 * block in PKCS#1, SEC 1 or PKCS#8 form; other blocks (EC PARAMETERS, certificates) are skipped.
 */
export function parsePrivateKeyPEM(pem: string): KeyObject {
  const blocks = pem.match(/-----BEGIN ((?:RSA |EC )?PRIVATE KEY)-----[\s\S]+?-----END \1-----/g) ?? [];
  for (const block of blocks) {
    let key: KeyObject;
    try {
      key = createPrivateKey(block);
    } catch {
      continue;
    }
    if (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'ec') return key;
  }
  throw new Error('data does not contain a valid RSA or ECDSA private key');
}

/** The service account and secret a secret-based token names. */
export interface LegacyTokenSubject {
  namespace: string;
  name: string;
  uid: string;
  secretName: string;
}

/** A secret-based (non-expiring) service-account token, as the tokens controller puts in a secret. */
export async function signLegacyServiceAccountToken(
  privateKey: string | KeyObject,
  account: LegacyTokenSubject,
): Promise<string> {
  const key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  return signJWT(key, {
    iss: legacyServiceAccountIssuer,
    [legacyServiceAccountClaims.namespace]: account.namespace,
    [legacyServiceAccountClaims.secretName]: account.secretName,
    [legacyServiceAccountClaims.serviceAccountName]: account.name,
    [legacyServiceAccountClaims.serviceAccountUID]: account.uid,
    sub: serviceAccountUsername(account.namespace, account.name),
  });
}
