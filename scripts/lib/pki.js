'use strict';
// The cluster's certificates and kubeconfigs, made on first start and reused afterwards.

const fs = require('node:fs');
const path = require('node:path');
const { createCA, createSigningKey, issueCertificate, kubeconfigYAML } = require('../../packages/component-base/dist');

/** Client identities of the suite: kubeconfig name → certificate subject. */
const identities = {
  admin: { commonName: 'orch-admin', organizations: ['system:masters'] },
  scheduler: { commonName: 'system:orch-scheduler' },
  'controller-manager': { commonName: 'system:orch-controller-manager' },
  'cloud-controller-manager': { commonName: 'system:orch-cloud-controller-manager' },
  'node-agent': { commonName: 'system:node:orch-node-agent', organizations: ['system:nodes'] },
};

function write(file, content, mode = 0o600) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content, { mode });
}

/**
 * Makes (once) the CA, the apiserver's serving certificate, one client certificate and kubeconfig per
 * identity, and the service-account signing key, under `<dataDir>/pki` and `<dataDir>/*.kubeconfig`.
 */
function ensurePKI(dataDir, server) {
  const pkiDir = path.join(dataDir, 'pki');
  const files = {
    caCert: path.join(pkiDir, 'ca.crt'),
    caKey: path.join(pkiDir, 'ca.key'),
    apiserverCert: path.join(pkiDir, 'apiserver.crt'),
    apiserverKey: path.join(pkiDir, 'apiserver.key'),
    serviceAccountKey: path.join(pkiDir, 'sa.key'),
    serviceAccountPublicKey: path.join(pkiDir, 'sa.pub'),
  };
  const kubeconfigs = Object.fromEntries(Object.keys(identities).map((n) => [n, path.join(dataDir, `${n}.kubeconfig`)]));
  const created = !fs.existsSync(files.caCert);
  if (created) {
    const ca = createCA('orch-ca');
    write(files.caCert, ca.cert, 0o644);
    write(files.caKey, ca.key);
    const serving = issueCertificate(
      {
        commonName: 'orch-apiserver',
        usage: 'server',
        dnsNames: ['localhost', 'orch', 'orch.default', 'orch.default.svc', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc'],
        ips: ['127.0.0.1', '10.0.0.1'],
      },
      ca,
    );
    write(files.apiserverCert, serving.cert, 0o644);
    write(files.apiserverKey, serving.key);
    const sa = createSigningKey();
    write(files.serviceAccountKey, sa.privateKey);
    write(files.serviceAccountPublicKey, sa.publicKey, 0o644);
    for (const [name, subject] of Object.entries(identities)) {
      const client = issueCertificate({ ...subject, usage: 'client' }, ca);
      write(path.join(pkiDir, `${name}.crt`), client.cert, 0o644);
      write(path.join(pkiDir, `${name}.key`), client.key);
    }
  }
  const ca = fs.readFileSync(files.caCert, 'utf8');
  // kubeconfigs are rewritten on every start so they follow the server address
  for (const [name, subject] of Object.entries(identities)) {
    const clientCert = fs.readFileSync(path.join(pkiDir, `${name}.crt`), 'utf8');
    const clientKey = fs.readFileSync(path.join(pkiDir, `${name}.key`), 'utf8');
    write(kubeconfigs[name], kubeconfigYAML({ server, ca, user: subject.commonName, clientCert, clientKey }));
  }
  const admin = {
    cert: fs.readFileSync(path.join(pkiDir, 'admin.crt'), 'utf8'),
    key: fs.readFileSync(path.join(pkiDir, 'admin.key'), 'utf8'),
  };
  return { files, kubeconfigs, ca, admin, created };
}

module.exports = { ensurePKI, identities };
