import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createCertificateRequest,
  loadSigningCA,
  parseCertificateRequest,
  signCertificateRequest,
} from './certificate-request';
import { createCA } from './pki';

/** An ECDSA P-256 request (openssl): CN=system:node:n1, O=system:nodes, DNS n1.example and IP 10.0.0.5. */
const ecRequest = [
  '-----BEGIN CERTIFICATE REQUEST-----',
  'MIIBGjCBwAIBADAwMRcwFQYDVQQDDA5zeXN0ZW06bm9kZTpuMTEVMBMGA1UECgwM',
  'c3lzdGVtOm5vZGVzMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEk9ETTxCUXmYn',
  '1icIGZ8u+0kAo00jL4ZoXltEAET3gz+/A63hqarP5zr0etkCXL/J0eB4FliMSVlK',
  'LWjAaT/R26AuMCwGCSqGSIb3DQEJDjEfMB0wGwYDVR0RBBQwEoIKbjEuZXhhbXBs',
  'ZYcECgAABTAKBggqhkjOPQQDAgNJADBGAiEA3UpoDqqX+i3PVnTZnPDMWhLPMaNu',
  'KO7ht26nANtipqgCIQC/jdsHb1cRlYP2dX7mMXndrSDxyYPCmWgb7PJTclAXLw==',
  '-----END CERTIFICATE REQUEST-----',
].join('\n');

/** An Ed25519 request (openssl): CN=system:node:n2, O=system:nodes. */
const ed25519Request = [
  '-----BEGIN CERTIFICATE REQUEST-----',
  'MIGvMGMCAQAwMDEXMBUGA1UEAwwOc3lzdGVtOm5vZGU6bjIxFTATBgNVBAoMDHN5',
  'c3RlbTpub2RlczAqMAUGAytlcAMhAB1Q5Qh0tsyK81tl5UCz9L/RreyvuYZhto1a',
  'zF0g+GVUoAAwBQYDK2VwA0EAx5yZbl5SgrVwPeqhgQz90BcjsKYVtQMTUFTfqwBM',
  'AcuTqp41sREzcFP5rR75lI0R5A7DJnNlZ2FeuqJiobtLAA==',
  '-----END CERTIFICATE REQUEST-----',
].join('\n');

/** An RSA request. */
const rsaRequest = (commonName: string, organizations: string[]): string =>
  createCertificateRequest(commonName, organizations).request;

