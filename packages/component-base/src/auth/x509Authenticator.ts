import type { X509Certificate } from 'node:crypto';
import { peerCertificates, subjectValues, verifyClientChain } from './clientCertificates';
import type { RequestAuthenticator } from './RequestAuthenticator';

/** Client certificates signed by `roots` authenticate as their common name, with their organizations as groups. */
export function x509Authenticator(roots: () => X509Certificate[]): RequestAuthenticator {
  return async (req) => {
    const chain = peerCertificates(req);
    if (chain.length === 0) {
      return undefined;
    }
    const leaf = verifyClientChain(chain, roots());
    if (!leaf) {
      return new Error('x509: certificate signed by unknown authority');
    }
    const name = subjectValues(leaf, 'CN')[0] ?? '';
    if (!name) {
      return new Error('x509: certificate has no common name');
    }
    return { name, groups: subjectValues(leaf, 'O') };
  };
}
