import { ConfigMapKind } from '@orch/api';
import { clientFor, isNotFound, type RestClient } from '@orch/client';
import { SYSTEM_NAMESPACE } from '../options/daemonKind';

/** The ConfigMap in which the API server publishes how clients authenticate. */
export const AUTHENTICATION_CONFIGMAP = 'extension-apiserver-authentication';

/** What the ConfigMap says (only the keys present). */
export interface AuthenticationLookup {
  clientCA?: string;
  requestHeaderCA?: string;
  requestHeaderAllowedNames?: string[];
  requestHeaderUsernameHeaders?: string[];
  requestHeaderGroupHeaders?: string[];
  requestHeaderExtraHeaderPrefixes?: string[];
}

function stringList(data: Record<string, string>, key: string): string[] | undefined {
  const raw = data[key];
  if (raw === undefined) {
    return undefined;
  }
  const parsed: unknown = JSON.parse(raw);
  if (!Array.isArray(parsed) || parsed.some((v) => typeof v !== 'string')) {
    throw new Error(`${key} in configmap/${AUTHENTICATION_CONFIGMAP} is not a JSON list of strings`);
  }
  return parsed as string[];
}

/**
 * Reads configmap/extension-apiserver-authentication in the system namespace. A missing ConfigMap
 * reads as empty (the server publishes nothing); any other failure rejects.
 */
export async function lookupAuthenticationConfig(
  rest: RestClient,
  namespace = SYSTEM_NAMESPACE,
): Promise<AuthenticationLookup> {
  let data: Record<string, string>;
  try {
    const cm = await clientFor(rest, ConfigMapKind).get(AUTHENTICATION_CONFIGMAP, { namespace });
    data = cm.data ?? {};
  } catch (err) {
    if (isNotFound(err)) {
      return {};
    }
    throw err;
  }
  const out: AuthenticationLookup = {};
  if (data['client-ca-file']) out.clientCA = data['client-ca-file'];
  if (data['requestheader-client-ca-file']) out.requestHeaderCA = data['requestheader-client-ca-file'];
  const lists: [keyof AuthenticationLookup, string][] = [
    ['requestHeaderAllowedNames', 'requestheader-allowed-names'],
    ['requestHeaderUsernameHeaders', 'requestheader-username-headers'],
    ['requestHeaderGroupHeaders', 'requestheader-group-headers'],
    ['requestHeaderExtraHeaderPrefixes', 'requestheader-extra-headers-prefix'],
  ];
  for (const [field, key] of lists) {
    const v = stringList(data, key);
    if (v) (out as Record<string, unknown>)[field] = v;
  }
  return out;
}
