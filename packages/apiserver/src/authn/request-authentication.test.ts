import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSigningKey } from '@orch/component-base';
import {
  call,
  issueTestCertificate,
  startSecuredServer,
  type SecuredServer,
} from '../reviews/access-test-support';
import type { UserInfo } from './authenticator';
import { signServiceAccountToken } from './service-account-token';

const issuer = 'https://orch.test';
const ca = issueTestCertificate({ commonName: 'orch-client-ca', ca: true });
const otherCA = issueTestCertificate({ commonName: 'someone-else', ca: true });
const signing = createSigningKey();

describe('request authentication', () => {
  let s: SecuredServer;
  let keyDir: string;
  const seen: UserInfo[] = [];

  /** The user the server saw for one request (the authorizer records it and allows everything). */
  async function whoAmI(
    options: Parameters<typeof call>[2] = {},
  ): Promise<{ status: number; user?: UserInfo; body: unknown }> {
    seen.length = 0;
    const r = await call(s, '/api/v1/namespaces/default/configmaps', options);
    return { status: r.status, body: r.body, ...(seen[0] ? { user: seen[0] } : {}) };
  }

  beforeAll(async () => {
    keyDir = mkdtempSync(join(tmpdir(), 'orch-sa-keys-'));
    writeFileSync(join(keyDir, 'sa.pub'), signing.publicKey);
    s = await startSecuredServer({
      clientCA: ca.cert,
      tokenFile: 'jane-token,jane,jane-uid,"dev,qa"\n',
      serviceAccountKeyFiles: [join(keyDir, 'sa.pub')],
      serviceAccountIssuers: [issuer],
    });
    s.server.config.authorizer = {
      authorize: async (a) => {
        seen.push(a.user);
        return { decision: 'Allow', reason: '' };
      },
    };
  });
  afterAll(async () => {
    await s.close();
    rmSync(keyDir, { recursive: true, force: true });
  });

  it('maps a client certificate to its common name and organizations', async () => {
    const alice = issueTestCertificate({ commonName: 'alice', organizations: ['dev', 'ops'] }, ca);
    const r = await whoAmI({ clientCertificate: alice });
    expect(r.status).toBe(200);
    expect(r.user).toEqual({ username: 'alice', groups: ['dev', 'ops', 'system:authenticated'] });
  });

  it('verifies the chain through intermediates the client sends', async () => {
    const intermediate = issueTestCertificate({ commonName: 'orch-intermediate', ca: true }, ca);
    const leaf = issueTestCertificate({ commonName: 'carol' }, intermediate);
    const r = await whoAmI({ clientCertificate: { cert: leaf.cert + intermediate.cert, key: leaf.key } });
    expect(r.user?.username).toBe('carol');
  });

  it('refuses a presented certificate that does not verify, unless another credential authenticates', async () => {
    const mallory = issueTestCertificate(
      { commonName: 'mallory', organizations: ['system:masters'] },
      otherCA,
    );
    const untrusted = await whoAmI({ clientCertificate: mallory });
    expect(untrusted.status).toBe(401);
    expect(untrusted.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
    expect(untrusted.user).toBeUndefined();
    const expired = issueTestCertificate(
      {
        commonName: 'old',
        notBefore: new Date(Date.now() - 48 * 3600_000),
        notAfter: new Date(Date.now() - 3600_000),
      },
      ca,
    );
    expect((await whoAmI({ clientCertificate: expired })).status).toBe(401);
    const serverOnly = issueTestCertificate({ commonName: 'web', extKeyUsage: ['serverAuth'] }, ca);
    expect((await whoAmI({ clientCertificate: serverOnly })).status).toBe(401);
    const withToken = await whoAmI({ clientCertificate: mallory, token: 'jane-token' });
    expect(withToken.user?.username).toBe('jane');
  });

  it('authenticates static tokens and refuses unknown bearer tokens', async () => {
    expect((await whoAmI({ token: 'jane-token' })).user).toEqual({
      username: 'jane',
      uid: 'jane-uid',
      groups: ['dev', 'qa', 'system:authenticated'],
    });
    const bad = await whoAmI({ token: 'nope' });
    expect(bad.status).toBe(401);
    expect(bad.user).toBeUndefined();
  });

  it('authenticates service-account tokens signed with the configured key and issuer', async () => {
    const created = await call(s, '/api/v1/namespaces/default/serviceaccounts', {
      token: 'jane-token',
      body: { metadata: { name: 'robot' } },
    });
    expect(created.status).toBe(201);
    const uid = (created.body as { metadata: { uid: string } }).metadata.uid;
    const sa = {
      namespace: 'default',
      name: 'robot',
      uid,
      audiences: [issuer],
      expirationSeconds: 3600,
    };
    const good = await signServiceAccountToken(signing.privateKey, issuer, sa);
    expect((await whoAmI({ token: good.token })).user).toMatchObject({
      username: 'system:serviceaccount:default:robot',
      uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    });
    const expired = await signServiceAccountToken(signing.privateKey, issuer, {
      ...sa,
      expirationSeconds: 600,
      now: new Date(Date.now() - 7200_000),
    });
    expect((await whoAmI({ token: expired.token })).status).toBe(401);
    const wrongIssuer = await signServiceAccountToken(signing.privateKey, 'https://other', sa);
    expect((await whoAmI({ token: wrongIssuer.token })).status).toBe(401);
    const wrongKey = await signServiceAccountToken(createSigningKey().privateKey, issuer, sa);
    expect((await whoAmI({ token: wrongKey.token })).status).toBe(401);
    // a token of an account that does not exist (or no longer does) is refused, as in Kubernetes
    const ghost = await signServiceAccountToken(signing.privateKey, issuer, { ...sa, name: 'ghost' });
    expect((await whoAmI({ token: ghost.token })).status).toBe(401);
    const deleted = await call(s, '/api/v1/namespaces/default/serviceaccounts/robot', {
      token: 'jane-token',
      method: 'DELETE',
    });
    expect(deleted.status).toBe(200);
    expect((await whoAmI({ token: good.token })).status).toBe(401);
  });

  it('treats a request without credentials as anonymous, or refuses it without --anonymous-auth', async () => {
    expect((await whoAmI()).user).toEqual({
      username: 'system:anonymous',
      groups: ['system:unauthenticated'],
    });
    s.server.config.anonymousAuth = false;
    try {
      const r = await whoAmI();
      expect(r.status).toBe(401);
      expect(r.user).toBeUndefined();
      expect((await whoAmI({ token: 'jane-token' })).status).toBe(200);
    } finally {
      s.server.config.anonymousAuth = true;
    }
  });
});