describe('certificate requests', () => {
  const ca = createCA('orch-test-ca');
  const hour = 60 * 60 * 1000;

  it('writes certificates and requests with plain newlines', () => {
    for (const pem of [ca.cert, rsaRequest('a', [])]) {
      expect(pem).toMatch(/^-----BEGIN [A-Z ]+-----\n/);
      expect(pem).not.toContain('\r');
    }
  });

  it('reads the subject and names of RSA, ECDSA and Ed25519 requests', () => {
    expect(parseCertificateRequest(rsaRequest('dave', ['devs', 'qa']))).toMatchObject({
      commonName: 'dave',
      organizations: ['devs', 'qa'],
      dnsNames: [],
      ipAddresses: [],
    });
    expect(parseCertificateRequest(ecRequest)).toMatchObject({
      commonName: 'system:node:n1',
      organizations: ['system:nodes'],
      dnsNames: ['n1.example'],
      ipAddresses: ['10.0.0.5'],
      emailAddresses: [],
      uris: [],
    });
    expect(parseCertificateRequest(Buffer.from(ed25519Request))).toMatchObject({
      commonName: 'system:node:n2',
      organizations: ['system:nodes'],
    });
  });

  it('refuses what is not a request, or one whose signature does not hold', () => {
    expect(() => parseCertificateRequest(ca.cert)).toThrow('PEM block type must be CERTIFICATE REQUEST');
    expect(() => parseCertificateRequest('nothing')).toThrow('PEM block type must be CERTIFICATE REQUEST');
    // one bit of the subject changed: the signature no longer holds
    const lines = ecRequest.split('\n');
    const body = Buffer.from(lines.slice(1, -1).join(''), 'base64');
    body[25] = body[25]! ^ 1;
    const tampered = [lines[0], body.toString('base64'), lines.at(-1)].join('\n');
    expect(() => parseCertificateRequest(tampered)).toThrow(
      'unable to verify certificate request signature: x509: signature verification failure',
    );
  });

  it("signs a certificate the CA verifies, with the request's subject, key and names and the usages asked for", () => {
    const notBefore = new Date(Date.now() - 5 * 60 * 1000);
    const notAfter = new Date(Date.now() + 24 * hour);
    const issuer = new X509Certificate(ca.cert);
    for (const [pem, usages] of [
      [rsaRequest('dave', ['devs']), ['digital signature', 'key encipherment', 'client auth']],
      [ecRequest, ['digital signature', 'server auth']],
      [ed25519Request, ['client auth']],
    ] as const) {
      const cert = new X509Certificate(
        signCertificateRequest(parseCertificateRequest(pem), ca, { usages, notBefore, notAfter }),
      );
      expect(cert.verify(issuer.publicKey)).toBe(true);
      expect(cert.checkIssued(issuer)).toBe(true);
      expect(cert.ca).toBe(false);
      expect(cert.keyUsage).toEqual(
        (usages as readonly string[]).includes('server auth') ? ['1.3.6.1.5.5.7.3.1'] : ['1.3.6.1.5.5.7.3.2'],
      );
      expect(Date.parse(cert.validFrom)).toBe(Math.floor(notBefore.getTime() / 1000) * 1000);
      expect(Date.parse(cert.validTo)).toBe(Math.floor(notAfter.getTime() / 1000) * 1000);
      expect(BigInt(`0x${cert.serialNumber}`) > 0n).toBe(true);
    }
    const node = new X509Certificate(
      signCertificateRequest(parseCertificateRequest(ecRequest), ca, {
        usages: ['server auth'],
        notBefore,
        notAfter,
      }),
    );
    expect(node.subject).toBe('CN=system:node:n1\nO=system:nodes');
    expect(node.subjectAltName).toBe('DNS:n1.example, IP Address:10.0.0.5');
    expect(node.publicKey.asymmetricKeyType).toBe('ec');
    expect(node.checkHost('n1.example')).toBe('n1.example');
  });

  it("keeps a certificate within the CA's validity and refuses usages it does not know", () => {
    const request = parseCertificateRequest(ecRequest);
    const caEnd = Date.parse(new X509Certificate(ca.cert).validTo);
    const cert = new X509Certificate(
      signCertificateRequest(request, ca, {
        usages: ['client auth'],
        notBefore: new Date(),
        notAfter: new Date(caEnd + 100 * 24 * hour),
      }),
    );
    expect(Date.parse(cert.validTo)).toBe(caEnd);
    expect(() =>
      signCertificateRequest(request, ca, {
        usages: ['flying'],
        notBefore: new Date(),
        notAfter: new Date(),
      }),
    ).toThrow('unrecognized usage: flying');
  });

  it('loads a signing CA only when its key belongs to its certificate', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-signing-ca-'));
    try {
      const other = createCA('other');
      writeFileSync(join(dir, 'ca.crt'), ca.cert);
      writeFileSync(join(dir, 'ca.key'), ca.key);
      writeFileSync(join(dir, 'other.key'), other.key);
      expect(loadSigningCA(join(dir, 'ca.crt'), join(dir, 'ca.key')).cert).toBe(ca.cert);
      expect(createPrivateKey(loadSigningCA(join(dir, 'ca.crt'), join(dir, 'ca.key')).key).type).toBe(
        'private',
      );
      expect(() => loadSigningCA(join(dir, 'ca.crt'), join(dir, 'other.key'))).toThrow(
        `the CA key in "${join(dir, 'other.key')}" does not belong to the certificate in "${join(dir, 'ca.crt')}"`,
      );
      expect(() => loadSigningCA(join(dir, 'missing.crt'), join(dir, 'ca.key'))).toThrow(
        `error reading CA cert file "${join(dir, 'missing.crt')}"`,
      );
      expect(() => loadSigningCA(join(dir, 'ca.key'), join(dir, 'ca.key'))).toThrow('not a PEM certificate');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
