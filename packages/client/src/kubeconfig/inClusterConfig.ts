import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ClientConfig } from './restConfigFromKubeconfig';

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface InClusterOptions {
  /** Directory holding token, ca.crt and namespace; the service-account mount by default. */
  baseDir?: string;
  env?: NodeJS.ProcessEnv;
}

export class NotInClusterError extends Error {
  constructor() {
    super(
      'unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined',
    );
    this.name = 'NotInClusterError';
  }
}

/**
 * The configuration of a pod: server from KUBERNETES_SERVICE_HOST/PORT, the service-account
 * token file (re-read periodically, so rotation works), its CA and namespace.
 */
export function inClusterConfig(opts: InClusterOptions = {}): ClientConfig {
  const env = opts.env ?? process.env;
  const dir = opts.baseDir ?? SERVICE_ACCOUNT_DIR;
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) {
    throw new NotInClusterError();
  }
  const tokenFile = path.join(dir, 'token');
  // Fail early when the token is missing, as client-go does.
  fs.accessSync(tokenFile, fs.constants.R_OK);
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const caFile = path.join(dir, 'ca.crt');
  let namespace = env.POD_NAMESPACE || 'default';
  const nsFile = path.join(dir, 'namespace');
  if (!env.POD_NAMESPACE && fs.existsSync(nsFile)) {
    namespace = fs.readFileSync(nsFile, 'utf8').trim() || 'default';
  }
  return {
    config: {
      server: `https://${hostPart}:${port}`,
      tokenFile,
      ...(fs.existsSync(caFile) ? { ca: fs.readFileSync(caFile) } : {}),
    },
    namespace,
  };
}
