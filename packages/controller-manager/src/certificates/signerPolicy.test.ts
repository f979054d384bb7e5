import type { ParsedCertificateRequest } from '@orch/component-base';
import { signerVerdict } from './signerPolicy';

/** A request's names; the encoded parts play no role in the signers' rules. */
function request(names: Partial<ParsedCertificateRequest>): ParsedCertificateRequest {
  return {
    subject: {} as ParsedCertificateRequest['subject'],
    publicKeyInfo: {} as ParsedCertificateRequest['publicKeyInfo'],
    commonName: '',
    organizations: [],
    dnsNames: [],
    emailAddresses: [],
    ipAddresses: [],
    uris: [],
    ...names,
  };
}

const node = request({ commonName: 'system:node:n1', organizations: ['system:nodes'] });

describe('the signers of the CSR signing controller', () => {
  it('leave requests for other signers alone', () => {
    expect(signerVerdict('example.com/signer', node, ['client auth'])).toEqual({ recognized: false });
  });

  it.each([
    [['client auth'], undefined],
    [['digital signature', 'key encipherment', 'client auth'], undefined],
    [['digital signature'], 'missing required usage for client certificate: client auth'],
    [['client auth', 'server auth'], 'invalid usage for client certificate: server auth'],
  ])('kube-apiserver-client: usages %j → %s', (usages, error) => {
    expect(
      signerVerdict('kubernetes.io/kube-apiserver-client', request({ commonName: 'dave' }), usages),
    ).toEqual(error ? { recognized: true, error } : { recognized: true });
  });

  it.each([
    [node, ['digital signature', 'key encipherment', 'client auth'], undefined],
    [node, ['digital signature', 'client auth'], undefined],
    [node, ['client auth'], 'usages did not match [client auth digital signature key encipherment]'],
    [
      request({ ...node, organizations: ['system:nodes', 'x'] }),
      ['client auth'],
      'subject organization is not system:nodes',
    ],
    [
      request({ ...node, commonName: 'n1' }),
      ['client auth'],
      'subject common name does not begin with system:node:',
    ],
    [request({ ...node, dnsNames: ['n1'] }), ['client auth'], 'DNS subjectAltNames are not allowed'],
    [request({ ...node, ipAddresses: ['10.0.0.1'] }), ['client auth'], 'IP subjectAltNames are not allowed'],
  ])('kube-apiserver-client-kubelet: %#', (req, usages, error) => {
    expect(signerVerdict('kubernetes.io/kube-apiserver-client-kubelet', req, usages)).toEqual(
      error ? { recognized: true, error } : { recognized: true },
    );
  });

  it.each([
    [
      request({ ...node, dnsNames: ['n1.example'] }),
      ['digital signature', 'key encipherment', 'server auth'],
      undefined,
    ],
    [request({ ...node, ipAddresses: ['10.0.0.1'] }), ['digital signature', 'server auth'], undefined],
    [node, ['digital signature', 'server auth'], 'DNS or IP subjectAltName is required'],
    [
      request({ ...node, dnsNames: ['n1'], uris: ['spiffe://x'] }),
      ['server auth'],
      'URI subjectAltNames are not allowed',
    ],
    [
      request({ ...node, dnsNames: ['n1'] }),
      ['server auth', 'client auth'],
      'usages did not match [digital signature key encipherment server auth]',
    ],
  ])('kubelet-serving: %#', (req, usages, error) => {
    expect(signerVerdict('kubernetes.io/kubelet-serving', req, usages)).toEqual(
      error ? { recognized: true, error } : { recognized: true },
    );
  });

  it('legacy-unknown signs whatever is approved', () => {
    expect(signerVerdict('kubernetes.io/legacy-unknown', request({}), ['server auth'])).toEqual({
      recognized: true,
    });
  });
});
