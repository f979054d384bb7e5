import {
  CLUSTER_INFO_KUBECONFIG_KEY,
  JWS_SIGNATURE_KEY_PREFIX,
  type ConfigMapKind,
  type ObjectOf,
} from '@orch/api';
import { detachedSignature } from './jws';

export type ConfigMap = ObjectOf<typeof ConfigMapKind>;

/** A token that signs: its id and secret. */
export interface SigningToken {
  id: string;
  secret: string;
}

/**
 * The cluster-info ConfigMap with a `jws-kubeconfig-<token-id>` signature of its kubeconfig for
 * each token and no signature of any other token; undefined when it has no kubeconfig or already
 * holds exactly these signatures. A token id given twice signs with its first secret.
 */
export function signedClusterInfo(cm: ConfigMap, tokens: readonly SigningToken[]): ConfigMap | undefined {
  const content = cm.data?.[CLUSTER_INFO_KUBECONFIG_KEY];
  if (content === undefined) return undefined;
  const data: Record<string, string> = {};
  const stale = new Map<string, string>();
  for (const [key, value] of Object.entries(cm.data ?? {})) {
    if (key.startsWith(JWS_SIGNATURE_KEY_PREFIX)) stale.set(key, value);
    else data[key] = value;
  }
  let changed = false;
  for (const token of tokens) {
    const key = `${JWS_SIGNATURE_KEY_PREFIX}${token.id}`;
    if (key in data) continue;
    const signature = detachedSignature(content, token.id, token.secret);
    if (stale.get(key) !== signature) changed = true;
    stale.delete(key);
    data[key] = signature;
  }
  if (stale.size > 0) changed = true;
  return changed ? { ...cm, data } : undefined;
}
