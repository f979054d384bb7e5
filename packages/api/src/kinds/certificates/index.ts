import { CertificateSigningRequestKind } from './certificate-signing-request';

export * from './certificate-signing-request';

export const certificatesKinds = [CertificateSigningRequestKind];
