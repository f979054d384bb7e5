import { createCertificateRequest } from '@orch/component-base';
import { call, startSecuredServer, type SecuredServer } from '../../reviews/access-test-support';

const admin = { token: 'admin-token' };
const approver = { token: 'approver-token' };
const signer = { token: 'signer-token' };
const rbac = '/apis/rbac.authorization.k8s.io/v1';
const csrs = '/apis/certificates.k8s.io/v1/certificatesigningrequests';

/** CertificateApproval and CertificateSigning: the approve and sign verbs on a request's signer. */
describe('approving and signing need the signer', () => {
  let s: SecuredServer;
  const role = (name: string, rules: object[], user: string) => [
    call(s, `${rbac}/clusterroles`, { ...admin, body: { metadata: { name }, rules } }),
    call(s, `${rbac}/clusterrolebindings`, {
      ...admin,
      body: {
        metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: user }],
      },
    }),
  ];
  const create = async (name: string, signerName: string) => {
    const r = await call(s, csrs, {
      ...admin,
      body: {
        apiVersion: 'certificates.k8s.io/v1',
        kind: 'CertificateSigningRequest',
        metadata: { name },
        spec: {
          request: Buffer.from(createCertificateRequest(name, ['devs']).request).toString('base64'),
          signerName,
          usages: ['client auth'],
        },
      },
    });
    expect(r.status).toBe(201);
    return r.body;
  };
  const approve = (who: { token: string }, csr: { metadata: { name: string } }) =>
    call(s, `${csrs}/${csr.metadata.name}/approval`, {
      ...who,
      method: 'PUT',
      body: { ...csr, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test' }] } },
    });

  beforeAll(async () => {
    s = await startSecuredServer({
      authorizationMode: 'RBAC',
      tokenFile: 'approver-token,approver,approver-uid\nsigner-token,signer,signer-uid\n',
    });
    const csrAccess = {
      apiGroups: ['certificates.k8s.io'],
      resources: ['certificatesigningrequests'],
      verbs: ['get'],
    };
    const created = await Promise.all([
      // the approver updates approvals, and approves for example.com/a and every signer of example.org
      ...role(
        'csr-approver',
        [
          csrAccess,
          {
            apiGroups: ['certificates.k8s.io'],
            resources: ['certificatesigningrequests/approval'],
            verbs: ['update'],
          },
          {
            apiGroups: ['certificates.k8s.io'],
            resources: ['signers'],
            resourceNames: ['example.com/a', 'example.org/*'],
            verbs: ['approve'],
          },
        ],
        'approver',
      ),
      // the signer updates statuses and signs for example.com/a only
      ...role(
        'csr-signer',
        [
          csrAccess,
          {
            apiGroups: ['certificates.k8s.io'],
            resources: ['certificatesigningrequests/status'],
            verbs: ['update'],
          },
          {
            apiGroups: ['certificates.k8s.io'],
            resources: ['signers'],
            resourceNames: ['example.com/a'],
            verbs: ['sign'],
          },
        ],
        'signer',
      ),
    ]);
    expect(created.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    // the policy cache follows the store through a watch
    for (let i = 0; i < 100; i++) {
      if ((await call(s, `${csrs}/none`, approver)).status === 404) break;
      await new Promise((res) => setTimeout(res, 20));
    }
  });
  afterAll(async () => {
    await s?.close();
  });

  it('lets a user approve for a signer it may approve, by name or by its domain', async () => {
    expect((await approve(approver, await create('a-1', 'example.com/a'))).status).toBe(200);
    expect((await approve(approver, await create('org-1', 'example.org/anything'))).status).toBe(200);
  });

  it('refuses an approval for another signer, though the user may update approvals', async () => {
    const r = await approve(approver, await create('b-1', 'example.com/b'));
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({
      reason: 'Forbidden',
      message:
        'certificatesigningrequests.certificates.k8s.io "b-1" is forbidden: user not permitted to approve requests with signerName "example.com/b"',
    });
    expect((await approve(admin, await create('b-2', 'example.com/b'))).status).toBe(200);
  });

  it('lets only a user that may sign for the signer write the certificate or the conditions', async () => {
    const certificate = Buffer.from(
      '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
    ).toString('base64');
    const sign = async (name: string, signerName: string) => {
      const approved = (await approve(admin, await create(name, signerName))).body;
      return call(s, `${csrs}/${name}/status`, {
        ...signer,
        method: 'PUT',
        body: { ...approved, status: { ...approved.status, certificate } },
      });
    };
    const ok = await sign('signed-a', 'example.com/a');
    expect(ok.status).toBe(200);
    expect(ok.body.status.certificate).toBe(certificate);
    const refused = await sign('signed-b', 'example.com/b');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'certificatesigningrequests.certificates.k8s.io "signed-b" is forbidden: user not permitted to sign requests with signerName "example.com/b"',
    );
    // a status update that changes neither is not signing
    const same = (await call(s, `${csrs}/signed-b`, admin)).body;
    const unchanged = await call(s, `${csrs}/signed-b/status`, {
      ...signer,
      method: 'PUT',
      body: { ...same, metadata: { ...same.metadata, labels: { seen: 'yes' } } },
    });
    expect(unchanged.status).toBe(200);
  });
});
