import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type forgeModule from 'node-forge';

/** A PEM certificate with its PEM private key. */
export interface PemPair {
  cert: string;
  key: string;
}

export type CertUsage = 'ca' | 'server' | 'client' | 'server-client';

/** What a certificate names and what it may be used for. */
export interface CertificateSpec {
  commonName: string;
  organizations?: string[];
  dnsNames?: string[];
  ips?: string[];
  usage: CertUsage;
  validDays?: number;
}

const day = 24 * 60 * 60 * 1000;

/**
 * Issues an RSA 2048 certificate for `spec`, signed by `issuer` (self-signed when no issuer is given,
 * which is how a CA starts).
 */
export function issueCertificate(spec: CertificateSpec, issuer?: PemPair): PemPair {
  // Loaded when a certificate is made: daemons that find their certificates on disk never pay for it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const forge = require('node-forge') as typeof forgeModule;
  const { privateKey, publicKey } = createSigningKey();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey);
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  const now = Date.now();
  cert.validity.notBefore = new Date(now - 60 * 60 * 1000);
  cert.validity.notAfter = new Date(now + (spec.validDays ?? (spec.usage === 'ca' ? 3650 : 365)) * day);
  const subject = [
    { name: 'commonName', value: spec.commonName },
    ...(spec.organizations ?? []).map((value) => ({ name: 'organizationName', value })),
  ];
  cert.setSubject(subject);
  const issuerCert = issuer ? forge.pki.certificateFromPem(issuer.cert) : undefined;
  cert.setIssuer(issuerCert ? issuerCert.subject.attributes : subject);
  const altNames = [
    ...(spec.dnsNames ?? []).map((value) => ({ type: 2, value })),
    ...(spec.ips ?? []).map((ip) => ({ type: 7, ip })),
  ];
  const isCA = spec.usage === 'ca';
  cert.setExtensions([
    { name: 'basicConstraints', cA: isCA, critical: isCA },
    isCA
      ? { name: 'keyUsage', critical: true, keyCertSign: true, cRLSign: true, digitalSignature: true }
      : { name: 'keyUsage', critical: true, digitalSignature: true, keyEncipherment: true },
    ...(isCA
      ? []
      : [
          {
            name: 'extKeyUsage',
            serverAuth: spec.usage !== 'client',
            clientAuth: spec.usage === 'client' || spec.usage === 'server-client',
          },
        ]),
    ...(altNames.length ? [{ name: 'subjectAltName', altNames }] : []),
    { name: 'subjectKeyIdentifier' },
  ]);
  const signingKey = forge.pki.privateKeyFromPem(issuer ? issuer.key : privateKey);
  cert.sign(signingKey, forge.md.sha256.create());
  return { cert: lfLines(forge.pki.certificateToPem(cert)), key: privateKey };
}

/**
 * PEM text with plain newlines, as Kubernetes writes it (the certificate library ends lines with
 * CRLF, which a CA bundle published in a ConfigMap would show).
 */
export function lfLines(pem: string): string {
  return pem.replace(/\r\n/g, '\n');
}

/** A new self-signed certificate authority. */
export function createCA(commonName: string): PemPair {
  return issueCertificate({ commonName, usage: 'ca' });
}

/**
 * A new RSA 2048 key pair (private PKCS#8 and public SPKI PEM): the key of a certificate, or one for
 * signing service-account tokens.
 */
export function createSigningKey(): { privateKey: string; publicKey: string } {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}
