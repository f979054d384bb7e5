import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';

const CLIENT_AUTH_OID = '1.3.6.1.5.5.7.3.2';
const ANY_EKU_OID = '2.5.29.37.0';

/** The certificates of a PEM bundle. */
export function parseCABundle(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) {
    throw new Error('data does not contain any valid RSA or ECDSA certificates');
  }
  return blocks.map((b) => new X509Certificate(b));
}

/**
 * The PEM CA bundle in `file` (a flag's such as --root-ca-file), as read: it must hold at least one
 * certificate. Throws an Error naming the file and what is wrong.
 */
export function loadCABundleFile(file: string): string {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`error reading CA bundle file "${file}": ${(e as Error).message}`, { cause: e });
  }
  try {
    parseCABundle(pem);
  } catch (e) {
    throw new Error(`error parsing CA bundle file "${file}": ${(e as Error).message}`, { cause: e });
  }
  return pem;
}

/** The certificates the client presented, leaf first (empty when it presented none). */
export function peerCertificates(req: IncomingMessage): X509Certificate[] {
  const socket = req.socket as Partial<TLSSocket>;
  if (typeof socket.getPeerCertificate !== 'function') {
    return [];
  }
  const chain: X509Certificate[] = [];
  let cert: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  const seen = new Set<string>();
  while (cert && cert.raw && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    chain.push(new X509Certificate(cert.raw));
    cert = cert.issuerCertificate;
  }
  return chain;
}

function validAt(cert: X509Certificate, now: number): boolean {
  return Date.parse(cert.validFrom) <= now && now <= Date.parse(cert.validTo);
}

function signedBy(cert: X509Certificate, issuer: X509Certificate): boolean {
  return cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
}

/**
 * Verifies a client chain against a CA bundle: the leaf must be valid now and usable for client
 * authentication, and lead through presented intermediates (CAs, valid now) to a bundle certificate.
 * Returns the leaf, or undefined when the chain does not verify.
 */
export function verifyClientChain(
  chain: X509Certificate[],
  roots: X509Certificate[],
  now = Date.now(),
): X509Certificate | undefined {
  const leaf = chain[0];
  if (!leaf || !validAt(leaf, now)) {
    return undefined;
  }
  const usages = leaf.keyUsage;
  if (usages && usages.length > 0 && !usages.includes(CLIENT_AUTH_OID) && !usages.includes(ANY_EKU_OID)) {
    return undefined;
  }
  let current = leaf;
  const intermediates = chain.slice(1);
  for (let depth = 0; depth <= intermediates.length; depth++) {
    if (roots.some((root) => validAt(root, now) && signedBy(current, root))) {
      return leaf;
    }
    const next = intermediates.find((c) => c.ca && validAt(c, now) && signedBy(current, c));
    if (!next) {
      return undefined;
    }
    current = next;
  }
  return undefined;
}

/** Values of one attribute of a certificate subject (`CN`, `O`). */
export function subjectValues(cert: X509Certificate, attribute: string): string[] {
  return cert.subject
    .split('\n')
    .filter((line) => line.startsWith(`${attribute}=`))
    .map((line) => line.slice(attribute.length + 1));
}
