import { X509Certificate } from 'node:crypto';

/** One SNI certificate: its PEM pair and the explicit patterns given with it (if any). */
export interface SniCertificate {
  cert: string;
  key: string;
  names: string[];
}

/** The names a certificate serves: its common name and DNS and IP subject alternative names. */
export function certificateNames(pem: string): string[] {
  const x509 = new X509Certificate(pem);
  const names: string[] = [];
  const cn = /(?:^|\n)CN=([^\n]+)/.exec(x509.subject)?.[1];
  if (cn && /^(\*\.)?[A-Za-z0-9.-]+$/.test(cn)) names.push(cn);
  for (const entry of (x509.subjectAltName ?? '').split(', ')) {
    const [kind, ...rest] = entry.split(':');
    const value = rest.join(':');
    if ((kind === 'DNS' || kind === 'IP Address') && value && !names.includes(value)) names.push(value);
  }
  return names.map((n) => n.toLowerCase());
}

/**
 * Chooses the certificate for an SNI server name. Explicit patterns beat names extracted from the
 * certificates; an exact match beats a wildcard one; among equals the first listed wins.
 */
export class SniSelector {
  private readonly byName = new Map<string, number>();

  constructor(readonly certificates: readonly SniCertificate[]) {
    certificates.forEach((c, i) => {
      for (const name of c.names)
        if (!this.byName.has(name.toLowerCase())) this.byName.set(name.toLowerCase(), i);
    });
    certificates.forEach((c, i) => {
      if (c.names.length > 0) return;
      for (const name of certificateNames(c.cert)) if (!this.byName.has(name)) this.byName.set(name, i);
    });
  }

  /** The index of the certificate for `serverName`, or undefined for the default certificate. */
  select(serverName: string): number | undefined {
    const name = serverName.toLowerCase().replace(/\.$/, '');
    const exact = this.byName.get(name);
    if (exact !== undefined) return exact;
    const dot = name.indexOf('.');
    return dot > 0 ? this.byName.get(`*${name.slice(dot)}`) : undefined;
  }
}
