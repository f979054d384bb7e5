import { readFileSync } from 'node:fs';
import {
  createPrivateKey,
  createPublicKey,
  randomBytes,
  sign,
  verify,
  X509Certificate,
  type KeyObject,
} from 'node:crypto';
import type forgeModule from 'node-forge';
import { createSigningKey, lfLines, type PemPair } from './pki';

type Asn1 = forgeModule.asn1.Asn1;

// Loaded when a request is read or signed: daemons that never sign never pay for it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const forge = (): typeof forgeModule => require('node-forge') as typeof forgeModule;

const OID = {
  commonName: '2.5.4.3',
  organizationName: '2.5.4.10',
  extensionRequest: '1.2.840.113549.1.9.14',
  subjectAltName: '2.5.29.17',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  basicConstraints: '2.5.29.19',
  extKeyUsage: '2.5.29.37',
  authorityKeyIdentifier: '2.5.29.35',
} as const;

/** Signature algorithms of requests and of the certificates signed here: OID → hash (null for Ed25519). */
const signatureHashes: Record<string, string | null> = {
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.1': 'sha1',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
  '1.3.101.112': null,
};

/** A PKCS#10 certificate request, read and its signature checked. */
export interface ParsedCertificateRequest {
  /** The subject Name, as the request encodes it (carried into the certificate unchanged). */
  subject: Asn1;
  /** The SubjectPublicKeyInfo, as the request encodes it. */
  publicKeyInfo: Asn1;
  /** The requested subjectAltName extension, as encoded, if any. */
  subjectAltName?: Asn1;
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  emailAddresses: string[];
  ipAddresses: string[];
  uris: string[];
}

const der = (node: Asn1): Buffer => Buffer.from(forge().asn1.toDer(node).getBytes(), 'binary');
/** DER decoded, bit strings left as bytes (the typings know only the older boolean argument). */
const fromDer = (bytes: Buffer | string): Asn1 =>
  (forge().asn1.fromDer as unknown as (bytes: string, options: { decodeBitStrings: boolean }) => Asn1)(
    typeof bytes === 'string' ? bytes : bytes.toString('binary'),
    { decodeBitStrings: false },
  );
const children = (node: Asn1 | undefined): Asn1[] => (Array.isArray(node?.value) ? node.value : []);
const oidOf = (node: Asn1 | undefined): string =>
  typeof node?.value === 'string' ? forge().asn1.derToOid(node.value) : '';
/** A BIT STRING's bytes (its first content byte counts the unused bits). */
const bitString = (node: Asn1 | undefined): Buffer =>
  typeof node?.value === 'string' ? Buffer.from(node.value.slice(1), 'binary') : Buffer.alloc(0);

/** The values of attribute `oid` in a Name. */
function nameValues(name: Asn1, oid: string): string[] {
  const out: string[] = [];
  for (const rdn of children(name))
    for (const attribute of children(rdn)) {
      const [type, value] = children(attribute);
      if (oidOf(type) === oid && typeof value?.value === 'string')
        out.push(forge().util.decodeUtf8(value.value));
    }
  return out;
}

