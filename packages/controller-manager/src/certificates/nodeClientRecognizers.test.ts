import type { CertificateSigningRequest } from '@orch/api';
import { createCertificateRequest, parseCertificateRequest } from '@orch/component-base';
import { isNodeClientCert, isSelfNodeClientCert, NODE_CLIENT_RECOGNIZERS } from './nodeClientRecognizers';

const KUBELET_CLIENT = 'kubernetes.io/kube-apiserver-client-kubelet';
const NODE_USAGES = ['digital signature', 'key encipherment', 'client auth'];

/** A request for `commonName` in `organizations`, parsed as the controller parses it. */
function parsed(commonName: string, organizations: string[]) {
  return parseCertificateRequest(createCertificateRequest(commonName, organizations).request);
}

const csr = (spec: Partial<CertificateSigningRequest['spec']>): CertificateSigningRequest => ({
  metadata: { name: 'csr' },
  spec: { request: '', signerName: KUBELET_CLIENT, usages: NODE_USAGES, username: 'system:node:n1', ...spec },
});

describe('node client certificate requests', () => {
  const node = parsed('system:node:n1', ['system:nodes']);

  it('are for the kubelet client signer, a system:node: subject in system:nodes, with client usages', () => {
    expect(isNodeClientCert(csr({}), node)).toBe(true);
    expect(isNodeClientCert(csr({ usages: ['digital signature', 'client auth'] }), node)).toBe(true);
    expect(
      isNodeClientCert(csr({ usages: ['client auth', 'digital signature', 'key encipherment'] }), node),
    ).toBe(true);
  });

  it.each([
    ['another signer', csr({ signerName: 'kubernetes.io/kube-apiserver-client' }), node],
    ['only client auth', csr({ usages: ['client auth'] }), node],
    ['server auth too', csr({ usages: [...NODE_USAGES, 'server auth'] }), node],
    ['no system:nodes organization', csr({}), parsed('system:node:n1', [])],
    ['another organization too', csr({}), parsed('system:node:n1', ['system:nodes', 'admins'])],
    ['a common name that is no node', csr({}), parsed('n1', ['system:nodes'])],
  ])('are not: %s', (_what, request, req) => {
    expect(isNodeClientCert(request, req)).toBe(false);
    expect(isSelfNodeClientCert(request, req)).toBe(false);
  });

  it("are a node's own when the requester is the subject", () => {
    expect(isSelfNodeClientCert(csr({}), node)).toBe(true);
    expect(isSelfNodeClientCert(csr({ username: 'system:node:n2' }), node)).toBe(false);
    expect(isSelfNodeClientCert(csr({ username: 'kubelet-bootstrap' }), node)).toBe(false);
    expect(isNodeClientCert(csr({ username: 'kubelet-bootstrap' }), node)).toBe(true);
  });

  it("are tried as selfnodeclient first, then nodeclient, with Kubernetes' messages", () => {
    expect(NODE_CLIENT_RECOGNIZERS.map((r) => [r.subresource, r.message])).toEqual([
      ['selfnodeclient', 'Auto approving self kubelet client certificate after SubjectAccessReview.'],
      ['nodeclient', 'Auto approving kubelet client certificate after SubjectAccessReview.'],
    ]);
    expect(
      NODE_CLIENT_RECOGNIZERS.filter((r) => r.recognize(csr({}), node)).map((r) => r.subresource),
    ).toEqual(['selfnodeclient', 'nodeclient']);
    expect(
      NODE_CLIENT_RECOGNIZERS.filter((r) => r.recognize(csr({ username: 'bootstrap' }), node)).map(
        (r) => r.subresource,
      ),
    ).toEqual(['nodeclient']);
  });
});
