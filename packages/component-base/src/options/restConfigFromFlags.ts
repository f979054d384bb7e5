import { buildConfigFromFlags, type RestConfig } from '@orch/client';
import { clientConnectionOptionsFromFlags } from './componentOptions';
import type { ParsedFlags } from './parsedFlags';

/** A daemon's REST config from --kubeconfig/--master and the --orch-api-* flags. */
export function restConfigFromFlags(flags: ParsedFlags, userAgent: string): RestConfig {
  const conn = clientConnectionOptionsFromFlags(flags);
  const { config } = buildConfigFromFlags({ kubeconfig: conn.kubeconfig, master: conn.master });
  return { ...config, qps: conn.qps, burst: conn.burst, contentType: conn.contentType, userAgent };
}