/** An IP address's text from its 4 or 16 bytes. */
function ipText(bytes: Buffer): string {
  if (bytes.length === 4) return [...bytes].join('.');
  const groups: string[] = [];
  for (let i = 0; i + 1 < bytes.length; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  return groups.join(':');
}

/** The names of a subjectAltName extension's value (GeneralNames). */
function altNames(
  extensionValue: Asn1,
): Pick<ParsedCertificateRequest, 'dnsNames' | 'emailAddresses' | 'ipAddresses' | 'uris'> {
  const names = {
    dnsNames: [] as string[],
    emailAddresses: [] as string[],
    ipAddresses: [] as string[],
    uris: [] as string[],
  };
  for (const n of children(extensionValue)) {
    const v = typeof n.value === 'string' ? n.value : '';
    if (n.type === 1) names.emailAddresses.push(v);
    else if (n.type === 2) names.dnsNames.push(v);
    else if (n.type === 6) names.uris.push(v);
    else if (n.type === 7) names.ipAddresses.push(ipText(Buffer.from(v, 'binary')));
  }
  return names;
}

/**
 * Reads a PEM certificate request (Kubernetes' ParseCSR and CheckSignature): a CERTIFICATE REQUEST
 * block with a valid self-signature by an RSA, ECDSA or Ed25519 key. Throws an Error saying what is
 * wrong.
 */
export function parseCertificateRequest(pem: string | Buffer): ParsedCertificateRequest {
  const text = Buffer.isBuffer(pem) ? pem.toString('latin1') : pem;
  const block = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/.exec(text);
  if (!block || block[1] !== 'CERTIFICATE REQUEST')
    throw new Error('PEM block type must be CERTIFICATE REQUEST');
  let request: Asn1;
  try {
    request = fromDer(Buffer.from(block[2]!.replace(/\s+/g, ''), 'base64'));
  } catch {
    throw new Error('asn1: structure error: the certificate request is not valid DER');
  }
  const [info, algorithm, signature] = children(request);
  const [, subject, publicKeyInfo, attributes] = children(info);
  if (!info || !subject || !publicKeyInfo || !algorithm || !signature)
    throw new Error('x509: malformed certificate request');
  let key: KeyObject;
  try {
    key = createPublicKey({ key: der(publicKeyInfo), format: 'der', type: 'spki' });
  } catch {
    throw new Error('x509: unsupported public key in certificate request');
  }
  const algorithmOID = oidOf(children(algorithm)[0]);
  const hash = signatureHashes[algorithmOID];
  if (hash === undefined)
    throw new Error(`x509: cannot verify signature: algorithm ${algorithmOID} is unsupported`);
  if (!verify(hash, der(info), key, bitString(signature)))
    throw new Error('unable to verify certificate request signature: x509: signature verification failure');
  let subjectAltName: Asn1 | undefined;
  for (const attribute of children(attributes)) {
    const [type, values] = children(attribute);
    if (oidOf(type) !== OID.extensionRequest) continue;
    for (const extension of children(children(values)[0])) {
      if (oidOf(children(extension)[0]) === OID.subjectAltName) subjectAltName = extension;
    }
  }
  const sanValue = subjectAltName ? children(subjectAltName).at(-1) : undefined;
  const names =
    typeof sanValue?.value === 'string'
      ? altNames(fromDer(sanValue.value))
      : { dnsNames: [], emailAddresses: [], ipAddresses: [], uris: [] };
  return {
    subject,
    publicKeyInfo,
    ...(subjectAltName ? { subjectAltName } : {}),
    commonName: nameValues(subject, OID.commonName)[0] ?? '',
    organizations: nameValues(subject, OID.organizationName),
    ...names,
  };
}

/** Key usages of a request (Kubernetes' KeyUsage strings) as x509 key usage bits (0 = digitalSignature). */
const keyUsageBits: Record<string, number> = {
  signing: 0,
  'digital signature': 0,
  'content commitment': 1,
  'key encipherment': 2,
  'key agreement': 4,
  'data encipherment': 3,
  'cert sign': 5,
  'crl sign': 6,
  'encipher only': 7,
  'decipher only': 8,
};

/** Extended key usages of a request as OIDs. */
const extKeyUsageOIDs: Record<string, string> = {
  any: '2.5.29.37.0',
  'server auth': '1.3.6.1.5.5.7.3.1',
  'client auth': '1.3.6.1.5.5.7.3.2',
  'code signing': '1.3.6.1.5.5.7.3.3',
  'email protection': '1.3.6.1.5.5.7.3.4',
  's/mime': '1.3.6.1.5.5.7.3.4',
  'ipsec end system': '1.3.6.1.5.5.7.3.5',
  'ipsec tunnel': '1.3.6.1.5.5.7.3.6',
  'ipsec user': '1.3.6.1.5.5.7.3.7',
  timestamping: '1.3.6.1.5.5.7.3.8',
  'ocsp signing': '1.3.6.1.5.5.7.3.9',
  'microsoft sgc': '1.3.6.1.4.1.311.10.3.3',
  'netscape sgc': '2.16.840.1.113730.4.1',
};

export interface SigningOptions {
  /** The request's usages (Kubernetes' KeyUsage strings); an unknown one is an error. */
  usages: readonly string[];
  notBefore: Date;
  notAfter: Date;
}

/** The parts of the CA certificate a certificate it signs refers to. */
function issuerOf(caCert: string): { subject: Asn1; keyId?: string; notAfter: Date } {
  const x509 = new X509Certificate(caCert);
  const tbs = children(fromDer(x509.raw))[0];
  const fields = children(tbs);
  // [0] version, serial, signature, issuer, validity, subject, ...
  const offset = fields[0]?.tagClass === forge().asn1.Class.CONTEXT_SPECIFIC ? 1 : 0;
  let keyId: string | undefined;
  const extensions = fields.find((f) => f.tagClass === forge().asn1.Class.CONTEXT_SPECIFIC && f.type === 3);
  for (const extension of children(children(extensions)[0])) {
    const parts = children(extension);
    if (oidOf(parts[0]) !== OID.subjectKeyIdentifier) continue;
    const value = parts.at(-1)?.value;
    if (typeof value === 'string') {
      const inner = fromDer(value).value;
      if (typeof inner === 'string') keyId = inner;
    }
  }
  return { subject: fields[offset + 4]!, ...(keyId ? { keyId } : {}), notAfter: new Date(x509.validTo) };
}

/**
 * Signs `request` with the CA `ca` (PEM certificate and RSA, ECDSA or Ed25519 key), as Kubernetes'
 * certificate authority does: the request's subject, public key and subjectAltName; key usages and
 * extended key usages from `usages`; not a CA; the CA's key identifier; validity as given, but not
 * past the CA's own. Returns the PEM certificate.
 */
export function signCertificateRequest(
  request: ParsedCertificateRequest,
  ca: PemPair,
  options: SigningOptions,
): string {
  const { asn1 } = forge();
  const { Class, Type } = asn1;
  const seq = (value: Asn1[]): Asn1 => asn1.create(Class.UNIVERSAL, Type.SEQUENCE, true, value);
  const oid = (id: string): Asn1 =>
    asn1.create(Class.UNIVERSAL, Type.OID, false, asn1.oidToDer(id).getBytes());
  const octets = (bytes: string): Asn1 => asn1.create(Class.UNIVERSAL, Type.OCTETSTRING, false, bytes);
  const extension = (id: string, critical: boolean, value: Asn1): Asn1 =>
    seq([
      oid(id),
      ...(critical ? [asn1.create(Class.UNIVERSAL, Type.BOOLEAN, false, String.fromCharCode(0xff))] : []),
      octets(asn1.toDer(value).getBytes()),
    ]);
  const time = (d: Date): Asn1 =>
    d.getUTCFullYear() < 2050
      ? asn1.create(Class.UNIVERSAL, Type.UTCTIME, false, asn1.dateToUtcTime(d))
      : asn1.create(Class.UNIVERSAL, Type.GENERALIZEDTIME, false, asn1.dateToGeneralizedTime(d));

  let keyBits = 0;
  let hasKeyUsage = false;
  const extKeyUsages: string[] = [];
  for (const usage of options.usages) {
    if (usage in keyUsageBits) {
      keyBits |= 1 << keyUsageBits[usage]!;
      hasKeyUsage = true;
    } else if (usage in extKeyUsageOIDs) extKeyUsages.push(extKeyUsageOIDs[usage]!);
    else throw new Error(`unrecognized usage: ${usage}`);
  }
  const issuer = issuerOf(ca.cert);
  const key = createPrivateKey(ca.key);
  const hash = key.asymmetricKeyType === 'ed25519' ? null : 'sha256';
  const algorithm = seq(
    key.asymmetricKeyType === 'ec'
      ? [oid('1.2.840.10045.4.3.2')]
      : key.asymmetricKeyType === 'ed25519'
        ? [oid('1.3.101.112')]
        : [oid('1.2.840.113549.1.1.11'), asn1.create(Class.UNIVERSAL, Type.NULL, false, '')],
  );
  const extensions: Asn1[] = [];
  if (hasKeyUsage) {
    // a BIT STRING of the usage bits, most significant first, without trailing zero bits
    const bytes = [keyBits & 0xff, (keyBits >> 8) & 0xff].map((b) => {
      let r = 0;
      for (let i = 0; i < 8; i++) if (b & (1 << i)) r |= 0x80 >> i;
      return r;
    });
    while (bytes.length > 1 && bytes.at(-1) === 0) bytes.pop();
    const last = bytes.at(-1)!;
    let unused = 0;
    while (unused < 7 && !(last & (1 << unused))) unused++;
    const bits = String.fromCharCode(unused, ...bytes);
    extensions.push(extension(OID.keyUsage, true, asn1.create(Class.UNIVERSAL, Type.BITSTRING, false, bits)));
  }
  if (extKeyUsages.length) extensions.push(extension(OID.extKeyUsage, false, seq(extKeyUsages.map(oid))));
  extensions.push(extension(OID.basicConstraints, true, seq([])));
  if (issuer.keyId)
    extensions.push(
      extension(
        OID.authorityKeyIdentifier,
        false,
        seq([asn1.create(Class.CONTEXT_SPECIFIC, 0, false, issuer.keyId)]),
      ),
    );
  if (request.subjectAltName) extensions.push(request.subjectAltName);

  const notAfter = options.notAfter > issuer.notAfter ? issuer.notAfter : options.notAfter;
  // a positive 128-bit serial number, minimally encoded
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  const tbs = seq([
    asn1.create(Class.CONTEXT_SPECIFIC, 0, true, [
      asn1.create(Class.UNIVERSAL, Type.INTEGER, false, String.fromCharCode(2)),
    ]),
    asn1.create(Class.UNIVERSAL, Type.INTEGER, false, serial.toString('binary')),
    algorithm,
    issuer.subject,
    seq([time(options.notBefore), time(notAfter)]),
    request.subject,
    request.publicKeyInfo,
    asn1.create(Class.CONTEXT_SPECIFIC, 3, true, [seq(extensions)]),
  ]);
  const signature = sign(hash, der(tbs), key);
  const certificate = seq([
    tbs,
    algorithm,
    asn1.create(Class.UNIVERSAL, Type.BITSTRING, false, `\u0000${signature.toString('binary')}`),
  ]);
  const body = der(certificate).toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN CERTIFICATE-----\n${body}${body.endsWith('\n') ? '' : '\n'}-----END CERTIFICATE-----\n`;
}

/**
 * The signing CA of `--cluster-signing-cert-file` and `--cluster-signing-key-file`: a PEM certificate
 * and the PEM private key that belongs to it. Throws an Error naming the file and what is wrong.
 */
export function loadSigningCA(certFile: string, keyFile: string): PemPair {
  const read = (file: string, what: string): string => {
    try {
      return readFileSync(file, 'utf8');
    } catch (e) {
      throw new Error(`error reading CA ${what} file "${file}": ${(e as Error).message}`, { cause: e });
    }
  };
  const cert = read(certFile, 'cert');
  const key = read(keyFile, 'key');
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch (e) {
    throw new Error(
      `error reading CA cert file "${certFile}": not a PEM certificate (${(e as Error).message})`,
      { cause: e },
    );
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key);
  } catch (e) {
    throw new Error(
      `error reading CA key file "${keyFile}": not a PEM private key (${(e as Error).message})`,
      { cause: e },
    );
  }
  if (!x509.checkPrivateKey(privateKey))
    throw new Error(`the CA key in "${keyFile}" does not belong to the certificate in "${certFile}"`);
  return { cert, key };
}

/**
 * A new RSA key and a PEM certificate request signed with it for `commonName` in `organizations`
 * (what `openssl req -new` makes for a user).
 */
export function createCertificateRequest(
  commonName: string,
  organizations: readonly string[] = [],
): { request: string; key: string } {
  const { pki, md } = forge();
  const keys = createSigningKey();
  const csr = pki.createCertificationRequest();
  csr.publicKey = pki.publicKeyFromPem(keys.publicKey);
  csr.setSubject([
    { name: 'commonName', value: commonName },
    ...organizations.map((value) => ({ name: 'organizationName', value })),
  ]);
  csr.sign(pki.privateKeyFromPem(keys.privateKey), md.sha256.create());
  return { request: lfLines(pki.certificationRequestToPem(csr)), key: keys.privateKey };
}
