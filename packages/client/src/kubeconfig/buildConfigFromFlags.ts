import { inClusterConfig, type InClusterOptions } from './inClusterConfig';
import { loadKubeconfigFile } from './loadKubeconfig';
import { normalizeServer, restConfigFromKubeconfig, type ClientConfig } from './restConfigFromKubeconfig';

export interface ConfigFlags {
  /** --kubeconfig */
  kubeconfig?: string;
  /** --master: overrides the server of the kubeconfig. */
  master?: string;
  context?: string;
  inCluster?: InClusterOptions;
}

/**
 * The daemons' rule: with neither --kubeconfig nor --master, use the in-cluster config; with a
 * kubeconfig, use it (its server replaced by --master when given); with only --master, talk to
 * that address without credentials.
 */
export function buildConfigFromFlags(flags: ConfigFlags): ClientConfig {
  if (!flags.kubeconfig && !flags.master) {
    return inClusterConfig(flags.inCluster);
  }
  if (flags.kubeconfig) {
    return restConfigFromKubeconfig(loadKubeconfigFile(flags.kubeconfig), {
      ...(flags.master ? { master: flags.master } : {}),
      ...(flags.context ? { context: flags.context } : {}),
    });
  }
  return { config: { server: normalizeServer(flags.master!) }, namespace: 'default' };
}
