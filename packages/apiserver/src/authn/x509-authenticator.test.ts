import { X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { issueTestCertificate } from '../reviews/access-test-support';
import { X509Authenticator } from './x509-authenticator';

const ca = issueTestCertificate({ commonName: 'orch-client-ca', ca: true });
const hour = 3600_000;

/** A request on a connection of its own that presented `pem` (the leaf, then what it sent above it). */
function requestWith(...pems: string[]): { req: IncomingMessage; peerReads: () => number } {
  const chain = pems.map((p) => new X509Certificate(p));
  let reads = 0;
  const socket = {
    getPeerX509Certificate: () => {
      reads++;
      // the TLS layer links each certificate to the one the client sent above it
      return chain.reduceRight<X509Certificate | undefined>((issuer, cert) => {
        if (!issuer) return cert;
        return Object.defineProperty(Object.create(cert) as X509Certificate, 'issuerCertificate', {
          value: issuer,
        });
      }, undefined);
    },
  } as unknown as TLSSocket;
  return { req: { socket } as unknown as IncomingMessage, peerReads: () => reads };
}

describe('X509Authenticator', () => {
  test('a connection authenticates as the common name with the organizations as groups', async () => {
    const leaf = issueTestCertificate({ commonName: 'alice', organizations: ['dev', 'ops'] }, ca);
    const auth = new X509Authenticator(ca.cert);
    expect(await auth.authenticate(requestWith(leaf.cert).req)).toEqual({
      username: 'alice',
      groups: ['dev', 'ops'],
    });
  });

  test('a chain through an intermediate the client sent verifies', async () => {
    const intermediate = issueTestCertificate({ commonName: 'orch-intermediate', ca: true }, ca);
    const leaf = issueTestCertificate({ commonName: 'carol' }, intermediate);
    const auth = new X509Authenticator(ca.cert);
    expect((await auth.authenticate(requestWith(leaf.cert, intermediate.cert).req))?.username).toBe('carol');
    await expect(auth.authenticate(requestWith(leaf.cert).req)).rejects.toMatchObject({
      detail: expect.stringContaining('x509: certificate signed by unknown authority'),
    });
  });

  test('a connection reads its certificate once; an outcome kept across connections ends with the certificate', async () => {
    const notAfter = new Date(Date.now() + hour);
    const leaf = issueTestCertificate({ commonName: 'bob', notAfter }, ca);
    let now = new Date();
    const auth = new X509Authenticator(ca.cert, () => now);
    const first = requestWith(leaf.cert);
    expect((await auth.authenticate(first.req))?.username).toBe('bob');
    expect((await auth.authenticate(first.req))?.username).toBe('bob');
    expect(first.peerReads()).toBe(1);
    // a second connection with the same certificate, after it expired: refused, not the kept outcome
    now = new Date(notAfter.getTime() + 1000);
    await expect(auth.authenticate(requestWith(leaf.cert).req)).rejects.toMatchObject({
      detail: expect.stringMatching(
        /x509: certificate has expired or is not yet valid: current time .* is after/,
      ),
    });
    // and the first connection too
    await expect(auth.authenticate(first.req)).rejects.toMatchObject({
      detail: expect.stringMatching(/certificate has expired/),
    });
  });

  test('a certificate from another authority is refused on every connection', async () => {
    const other = issueTestCertificate({ commonName: 'other-ca', ca: true });
    const leaf = issueTestCertificate({ commonName: 'mallory' }, other);
    const auth = new X509Authenticator(ca.cert);
    for (let i = 0; i < 2; i++) {
      await expect(auth.authenticate(requestWith(leaf.cert).req)).rejects.toMatchObject({
        code: 401,
        detail: expect.stringMatching(
          /^verifying certificate SN=\d+ failed: x509: certificate signed by unknown authority$/,
        ),
      });
    }
  });

  test('a connection without a certificate is not authenticated by it', async () => {
    const auth = new X509Authenticator(ca.cert);
    expect(await auth.authenticate(requestWith().req)).toBeUndefined();
  });
});
