import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CertificateSigningRequestKind } from '@orch/api';
import { clientFor } from '@orch/client';
import { createCA, createCertificateRequest } from '@orch/component-base';
import { startCluster, type Cluster } from './harness';

/** A PEM certificate request for `commonName` in `organizations`. */
const certificateRequest = (commonName: string, organizations: string[]): string =>
  createCertificateRequest(commonName, organizations).request;

async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('csrsigning: approved requests are signed by the cluster signing CA', () => {
  const ca = createCA('orch-signing-ca');
  const dir = mkdtempSync(join(tmpdir(), 'orch-csrsigning-'));
  const flags: Record<string, string> = {
    'cluster-signing-cert-file': join(dir, 'ca.crt'),
    'cluster-signing-key-file': join(dir, 'ca.key'),
  };
  let cluster: Cluster;

  beforeAll(async () => {
    writeFileSync(flags['cluster-signing-cert-file']!, ca.cert);
    writeFileSync(flags['cluster-signing-key-file']!, ca.key);
    cluster = await startCluster({
      controllers: ['csrsigning'],
      string: (flag) => flags[flag],
      flagGiven: (flag) => flag in flags,
      duration: (flag) => (flag === 'experimental-cluster-signing-duration' ? 8760 * 3600 * 1000 : undefined),
    });
  });
  afterAll(async () => {
    await cluster?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const create = (name: string, spec: Record<string, unknown>) =>
    clientFor(cluster.rest, CertificateSigningRequestKind).create({
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name },
      spec: { request: '', signerName: 'kubernetes.io/kube-apiserver-client', ...spec },
    } as never);
  const read = (name: string) => clientFor(cluster.rest, CertificateSigningRequestKind).get(name);

  it('issues a client certificate once kubectl certificate approve approves the request, not before', async () => {
    await create('dave', {
      request: Buffer.from(certificateRequest('dave', ['devs'])).toString('base64'),
      usages: ['digital signature', 'key encipherment', 'client auth'],
      expirationSeconds: 86400,
    });
    await new Promise((r) => setTimeout(r, 300));
    expect((await read('dave')).status?.certificate).toBeUndefined();
    await cluster.kubectl('certificate', 'approve', 'dave');
    const signed = await eventually(
      () => read('dave'),
      (c) => Boolean(c.status?.certificate),
    );
    const cert = new X509Certificate(Buffer.from(signed.status!.certificate!, 'base64'));
    expect(cert.checkIssued(new X509Certificate(ca.cert))).toBe(true);
    expect(cert.verify(new X509Certificate(ca.cert).publicKey)).toBe(true);
    expect(cert.subject).toBe('CN=dave\nO=devs');
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    // the requested day, backdated five minutes
    expect(Date.parse(cert.validTo) - Date.parse(cert.validFrom)).toBe(86400 * 1000);
    expect(Date.now() - Date.parse(cert.validFrom)).toBeGreaterThanOrEqual(4 * 60 * 1000);
    const table = await cluster.kubectl('get', 'csr', 'dave', '--no-headers');
    expect(table).toMatch(
      /^dave\s+\S+\s+kubernetes\.io\/kube-apiserver-client\s+\S+\s+24h\s+Approved,Issued\n$/,
    );
  });

  it("marks a request its signer refuses Failed, and leaves denied and other signers' requests alone", async () => {
    const pem = Buffer.from(certificateRequest('erin', [])).toString('base64');
    await create('server-usage', { request: pem, usages: ['server auth'] });
    await create('denied', { request: pem, usages: ['client auth'] });
    await create('custom', { request: pem, usages: ['client auth'], signerName: 'example.com/signer' });
    await cluster.kubectl('certificate', 'approve', 'server-usage', 'custom');
    await cluster.kubectl('certificate', 'deny', 'denied');
    const failed = await eventually(
      () => read('server-usage'),
      (c) => (c.status?.conditions ?? []).some((x) => x.type === 'Failed'),
    );
    expect(failed.status?.conditions?.find((c) => c.type === 'Failed')).toMatchObject({
      status: 'True',
      reason: 'SignerValidationFailure',
      message: 'invalid usage for client certificate: server auth',
    });
    expect(failed.status?.certificate).toBeUndefined();
    await new Promise((r) => setTimeout(r, 300));
    expect((await read('denied')).status?.certificate).toBeUndefined();
    expect((await read('custom')).status?.certificate).toBeUndefined();
    expect(await cluster.kubectl('get', 'csr', 'server-usage', '--no-headers')).toMatch(
      /\sApproved,Failed\n$/,
    );
  });
});
