import * as fs from 'node:fs';
import type { RestConfig } from '../rest/RestConfig';
import type { Kubeconfig, KubeconfigCluster, KubeconfigUser } from './Kubeconfig';

/** A resolved client configuration: how to reach the server and the default namespace. */
export interface ClientConfig {
  config: RestConfig;
  /** Namespace of the chosen context, "default" when unset. */
  namespace: string;
  /** Name of the context used, if any. */
  context?: string;
}

export interface KubeconfigOverrides {
  /** Context to use instead of current-context. */
  context?: string;
  /** API server address overriding the cluster's server (the --master flag). */
  master?: string;
  /** Namespace overriding the context's. */
  namespace?: string;
}

function dataOrFile(data: string | undefined, file: string | undefined): Buffer | undefined {
  if (data) {
    return Buffer.from(data, 'base64');
  }
  if (file) {
    return fs.readFileSync(file);
  }
  return undefined;
}

/** Adds https:// to a bare host[:port]. */
export function normalizeServer(server: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(server) ? server : `https://${server}`;
}

/**
 * Turns a kubeconfig into a RestConfig: picks the context (explicit, else current-context),
 * reads certificate files and inline data, and applies the --master override.
 */
export function restConfigFromKubeconfig(kc: Kubeconfig, overrides: KubeconfigOverrides = {}): ClientConfig {
  const contextName = overrides.context || kc.currentContext;
  const context = contextName ? kc.contexts.find((c) => c.name === contextName)?.value : undefined;
  if (contextName && !context && overrides.context) {
    throw new Error(`context "${contextName}" does not exist in the kubeconfig`);
  }
  let cluster: KubeconfigCluster | undefined;
  if (context?.cluster) {
    cluster = kc.clusters.find((c) => c.name === context.cluster)?.value;
    if (!cluster) {
      throw new Error(`cluster "${context.cluster}" of context "${contextName}" does not exist`);
    }
  }
  let user: KubeconfigUser = {};
  if (context?.user) {
    const found = kc.users.find((u) => u.name === context.user)?.value;
    if (!found) {
      throw new Error(`user "${context.user}" of context "${contextName}" does not exist`);
    }
    user = found;
  }
  const server = overrides.master || cluster?.server;
  if (!server) {
    throw new Error('invalid configuration: no server found (set current-context, a context, or --master)');
  }
  const config: RestConfig = { server: normalizeServer(server) };
  const ca = dataOrFile(cluster?.['certificate-authority-data'], cluster?.['certificate-authority']);
  if (ca) {
    config.ca = ca;
  }
  if (cluster?.['insecure-skip-tls-verify']) {
    config.insecure = true;
  }
  if (cluster?.['tls-server-name']) {
    config.tlsServerName = cluster['tls-server-name'];
  }
  const cert = dataOrFile(user['client-certificate-data'], user['client-certificate']);
  const key = dataOrFile(user['client-key-data'], user['client-key']);
  if (cert || key) {
    if (!cert || !key) {
      throw new Error('client certificate and client key must be given together');
    }
    config.cert = cert;
    config.key = key;
  }
  if (user.token) {
    config.token = user.token;
  }
  if (user.tokenFile) {
    config.tokenFile = user.tokenFile;
  }
  if (user.username !== undefined || user.password !== undefined) {
    config.username = user.username ?? '';
    config.password = user.password ?? '';
  }
  return {
    config,
    namespace: overrides.namespace || context?.namespace || 'default',
    ...(contextName && context ? { context: contextName } : {}),
  };
}
