import type { NameValidator } from '../../validation/object-meta';
import { CertificateSigningRequestKind, validateCertificateRequestName } from './certificate-signing-request';

export * from './certificate-signing-request';

export const certificatesKinds = [CertificateSigningRequestKind];

/** Name rules of the certificates kinds that are not RFC 1123 subdomains, by kind (compileKind's nameValidation). */
export const certificatesNameValidation: Readonly<Record<string, NameValidator>> = {
  CertificateSigningRequest: validateCertificateRequestName,
};
