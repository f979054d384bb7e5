import type { X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { peerCertificates, subjectValues, verifyClientChain } from './clientCertificates';
import type { RequestAuthenticator } from './RequestAuthenticator';

/** Where a front proxy puts the user, as the --requestheader-* flags or the lookup ConfigMap say. */
export interface RequestHeaderConfig {
  ca: X509Certificate[];
  allowedNames: string[];
  usernameHeaders: string[];
  groupHeaders: string[];
  extraHeaderPrefixes: string[];
}

function headerValues(req: IncomingMessage, name: string): string[] {
  return (req.headersDistinct[name.toLowerCase()] ?? []).map((v) => v.trim()).filter((v) => v !== '');
}

/**
 * The front-proxy authenticator: a client certificate verified by the request-header CA (and, when
 * allowed names are set, carrying one of them as common name) vouches for the user named in the
 * username headers, with groups and extra attributes from the other headers.
 */
export function requestHeaderAuthenticator(config: () => RequestHeaderConfig): RequestAuthenticator {
  return async (req) => {
    const c = config();
    const name = c.usernameHeaders.map((h) => headerValues(req, h)[0]).find((v) => v !== undefined);
    if (name === undefined) {
      return undefined;
    }
    const leaf = verifyClientChain(peerCertificates(req), c.ca);
    if (!leaf) {
      return undefined;
    }
    if (c.allowedNames.length > 0) {
      const cn = subjectValues(leaf, 'CN')[0] ?? '';
      if (!c.allowedNames.includes(cn)) {
        return new Error(`request header client certificate common name "${cn}" is not allowed`);
      }
    }
    const groups = c.groupHeaders.flatMap((h) => headerValues(req, h));
    const extra: Record<string, string[]> = {};
    for (const prefix of c.extraHeaderPrefixes.map((p) => p.toLowerCase())) {
      for (const [header, values] of Object.entries(req.headersDistinct)) {
        if (header.startsWith(prefix) && header.length > prefix.length && values) {
          const key = decodeURIComponent(header.slice(prefix.length)).toLowerCase();
          extra[key] = [...(extra[key] ?? []), ...values];
        }
      }
    }
    return { name, groups, ...(Object.keys(extra).length > 0 ? { extra } : {}) };
  };
}
