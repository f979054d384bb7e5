import { generateKeyPairSync } from 'node:crypto';
import { AuthenticationError } from './authentication-error';
import {
  parsePublicKeys,
  ServiceAccountTokenAuthenticator,
  signLegacyServiceAccountToken,
  signServiceAccountToken,
  type TokenObject,
} from './service-account-token';
import { BearerTokenAuthenticator } from './token-authenticator';
import { parseCSV, StaticTokenAuthenticator } from './static-token-file';

const issuer = 'https://orch.example.com';
const keyPair = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
const key = keyPair();
const otherKey = keyPair();
const authenticator = new ServiceAccountTokenAuthenticator({
  issuers: [issuer],
  keys: parsePublicKeys(key.publicKey),
  apiAudiences: [issuer],
});
const account = { namespace: 'team-a', name: 'builder', uid: 'sa-uid' };

async function detail(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(AuthenticationError);
    expect((e as AuthenticationError).code).toBe(401);
    expect((e as AuthenticationError).status.message).toBe('Unauthorized');
    return (e as AuthenticationError).detail;
  }
  throw new Error('expected an authentication failure');
}

describe('service-account tokens', () => {
  it('authenticates a bound token as the service account with its pod in extra', async () => {
    const { token, expirationTimestamp } = await signServiceAccountToken(key.privateKey, issuer, {
      ...account,
      audiences: [issuer],
      expirationSeconds: 3600,
      boundObject: { kind: 'Pod', name: 'web-0', uid: 'pod-uid' },
    });
    expect(expirationTimestamp.getTime() - Date.now()).toBeGreaterThan(3590_000);
    const result = await authenticator.authenticateToken(token);
    expect(result!.audiences).toEqual([issuer]);
    expect(result!.user).toMatchObject({
      username: 'system:serviceaccount:team-a:builder',
      uid: 'sa-uid',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:team-a'],
      extra: {
        'authentication.kubernetes.io/pod-name': ['web-0'],
        'authentication.kubernetes.io/pod-uid': ['pod-uid'],
      },
    });
    const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString());
    expect(header).toMatchObject({ alg: 'RS256' });
    expect(header.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('authenticates a legacy secret-based token', async () => {
    const token = await signLegacyServiceAccountToken(key.privateKey, {
      ...account,
      secretName: 'builder-token-x',
    });
    const result = await authenticator.authenticateToken(token);
    expect(result!.user.username).toBe('system:serviceaccount:team-a:builder');
    expect(result!.audiences).toEqual([issuer]);
  });

  it('rejects expired tokens, tokens signed by another key and tokens for other audiences', async () => {
    const expired = await signServiceAccountToken(key.privateKey, issuer, {
      ...account,
      audiences: [issuer],
      expirationSeconds: 600,
      now: new Date(Date.now() - 3600_000),
    });
    expect(await detail(authenticator.authenticateToken(expired.token))).toBe(
      'service account token has expired',
    );
    const forged = await signServiceAccountToken(otherKey.privateKey, issuer, {
      ...account,
      audiences: [issuer],
      expirationSeconds: 600,
    });
    expect(await detail(authenticator.authenticateToken(forged.token))).toBe(
      'service account token could not be verified: invalid signature',
    );
    const vault = await signServiceAccountToken(key.privateKey, issuer, {
      ...account,
      audiences: ['vault'],
      expirationSeconds: 600,
    });
    expect(await detail(authenticator.authenticateToken(vault.token))).toBe(
      'token audiences ["vault"] is invalid for the target audiences ["https://orch.example.com"]',
    );
    expect((await authenticator.authenticateToken(vault.token, ['vault']))!.audiences).toEqual(['vault']);
  });

  it('leaves tokens of other issuers and non-JWT tokens to other authenticators', async () => {
    const foreign = await signServiceAccountToken(key.privateKey, 'https://elsewhere', {
      ...account,
      audiences: [issuer],
      expirationSeconds: 600,
    });
    expect(await authenticator.authenticateToken(foreign.token)).toBeUndefined();
    expect(await authenticator.authenticateToken('not-a-jwt')).toBeUndefined();
    const bearer = new BearerTokenAuthenticator([authenticator]);
    expect(await detail(bearer.authenticateToken(foreign.token))).toBe('invalid bearer token');
  });
});

describe('static token file', () => {
  it('parses Kubernetes token CSV with quoted group lists', async () => {
    expect(parseCSV('t1,alice,u1,"a,b"\n\nt2, bob ,u2\r\n"t""3",carol,u3,\n')).toEqual([
      ['t1', 'alice', 'u1', 'a,b'],
      ['t2', 'bob ', 'u2'],
      ['t"3', 'carol', 'u3', ''],
    ]);
    const tokens = new StaticTokenAuthenticator('t1,alice,u1,"a,b"\n,nobody,u0\nt2,bob,u2\n');
    expect((await tokens.authenticateToken('t1'))!.user).toEqual({
      username: 'alice',
      uid: 'u1',
      groups: ['a', 'b'],
    });
    expect((await tokens.authenticateToken('t2'))!.user).toEqual({ username: 'bob', uid: 'u2', groups: [] });
    expect(await tokens.authenticateToken('')).toBeUndefined();
    expect(await tokens.authenticateToken('t3')).toBeUndefined();
  });

  it('rejects records with fewer than three columns', () => {
    expect(() => new StaticTokenAuthenticator('t1,alice\n', [], '/etc/tokens.csv')).toThrow(
      "token file '/etc/tokens.csv' must have at least 3 columns (token, user name, user uid), found 2",
    );
  });

  it('is valid for the server audiences only', async () => {
    const tokens = new StaticTokenAuthenticator('t1,alice,u1\n', ['api']);
    expect((await tokens.authenticateToken('t1'))!.audiences).toEqual(['api']);
    expect(await tokens.authenticateToken('t1', ['other'])).toBeUndefined();
  });
});

describe('service-account token lookup', () => {
  /** Objects by `<resource>/<namespace>/<name>`, read by the authenticator's getter. */
  let objects: Map<string, TokenObject>;
  const withLookup = (lookupLegacy = true) =>
    new ServiceAccountTokenAuthenticator({
      issuers: [issuer],
      keys: parsePublicKeys(key.publicKey),
      apiAudiences: [issuer],
      acceptLegacy: true,
      lookupLegacy,
      getter: async (resource, namespace, name) => objects.get(`${resource}/${namespace}/${name}`),
    });
  const bound = () =>
    signServiceAccountToken(key.privateKey, issuer, {
      ...account,
      audiences: [issuer],
      expirationSeconds: 3600,
      boundObject: { kind: 'Pod', name: 'web-0', uid: 'pod-uid' },
    });
  beforeEach(() => {
    objects = new Map([
      ['serviceaccounts/team-a/builder', { metadata: { uid: 'sa-uid' } }],
      ['pods/team-a/web-0', { metadata: { uid: 'pod-uid' } }],
    ]);
  });

  it('accepts a bound token while its service account and pod are there', async () => {
    const { token } = await bound();
    expect((await withLookup().authenticateToken(token))!.user.username).toBe(
      'system:serviceaccount:team-a:builder',
    );
  });

  it('refuses a bound token once its service account is deleted, being deleted, or another of that name', async () => {
    const { token } = await bound();
    objects.delete('serviceaccounts/team-a/builder');
    expect(await detail(withLookup().authenticateToken(token))).toBe(
      'service account team-a/builder has been deleted',
    );
    objects.set('serviceaccounts/team-a/builder', {
      metadata: { uid: 'sa-uid', deletionTimestamp: '2026-01-01T00:00:00Z' },
    });
    expect(await detail(withLookup().authenticateToken(token))).toBe(
      'service account team-a/builder has been deleted',
    );
    objects.set('serviceaccounts/team-a/builder', { metadata: { uid: 'new-uid' } });
    expect(await detail(withLookup().authenticateToken(token))).toBe(
      'service account UID (new-uid) does not match claim (sa-uid)',
    );
  });

  it('refuses a bound token once the pod it is bound to is gone or replaced', async () => {
    const { token } = await bound();
    objects.set('pods/team-a/web-0', { metadata: { uid: 'other-pod' } });
    expect(await detail(withLookup().authenticateToken(token))).toBe(
      'pod UID (other-pod) does not match claim (pod-uid)',
    );
    objects.delete('pods/team-a/web-0');
    expect(await detail(withLookup().authenticateToken(token))).toBe('pod team-a/web-0 has been deleted');
  });

  it('checks a secret-based token against its secret and service account with --service-account-lookup', async () => {
    const token = await signLegacyServiceAccountToken(key.privateKey, {
      ...account,
      secretName: 'builder-token-x',
    });
    const secret = (t: string) => ({
      metadata: { uid: 's' },
      data: { token: Buffer.from(t).toString('base64') },
    });
    expect(await detail(withLookup().authenticateToken(token))).toBe('Token has been invalidated');
    objects.set('secrets/team-a/builder-token-x', secret('another token'));
    expect(await detail(withLookup().authenticateToken(token))).toBe("Token does not match server's copy");
    objects.set('secrets/team-a/builder-token-x', secret(token));
    expect((await withLookup().authenticateToken(token))!.user.uid).toBe('sa-uid');
    objects.delete('serviceaccounts/team-a/builder');
    expect(await detail(withLookup().authenticateToken(token))).toBe(
      'ServiceAccount team-a/builder has been deleted',
    );
    // --service-account-lookup=false: signature and claims alone, as in Kubernetes
    expect((await withLookup(false).authenticateToken(token))!.user.uid).toBe('sa-uid');
  });
});
