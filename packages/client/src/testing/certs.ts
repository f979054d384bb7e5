import forge from 'node-forge';

/** PEM material for tests: a CA, a server certificate for 127.0.0.1/localhost, a client certificate. */
export interface TestPki {
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** A second CA that signed nothing the server uses: verification against it must fail. */
  otherCaCert: string;
}

function makeCert(
  subjectCN: string,
  keys: forge.pki.rsa.KeyPair,
  issuer: { cert: forge.pki.Certificate | undefined; key: forge.pki.rsa.PrivateKey },
  extensions: object[],
  serial: string,
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serial;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 24 * 3600_000);
  const subject = [{ name: 'commonName', value: subjectCN }];
  cert.setSubject(subject);
  cert.setIssuer(issuer.cert ? issuer.cert.subject.attributes : subject);
  cert.setExtensions(extensions);
  cert.sign(issuer.key, forge.md.sha256.create());
  return cert;
}

function keyPair(): forge.pki.rsa.KeyPair {
  return forge.pki.rsa.generateKeyPair({ bits: 2048, e: 0x10001 });
}

/** Generates a fresh PKI (takes a moment: four RSA keys). */
export function generateTestPki(): TestPki {
  const caKeys = keyPair();
  const ca = makeCert(
    'test-ca',
    caKeys,
    { cert: undefined, key: caKeys.privateKey },
    [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true },
    ],
    '01',
  );
  const serverKeys = keyPair();
  const server = makeCert(
    'test-server',
    serverKeys,
    { cert: ca, key: caKeys.privateKey },
    [
      { name: 'basicConstraints', cA: false },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
          { type: 2, value: 'api.orch.test' },
        ],
      },
    ],
    '02',
  );
  const clientKeys = keyPair();
  const client = makeCert(
    'test-user',
    clientKeys,
    { cert: ca, key: caKeys.privateKey },
    [
      { name: 'basicConstraints', cA: false },
      { name: 'extKeyUsage', clientAuth: true },
    ],
    '03',
  );
  const otherKeys = keyPair();
  const other = makeCert(
    'other-ca',
    otherKeys,
    { cert: undefined, key: otherKeys.privateKey },
    [{ name: 'basicConstraints', cA: true }],
    '04',
  );
  const pem = forge.pki.certificateToPem;
  return {
    caCert: pem(ca),
    serverCert: pem(server),
    serverKey: forge.pki.privateKeyToPem(serverKeys.privateKey),
    clientCert: pem(client),
    clientKey: forge.pki.privateKeyToPem(clientKeys.privateKey),
    otherCaCert: pem(other),
  };
}
