import type { ParsedCertificateRequest } from '@orch/component-base';

/** The signers the CSR signing controller issues for (Kubernetes' well-known signer names). */
export const KUBE_APISERVER_CLIENT = 'kubernetes.io/kube-apiserver-client';
export const KUBE_APISERVER_CLIENT_KUBELET = 'kubernetes.io/kube-apiserver-client-kubelet';
export const KUBELET_SERVING = 'kubernetes.io/kubelet-serving';
export const LEGACY_UNKNOWN = 'kubernetes.io/legacy-unknown';

const sameSet = (a: readonly string[], b: readonly string[]): boolean => {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
};

/** Kubernetes' validAPIServerClientUsages. */
function apiServerClientUsagesError(usages: readonly string[]): string | undefined {
  let clientAuth = false;
  for (const u of usages) {
    if (u === 'client auth') clientAuth = true;
    else if (u !== 'digital signature' && u !== 'key encipherment')
      return `invalid usage for client certificate: ${u}`;
  }
  return clientAuth ? undefined : 'missing required usage for client certificate: client auth';
}

/** What kubelet certificates must name: the system:nodes organization and a system:node: user. */
function nodeIdentityError(req: ParsedCertificateRequest): string | undefined {
  if (req.organizations.length !== 1 || req.organizations[0] !== 'system:nodes')
    return 'subject organization is not system:nodes';
  return undefined;
}

/** Kubernetes' ValidateKubeletClientCSR: what keeps a request from being a node client certificate request. */
export function kubeletClientError(
  req: ParsedCertificateRequest,
  usages: readonly string[],
): string | undefined {
  const identity = nodeIdentityError(req);
  if (identity) return identity;
  if (req.dnsNames.length) return 'DNS subjectAltNames are not allowed';
  if (req.emailAddresses.length) return 'Email subjectAltNames are not allowed';
  if (req.ipAddresses.length) return 'IP subjectAltNames are not allowed';
  if (req.uris.length) return 'URI subjectAltNames are not allowed';
  if (!req.commonName.startsWith('system:node:'))
    return 'subject common name does not begin with system:node:';
  const required = ['client auth', 'digital signature', 'key encipherment'];
  if (!sameSet(usages, required) && !sameSet(usages, ['client auth', 'digital signature']))
    return `usages did not match [${required.join(' ')}]`;
  return undefined;
}

/** Kubernetes' ValidateKubeletServingCSR. */
function kubeletServingError(req: ParsedCertificateRequest, usages: readonly string[]): string | undefined {
  const identity = nodeIdentityError(req);
  if (identity) return identity;
  if (!req.dnsNames.length && !req.ipAddresses.length) return 'DNS or IP subjectAltName is required';
  if (req.emailAddresses.length) return 'Email subjectAltNames are not allowed';
  if (req.uris.length) return 'URI subjectAltNames are not allowed';
  if (!req.commonName.startsWith('system:node:'))
    return 'subject common name does not begin with system:node:';
  const required = ['digital signature', 'key encipherment', 'server auth'];
  if (!sameSet(usages, required) && !sameSet(usages, ['digital signature', 'server auth']))
    return `usages did not match [${required.join(' ')}]`;
  return undefined;
}

/**
 * Whether the controller signs for `signerName`, and if so what, if anything, keeps it from signing
 * this request (the message of the Failed condition it then adds), as Kubernetes' csrsigning
 * controllers decide; requests for other signers are left to them.
 */
export function signerVerdict(
  signerName: string,
  req: ParsedCertificateRequest,
  usages: readonly string[],
): { recognized: false } | { recognized: true; error?: string } {
  let error: string | undefined;
  switch (signerName) {
    case KUBE_APISERVER_CLIENT:
      error = apiServerClientUsagesError(usages);
      break;
    case KUBE_APISERVER_CLIENT_KUBELET:
      error = kubeletClientError(req, usages);
      break;
    case KUBELET_SERVING:
      error = kubeletServingError(req, usages);
      break;
    case LEGACY_UNKNOWN:
      break;
    default:
      return { recognized: false };
  }
  return error ? { recognized: true, error } : { recognized: true };
}
