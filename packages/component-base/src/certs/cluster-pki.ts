import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createCA, createSigningKey, issueCertificate } from './pki';
import { kubeconfigYAML } from './kubeconfig-file';

/** Client identities of the suite: kubeconfig name → certificate subject. */
export const clusterIdentities: Record<string, { commonName: string; organizations?: string[] }> = {
  admin: { commonName: 'orch-admin', organizations: ['system:masters'] },
  scheduler: { commonName: 'system:orch-scheduler' },
  'controller-manager': { commonName: 'system:orch-controller-manager' },
  'cloud-controller-manager': { commonName: 'system:orch-cloud-controller-manager' },
  'node-agent': { commonName: 'system:node:orch-node-agent', organizations: ['system:nodes'] },
};

export interface ClusterPKI {
  files: {
    caCert: string;
    caKey: string;
    apiserverCert: string;
    apiserverKey: string;
    serviceAccountKey: string;
    serviceAccountPublicKey: string;
    /** The apiserver's client certificate for the node agents (`--kubelet-client-certificate`). */
    kubeletClientCert: string;
    kubeletClientKey: string;
  };
  /** Kubeconfig path per identity name. */
  kubeconfigs: Record<string, string>;
  ca: string;
  admin: { cert: string; key: string };
  /** True when this call made a new CA (a new cluster). */
  created: boolean;
}

function write(file: string, content: string, mode = 0o600): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content, { mode });
}

/**
 * The certificates of a cluster under `<dataDir>/pki`: made once (CA, the apiserver's serving
 * certificate, one client certificate per identity, the service-account signing key), reused
 * afterwards; the kubeconfigs `<dataDir>/<identity>.kubeconfig` are rewritten on every call so they
 * follow the server address.
 */
export function ensureClusterPKI(dataDir: string, server: string, servingIPs: string[] = []): ClusterPKI {
  const pkiDir = join(dataDir, 'pki');
  const files = {
    caCert: join(pkiDir, 'ca.crt'),
    caKey: join(pkiDir, 'ca.key'),
    apiserverCert: join(pkiDir, 'apiserver.crt'),
    apiserverKey: join(pkiDir, 'apiserver.key'),
    serviceAccountKey: join(pkiDir, 'sa.key'),
    serviceAccountPublicKey: join(pkiDir, 'sa.pub'),
    kubeletClientCert: join(pkiDir, 'apiserver-kubelet-client.crt'),
    kubeletClientKey: join(pkiDir, 'apiserver-kubelet-client.key'),
  };
  const kubeconfigs = Object.fromEntries(
    Object.keys(clusterIdentities).map((n) => [n, join(dataDir, `${n}.kubeconfig`)]),
  );
  const created = !existsSync(files.caCert);
  if (created) {
    const ca = createCA('orch-ca');
    write(files.caCert, ca.cert, 0o644);
    write(files.caKey, ca.key);
    const serving = issueCertificate(
      {
        commonName: 'orch-apiserver',
        usage: 'server',
        dnsNames: [
          'localhost',
          'orch',
          'orch.default',
          'orch.default.svc',
          'kubernetes',
          'kubernetes.default',
          'kubernetes.default.svc',
        ],
        ips: [...new Set(['127.0.0.1', '10.0.0.1', ...servingIPs])],
      },
      ca,
    );
    write(files.apiserverCert, serving.cert, 0o644);
    write(files.apiserverKey, serving.key);
    const sa = createSigningKey();
    write(files.serviceAccountKey, sa.privateKey);
    write(files.serviceAccountPublicKey, sa.publicKey, 0o644);
    for (const [name, subject] of Object.entries(clusterIdentities)) {
      const client = issueCertificate({ ...subject, usage: 'client' }, ca);
      write(join(pkiDir, `${name}.crt`), client.cert, 0o644);
      write(join(pkiDir, `${name}.key`), client.key);
    }
  }
  if (!existsSync(files.kubeletClientCert) || !existsSync(files.kubeletClientKey)) {
    // made for a cluster of an earlier version too: its CA signs it
    const signer = { cert: readFileSync(files.caCert, 'utf8'), key: readFileSync(files.caKey, 'utf8') };
    const client = issueCertificate(
      { commonName: 'orch-apiserver-kubelet-client', organizations: ['system:masters'], usage: 'client' },
      signer,
    );
    write(files.kubeletClientCert, client.cert, 0o644);
    write(files.kubeletClientKey, client.key);
  }
  const ca = readFileSync(files.caCert, 'utf8');
  for (const [name, subject] of Object.entries(clusterIdentities)) {
    const clientCert = readFileSync(join(pkiDir, `${name}.crt`), 'utf8');
    const clientKey = readFileSync(join(pkiDir, `${name}.key`), 'utf8');
    write(
      kubeconfigs[name]!,
      kubeconfigYAML({ server, ca, user: subject.commonName, clientCert, clientKey }),
    );
  }
  const admin = {
    cert: readFileSync(join(pkiDir, 'admin.crt'), 'utf8'),
    key: readFileSync(join(pkiDir, 'admin.key'), 'utf8'),
  };
  return { files, kubeconfigs, ca, admin, created };
}
