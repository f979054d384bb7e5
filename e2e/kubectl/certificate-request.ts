import { createSigningKey } from '@orch/component-base';
import forge from 'node-forge';

/** A PEM certificate signing request for a client identity (a new RSA 2048 key). */
export function certificateRequestPEM(commonName: string, organization: string): string {
  const { publicKey, privateKey } = createSigningKey();
  const csr = forge.pki.createCertificationRequest();
  csr.publicKey = forge.pki.publicKeyFromPem(publicKey);
  csr.setSubject([
    { name: 'commonName', value: commonName },
    { name: 'organizationName', value: organization },
  ]);
  csr.sign(forge.pki.privateKeyFromPem(privateKey), forge.md.sha256.create());
  return forge.pki.certificationRequestToPem(csr);
}
