import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpsRequest, startAPIServerProcess, type APIServerProcess } from '@orch/apiserver';
import { createCA, issueCertificate, type PemPair } from '@orch/component-base';

/**
 * orch-apiserver with the `--requestheader-*` flags: a front proxy's certificate vouches for the user
 * its headers name, and the settings are published for delegating daemons.
 */
describe('orch-apiserver --requestheader-* (front-proxy authentication)', () => {
  let api: APIServerProcess;
  let dir: string;
  let frontProxyCA: PemPair;
  let proxy: PemPair;
  let otherProxy: PemPair;
  let rogue: PemPair;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-requestheader-'));
    frontProxyCA = createCA('front-proxy-ca');
    proxy = issueCertificate({ commonName: 'front-proxy-client', usage: 'client' }, frontProxyCA);
    otherProxy = issueCertificate({ commonName: 'some-other-client', usage: 'client' }, frontProxyCA);
    rogue = issueCertificate({ commonName: 'front-proxy-client', usage: 'client' }, createCA('rogue-ca'));
    writeFileSync(join(dir, 'front-proxy-ca.crt'), frontProxyCA.cert);
    api = await startAPIServerProcess({
      args: [
        `--requestheader-client-ca-file=${join(dir, 'front-proxy-ca.crt')}`,
        '--requestheader-allowed-names=front-proxy-client',
        '--requestheader-username-headers=X-Remote-User',
        '--requestheader-group-headers=X-Remote-Group',
        '--requestheader-extra-headers-prefix=X-Remote-Extra-',
      ],
    });
  });
  afterAll(async () => {
    await api?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Who the server takes the request for (SelfSubjectReview), or the answer's status when refused. */
  async function whoIs(cert: PemPair, headers: Record<string, string>): Promise<unknown> {
    const r = await httpsRequest(`${api.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`, {
      method: 'POST',
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      ca: api.pki.ca,
      cert: cert.cert,
      key: cert.key,
      headers,
    });
    return r.status === 201 ? r.json.status.userInfo : r.status;
  }

  const asAlice = {
    'X-Remote-User': 'alice',
    'X-Remote-Group': 'devs',
    'X-Remote-Extra-Scopes': 'view',
  };

  it('takes the user, groups and extra from the headers of an allowed front proxy', async () => {
    expect(await whoIs(proxy, asAlice)).toEqual({
      username: 'alice',
      groups: ['devs', 'system:authenticated'],
      extra: { scopes: ['view'] },
    });
  });

  it('refuses a front-proxy certificate whose common name is not allowed (401)', async () => {
    expect(await whoIs(otherProxy, asAlice)).toBe(401);
  });

  it('does not trust the headers of a certificate from another authority', async () => {
    // signed by neither the request-header CA nor the client CA: refused as a bad certificate
    expect(await whoIs(rogue, asAlice)).toBe(401);
    // a client-CA certificate is its own user, whatever the headers say
    const admin = { cert: api.pki.admin.cert, key: api.pki.admin.key };
    expect(await whoIs(admin, asAlice)).toMatchObject({ username: expect.not.stringMatching(/^alice$/) });
    expect(await whoIs(admin, asAlice)).toEqual(await whoIs(admin, {}));
  });

  it('publishes the request-header settings in extension-apiserver-authentication', async () => {
    const r = await httpsRequest(
      `${api.url}/api/v1/namespaces/orch-system/configmaps/extension-apiserver-authentication`,
      { ca: api.pki.ca, cert: api.pki.admin.cert, key: api.pki.admin.key },
    );
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({
      'client-ca-file': api.pki.ca,
      'requestheader-client-ca-file': frontProxyCA.cert,
      'requestheader-allowed-names': '["front-proxy-client"]',
      'requestheader-username-headers': '["X-Remote-User"]',
      'requestheader-group-headers': '["X-Remote-Group"]',
      'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
    });
  });
});
