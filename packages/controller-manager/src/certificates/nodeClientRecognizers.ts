import type { CertificateSigningRequest } from '@orch/api';
import type { ParsedCertificateRequest } from '@orch/component-base';
import { KUBE_APISERVER_CLIENT_KUBELET, kubeletClientError } from './signerPolicy';

/** A kind of request the csrapproving controller approves when a SubjectAccessReview allows it. */
export interface NodeClientRecognizer {
  /** The subresource of certificatesigningrequests the requester must be allowed to create. */
  subresource: 'selfnodeclient' | 'nodeclient';
  /** The message of the Approved condition. */
  message: string;
  recognize(csr: CertificateSigningRequest, req: ParsedCertificateRequest): boolean;
}

/**
 * A request for a kubelet's client certificate: for the kube-apiserver-client-kubelet signer, with
 * subject system:node:<name> in organization system:nodes, no subject alternative names, and the
 * key usages client auth and digital signature, with or without key encipherment.
 */
export function isNodeClientCert(csr: CertificateSigningRequest, req: ParsedCertificateRequest): boolean {
  if (csr.spec.signerName !== KUBE_APISERVER_CLIENT_KUBELET) return false;
  return kubeletClientError(req, csr.spec.usages ?? []) === undefined;
}

/** A node client certificate request made by the node it names. */
export function isSelfNodeClientCert(csr: CertificateSigningRequest, req: ParsedCertificateRequest): boolean {
  return csr.spec.username === req.commonName && isNodeClientCert(csr, req);
}

/** Kubernetes' recognizers, the more specific first. */
export const NODE_CLIENT_RECOGNIZERS: readonly NodeClientRecognizer[] = [
  {
    subresource: 'selfnodeclient',
    message: 'Auto approving self kubelet client certificate after SubjectAccessReview.',
    recognize: isSelfNodeClientCert,
  },
  {
    subresource: 'nodeclient',
    message: 'Auto approving kubelet client certificate after SubjectAccessReview.',
    recognize: isNodeClientCert,
  },
];
