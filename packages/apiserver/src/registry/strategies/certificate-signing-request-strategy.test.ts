import { createCertificateRequest } from '@orch/component-base';
import { startTestAPIServer, type TestAPIServer } from '../../testing/test-apiserver';
import { httpsRequest } from '../../testing/https-request';
import { runKubectl } from '../../testing/run-kubectl';

const csrs = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const pem = createCertificateRequest('requester', ['devs']).request;
const certificate = Buffer.from(
  '-----BEGIN CERTIFICATE-----\nMIIBAA==\n-----END CERTIFICATE-----\n',
).toString('base64');

/** The approval and status subresources of CertificateSigningRequests, as Kubernetes' CSR strategies. */
describe('CertificateSigningRequest approval and status', () => {
  let s: TestAPIServer;
  const req = (path: string, options: Parameters<typeof httpsRequest>[1] = {}) =>
    httpsRequest(s.url + path, { ca: s.ca, ...options });
  const kubectl = (...args: string[]) => runKubectl(s.kubeconfig, ...args);
  /** Creates a request for example.com/signer: the server's answer. */
  const post = (name: string, request = pem, expirationSeconds?: number) =>
    req(csrs, {
      method: 'POST',
      body: {
        apiVersion: 'certificates.k8s.io/v1',
        kind: 'CertificateSigningRequest',
        metadata: { name },
        spec: {
          request: Buffer.from(request).toString('base64'),
          signerName: 'example.com/signer',
          usages: ['client auth'],
          ...(expirationSeconds ? { expirationSeconds } : {}),
        },
      },
    });
  const create = async (name: string, expirationSeconds?: number) => {
    const r = await post(name, pem, expirationSeconds);
    expect(r.status).toBe(201);
    return r.json;
  };
  const put = (name: string, subresource: string, body: unknown) =>
    req(`${csrs}/${name}/${subresource}`, { method: 'PUT', body });

  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: [] });
  });
  afterAll(() => s.close());

  it('kubectl certificate approve and deny set the conditions the CONDITION column shows', async () => {
    await create('approve-me', 86400);
    await create('deny-me');
    expect(await kubectl('certificate', 'approve', 'approve-me')).toMatchObject({
      code: 0,
      out: 'certificatesigningrequest.certificates.k8s.io/approve-me approved',
    });
    expect(await kubectl('certificate', 'deny', 'deny-me')).toMatchObject({
      code: 0,
      out: 'certificatesigningrequest.certificates.k8s.io/deny-me denied',
    });
    const table = await kubectl('get', 'csr', 'approve-me', 'deny-me');
    expect(table.out.split('\n').map((l) => l.split(/\s+/))).toEqual([
      ['NAME', 'AGE', 'SIGNERNAME', 'REQUESTOR', 'REQUESTEDDURATION', 'CONDITION'],
      [
        'approve-me',
        expect.stringMatching(/^\d+s$/),
        'example.com/signer',
        'system:anonymous',
        '24h',
        'Approved',
      ],
      [
        'deny-me',
        expect.stringMatching(/^\d+s$/),
        'example.com/signer',
        'system:anonymous',
        '<none>',
        'Denied',
      ],
    ]);
    const approved = (await req(`${csrs}/approve-me/approval`)).json;
    expect(approved.status.conditions).toEqual([
      {
        type: 'Approved',
        status: 'True',
        reason: 'KubectlApprove',
        message: 'This CSR was approved by kubectl certificate approve.',
        lastUpdateTime: expect.stringMatching(/Z$/),
        lastTransitionTime: expect.stringMatching(/Z$/),
      },
    ]);
    expect(approved.metadata.managedFields.map((f: { subresource?: string }) => f.subresource ?? '')).toEqual(
      ['', 'approval'],
    );
    // a denied request stays denied: kubectl refuses to approve it, and so does validation
    const again = await kubectl('certificate', 'approve', 'deny-me');
    expect(again.code).toBe(1);
    expect(again.err).toContain('certificate signing request "deny-me" is already Denied');
    const denied = (await req(`${csrs}/deny-me`)).json;
    const both = await put('deny-me', 'approval', {
      ...denied,
      status: { conditions: [...denied.status.conditions, { type: 'Approved', status: 'True' }] },
    });
    expect(both.status).toBe(422);
    expect(both.json.message).toContain('Approved and Denied conditions are mutually exclusive');
  });

  it('changes through approval only the conditions: spec, certificate and the rest are kept', async () => {
    const csr = await create('only-conditions');
    const r = await put('only-conditions', 'approval', {
      ...csr,
      metadata: { ...csr.metadata, labels: { team: 'a' } },
      spec: { ...csr.spec, signerName: 'example.com/other' },
      status: {
        certificate,
        conditions: [{ type: 'Approved', status: 'True', reason: 'Manual' }],
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.spec.signerName).toBe('example.com/signer');
    expect(r.json.status.certificate).toBeUndefined();
    expect(r.json.metadata.labels).toEqual({ team: 'a' });
    expect(r.json.status.conditions).toMatchObject([{ type: 'Approved', reason: 'Manual' }]);
    // taking the approval back is refused
    const removed = await put('only-conditions', 'approval', { ...r.json, status: { conditions: [] } });
    expect(removed.status).toBe(422);
    expect(removed.json.message).toContain(
      'status.conditions: Forbidden: updates may not remove a condition of type "Approved"',
    );
    // the main resource changes no status at all
    const main = await req(`${csrs}/only-conditions`, {
      method: 'PUT',
      body: { ...r.json, status: { conditions: [{ type: 'Denied', status: 'True' }] } },
    });
    expect(main.status).toBe(200);
    expect(main.json.status.conditions).toMatchObject([{ type: 'Approved' }]);
  });

  it('keeps the Approved and Denied conditions out of the status subresource, and an issued certificate fixed', async () => {
    const csr = await create('signed');
    const approve = await put('signed', 'status', {
      ...csr,
      status: { conditions: [{ type: 'Approved', status: 'True' }] },
    });
    expect(approve.status).toBe(422);
    expect(approve.json.message).toContain(
      'status.conditions: Forbidden: updates may not add a condition of type "Approved"',
    );
    const approved = await put('signed', 'approval', {
      ...csr,
      status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Manual' }] },
    });
    expect(approved.status).toBe(200);
    // the signer's status update: the certificate; the approval it carries is the stored one, whatever it says
    const issued = await put('signed', 'status', {
      ...approved.json,
      status: {
        certificate,
        conditions: [{ type: 'Approved', status: 'True', reason: 'Rewritten' }],
      },
    });
    expect(issued.status).toBe(200);
    expect(issued.json.status.certificate).toBe(certificate);
    expect(issued.json.status.conditions).toEqual(approved.json.status.conditions);
    const replaced = await put('signed', 'status', {
      ...issued.json,
      status: { ...issued.json.status, certificate: Buffer.from('other').toString('base64') },
    });
    expect(replaced.status).toBe(422);
    expect(replaced.json.message).toContain(
      'status.certificate: Forbidden: updates may not modify existing certificate content',
    );
    expect((await kubectl('get', 'csr', 'signed', '--no-headers')).out).toMatch(/\sApproved,Issued$/);
  });

  it('keeps a condition type and status transition time and stamps new conditions', async () => {
    const csr = await create('stamped');
    const first = await put('stamped', 'status', {
      ...csr,
      status: { conditions: [{ type: 'Failed', status: 'True', reason: 'One' }] },
    });
    expect(first.status).toBe(200);
    const [failed] = first.json.status.conditions;
    expect(failed.lastTransitionTime).toBe(failed.lastUpdateTime);
    await new Promise((r) => setTimeout(r, 1100));
    const again = await put('stamped', 'status', {
      ...first.json,
      status: { conditions: [{ type: 'Failed', status: 'True', reason: 'Two' }] },
    });
    const [kept] = again.json.status.conditions;
    expect(kept.reason).toBe('Two');
    expect(kept.lastTransitionTime).toBe(failed.lastTransitionTime);
    expect(kept.lastUpdateTime > failed.lastUpdateTime).toBe(true);
  });

  it('refuses a request that is not a certificate request or whose signature does not hold (422)', async () => {
    const garbage = await post(
      'garbage',
      '-----BEGIN CERTIFICATE REQUEST-----\nMIIBAA==\n-----END CERTIFICATE REQUEST-----\n',
    );
    expect(garbage.status).toBe(422);
    expect(garbage.json.details.causes).toEqual([
      expect.objectContaining({ field: 'spec.request', reason: 'FieldValueInvalid' }),
    ]);
    // another request's subject under this one's signature
    const lines = pem.trim().split('\n');
    const der = Buffer.from(lines.slice(1, -1).join(''), 'base64');
    const at = der.indexOf('requester');
    der[at] = der[at]! ^ 1;
    const forged = await post('forged', [lines[0], der.toString('base64'), lines.at(-1)].join('\n'));
    expect(forged.status).toBe(422);
    expect(forged.json.message).toContain(
      'unable to verify certificate request signature: x509: signature verification failure',
    );
  });
});
