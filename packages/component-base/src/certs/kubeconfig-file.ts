import { stringify } from 'yaml';

export interface KubeconfigSpec {
  server: string;
  /** PEM of the CA that signed the server's certificate. */
  ca: string;
  user: string;
  /** Client certificate and key (PEM), or a bearer token. */
  clientCert?: string;
  clientKey?: string;
  token?: string;
  cluster?: string;
  namespace?: string;
}

const b64 = (s: string): string => Buffer.from(s).toString('base64');

/** A kubeconfig with one cluster, one user and one context, credentials embedded. */
export function kubeconfigYAML(spec: KubeconfigSpec): string {
  const cluster = spec.cluster ?? 'orch';
  const user: Record<string, string> = {};
  if (spec.clientCert) user['client-certificate-data'] = b64(spec.clientCert);
  if (spec.clientKey) user['client-key-data'] = b64(spec.clientKey);
  if (spec.token) user.token = spec.token;
  const context: Record<string, string> = { cluster, user: spec.user };
  if (spec.namespace) context.namespace = spec.namespace;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: cluster, cluster: { server: spec.server, 'certificate-authority-data': b64(spec.ca) } },
    ],
    users: [{ name: spec.user, user }],
    contexts: [{ name: `${spec.user}@${cluster}`, context }],
    'current-context': `${spec.user}@${cluster}`,
    preferences: {},
  });
}
