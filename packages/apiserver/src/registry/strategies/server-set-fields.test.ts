import { createCertificateRequest } from '@orch/component-base';
import { startTestAPIServer, type TestAPIServer } from '../../testing/test-apiserver';
import { httpsRequest } from '../../testing/https-request';
import { BearerTokenAuthenticator } from '../../authn/token-authenticator';
import { StaticTokenAuthenticator } from '../../authn/static-token-file';

/** Fields the server sets on create whatever the body says: a new status with its defaults, a CSR's requester. */
describe('server-set fields on create', () => {
  let s: TestAPIServer;
  const req = (path: string, options: Parameters<typeof httpsRequest>[1] = {}) =>
    httpsRequest(s.url + path, { ca: s.ca, headers: { authorization: 'Bearer alice-token' }, ...options });

  beforeAll(async () => {
    s = await startTestAPIServer({
      admissionPlugins: [],
      authenticator: new BearerTokenAuthenticator([
        new StaticTokenAuthenticator('alice-token,alice,uid-alice,"dev,ops"\n'),
      ]),
    });
  });
  afterAll(() => s.close());

  it('starts a claim Pending and a volume Pending, whatever status the body carries', async () => {
    const pvc = await req('/api/v1/namespaces/default/persistentvolumeclaims', {
      method: 'POST',
      body: {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        status: { phase: 'Bound' },
      },
    });
    expect(pvc.status).toBe(201);
    expect(pvc.json.status).toEqual({ phase: 'Pending' });
    expect((await req('/api/v1/namespaces/default/persistentvolumeclaims/data')).json.status).toEqual({
      phase: 'Pending',
    });
    const pv = await req('/api/v1/persistentvolumes', {
      method: 'POST',
      body: {
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: { name: 'vol' },
        spec: {
          capacity: { storage: '1Gi' },
          accessModes: ['ReadWriteOnce'],
          hostPath: { path: '/tmp/vol' },
        },
        status: { phase: 'Bound' },
      },
    });
    expect(pv.status).toBe(201);
    expect(pv.json.status).toEqual({ phase: 'Pending' });
  });

  it("records the requester of a CertificateSigningRequest, not the body's claim", async () => {
    const pem = createCertificateRequest('alice').request;
    const csr = await req('/apis/certificates.k8s.io/v1/certificatesigningrequests', {
      method: 'POST',
      body: {
        apiVersion: 'certificates.k8s.io/v1',
        kind: 'CertificateSigningRequest',
        metadata: { name: 'alice-csr' },
        spec: {
          request: Buffer.from(pem).toString('base64'),
          signerName: 'example.com/signer',
          usages: ['client auth'],
          username: 'mallory',
          groups: ['system:masters'],
        },
      },
    });
    expect(csr.status).toBe(201);
    expect(csr.json.spec).toMatchObject({
      username: 'alice',
      uid: 'uid-alice',
      groups: ['dev', 'ops'],
    });
    expect(csr.json.spec.groups).not.toContain('system:masters');
  });
});
