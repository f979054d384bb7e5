import { X509Certificate } from 'node:crypto';
import type { CertificateSigningRequest } from '@orch/api';

const HOUR_MS = 60 * 60 * 1000;

/** How long an approved and issued request is kept after its approval. */
export const APPROVED_EXPIRATION_MS = HOUR_MS;
/** How long a denied request is kept after its denial. */
export const DENIED_EXPIRATION_MS = HOUR_MS;
/** How long a failed request is kept after its failure. */
export const FAILED_EXPIRATION_MS = HOUR_MS;
/** How long a request with no condition is kept after its creation. */
export const PENDING_EXPIRATION_MS = 24 * HOUR_MS;
/** How often the csrcleaner looks at every request. */
export const CSR_CLEANER_INTERVAL_MS = HOUR_MS;

/** Whether the timestamp `t` is set and more than `ms` before `now`. */
function olderThan(t: string | undefined, ms: number, now: number): boolean {
  if (!t) return false;
  const at = Date.parse(t);
  return Number.isFinite(at) && now - at > ms;
}

/** The expiry of the first certificate of a base64 PEM chain; undefined when there is none to read. */
function certificateNotAfter(certificate: string): number | undefined {
  const pem = Buffer.from(certificate, 'base64').toString('latin1');
  const block = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/.exec(pem);
  if (!block) return undefined;
  try {
    return Date.parse(new X509Certificate(block[0]).validTo);
  } catch {
    return undefined;
  }
}

/**
 * Why the csrcleaner deletes a request at `now`, undefined to keep it (Kubernetes' rules): approved
 * and issued more than an hour ago (the Approved condition's lastUpdateTime), denied or failed more
 * than an hour ago (their condition's lastUpdateTime), created more than 24 hours ago and still
 * without any condition, or approved with an issued certificate that has expired.
 */
export function csrCleanupReason(csr: CertificateSigningRequest, now: number): string | undefined {
  const conditions = csr.status?.conditions ?? [];
  const certificate = csr.status?.certificate ?? '';
  for (const c of conditions) {
    if (c.type === 'Approved' && certificate && olderThan(c.lastUpdateTime, APPROVED_EXPIRATION_MS, now))
      return 'approved more than 1h0m0s ago';
  }
  for (const c of conditions) {
    if (c.type === 'Denied' && olderThan(c.lastUpdateTime, DENIED_EXPIRATION_MS, now))
      return 'denied more than 1h0m0s ago';
  }
  for (const c of conditions) {
    if (c.type === 'Failed' && olderThan(c.lastUpdateTime, FAILED_EXPIRATION_MS, now))
      return 'failed more than 1h0m0s ago';
  }
  if (!conditions.length && olderThan(csr.metadata?.creationTimestamp, PENDING_EXPIRATION_MS, now))
    return 'pending for more than 24h0m0s';
  if (certificate && conditions.some((c) => c.type === 'Approved')) {
    const notAfter = certificateNotAfter(certificate);
    if (notAfter !== undefined && now > notAfter) return 'its certificate has expired';
  }
  return undefined;
}
