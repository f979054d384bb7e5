import { X509Certificate } from 'node:crypto';
import { createCA, issueCertificate } from '../certs/pki';
import { parseCABundle, subjectValues, verifyClientChain } from './clientCertificates';

const x509 = (pem: string): X509Certificate => new X509Certificate(pem);

describe('client certificate verification', () => {
  const root = createCA('root-ca');
  const intermediate = issueCertificate({ commonName: 'intermediate-ca', usage: 'ca' }, root);
  const direct = issueCertificate(
    { commonName: 'alice', organizations: ['team-a', 'team-b'], usage: 'client' },
    root,
  );
  const viaIntermediate = issueCertificate({ commonName: 'bob', usage: 'client' }, intermediate);
  const serverOnly = issueCertificate({ commonName: 'web', usage: 'server' }, root);
  const foreign = issueCertificate({ commonName: 'eve', usage: 'client' }, createCA('other-ca'));
  const roots = parseCABundle(root.cert);

  it('accepts client certificates signed by the bundle, directly or through presented intermediates', () => {
    expect(verifyClientChain([x509(direct.cert)], roots)?.subject).toContain('CN=alice');
    expect(
      verifyClientChain([x509(viaIntermediate.cert), x509(intermediate.cert)], roots)?.subject,
    ).toContain('CN=bob');
    expect(subjectValues(x509(direct.cert), 'O')).toEqual(['team-a', 'team-b']);
  });

  it('rejects unknown authorities, missing intermediates, server-only usage and expired certificates', () => {
    expect(verifyClientChain([x509(foreign.cert)], roots)).toBeUndefined();
    expect(verifyClientChain([x509(viaIntermediate.cert)], roots)).toBeUndefined();
    expect(verifyClientChain([x509(serverOnly.cert)], roots)).toBeUndefined();
    const inTwoYears = Date.now() + 2 * 365 * 24 * 3600_000;
    expect(verifyClientChain([x509(direct.cert)], roots, inTwoYears)).toBeUndefined();
    expect(verifyClientChain([], roots)).toBeUndefined();
  });

  it('reads every certificate of a bundle and rejects one without any', () => {
    expect(parseCABundle(`${root.cert}\n${intermediate.cert}`).map((c) => subjectValues(c, 'CN')[0])).toEqual(
      ['root-ca', 'intermediate-ca'],
    );
    expect(() => parseCABundle('not a certificate')).toThrow(
      'data does not contain any valid RSA or ECDSA certificates',
    );
  });
});
