import { createCertificateRequest } from '@orch/component-base';
import { httpsRequest } from '../../testing/https-request';
import { startTestAPIServer, type TestAPIServer } from '../../testing/test-apiserver';

const csrs = '/apis/certificates.k8s.io/v1/certificatesigningrequests';

describe('CertificateSubjectRestriction admission', () => {
  let s: TestAPIServer;
  const create = (name: string, organizations: string[], signerName: string) =>
    httpsRequest(s.url + csrs, {
      ca: s.ca,
      method: 'POST',
      body: {
        apiVersion: 'certificates.k8s.io/v1',
        kind: 'CertificateSigningRequest',
        metadata: { name },
        spec: {
          request: Buffer.from(createCertificateRequest(name, organizations).request).toString('base64'),
          signerName,
          usages: ['client auth'],
        },
      },
    });

  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: ['CertificateSubjectRestriction'] });
  });
  afterAll(() => s.close());

  it('refuses a kube-apiserver-client request for the system:masters group', async () => {
    const r = await create('root', ['devs', 'system:masters'], 'kubernetes.io/kube-apiserver-client');
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      message:
        'certificatesigningrequests.certificates.k8s.io "root" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed',
    });
    expect((await httpsRequest(`${s.url}${csrs}/root`, { ca: s.ca })).status).toBe(404);
  });

  it('admits other groups and other signers', async () => {
    expect((await create('dave', ['devs'], 'kubernetes.io/kube-apiserver-client')).status).toBe(201);
    expect((await create('custom', ['system:masters'], 'example.com/signer')).status).toBe(201);
  });
});
