import type { CertificateSigningRequest } from '@orch/api';
import {
  createCA,
  createCertificateRequest,
  parseCertificateRequest,
  signCertificateRequest,
} from '@orch/component-base';
import { csrCleanupReason } from './csrCleanup';

const HOUR = 3600_000;
const NOW = Date.parse('2026-03-01T12:00:00Z');
const at = (msAgo: number): string => new Date(NOW - msAgo).toISOString().replace(/\.\d+Z$/, 'Z');

type Condition = NonNullable<NonNullable<CertificateSigningRequest['status']>['conditions']>[number];
const condition = (type: string, msAgo: number): Condition => ({
  type,
  status: 'True',
  lastUpdateTime: at(msAgo),
});

const csr = (
  createdAgo: number,
  conditions: Condition[] = [],
  certificate?: string,
): CertificateSigningRequest => ({
  metadata: { name: 'csr', creationTimestamp: at(createdAgo) },
  spec: { request: '', signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'] },
  status: { conditions, ...(certificate ? { certificate } : {}) },
});

/** A base64 PEM certificate valid from `notBefore` to `notAfter` (ms before NOW). */
function certificate(notBeforeAgo: number, notAfterAgo: number): string {
  const req = parseCertificateRequest(createCertificateRequest('dave').request);
  const pem = signCertificateRequest(req, createCA('cleaner-test-ca'), {
    usages: ['client auth'],
    notBefore: new Date(NOW - notBeforeAgo),
    notAfter: new Date(NOW - notAfterAgo),
  });
  return Buffer.from(pem).toString('base64');
}

describe('which requests the csrcleaner deletes', () => {
  const live = certificate(2 * HOUR, -24 * HOUR);

  it('approved and issued: more than an hour after the approval', () => {
    expect(csrCleanupReason(csr(2 * HOUR, [condition('Approved', HOUR + 1000)], live), NOW)).toBe(
      'approved more than 1h0m0s ago',
    );
    expect(csrCleanupReason(csr(2 * HOUR, [condition('Approved', HOUR - 1000)], live), NOW)).toBeUndefined();
  });

  it('approved but not issued: kept (the signer may still issue it)', () => {
    expect(csrCleanupReason(csr(30 * HOUR, [condition('Approved', 10 * HOUR)]), NOW)).toBeUndefined();
  });

  it('denied or failed: more than an hour after the condition', () => {
    expect(csrCleanupReason(csr(2 * HOUR, [condition('Denied', HOUR + 1000)]), NOW)).toBe(
      'denied more than 1h0m0s ago',
    );
    expect(csrCleanupReason(csr(2 * HOUR, [condition('Denied', HOUR - 1000)]), NOW)).toBeUndefined();
    expect(
      csrCleanupReason(csr(2 * HOUR, [condition('Approved', 90_000), condition('Failed', HOUR + 1000)]), NOW),
    ).toBe('failed more than 1h0m0s ago');
    expect(
      csrCleanupReason(csr(2 * HOUR, [condition('Approved', 90_000), condition('Failed', HOUR - 1000)]), NOW),
    ).toBeUndefined();
  });

  it('a condition without lastUpdateTime never ages', () => {
    expect(csrCleanupReason(csr(100 * HOUR, [{ type: 'Denied', status: 'True' }]), NOW)).toBeUndefined();
  });

  it('pending: more than 24 hours after its creation', () => {
    expect(csrCleanupReason(csr(24 * HOUR + 1000), NOW)).toBe('pending for more than 24h0m0s');
    expect(csrCleanupReason(csr(24 * HOUR - 1000), NOW)).toBeUndefined();
  });

  it('approved with an expired certificate: at once', () => {
    const expired = certificate(3 * HOUR, 60_000);
    expect(csrCleanupReason(csr(2 * HOUR, [condition('Approved', 60_000)], expired), NOW)).toBe(
      'its certificate has expired',
    );
    expect(csrCleanupReason(csr(2 * HOUR, [condition('Approved', 60_000)], live), NOW)).toBeUndefined();
    // an unreadable certificate is not taken for an expired one
    expect(
      csrCleanupReason(
        csr(2 * HOUR, [condition('Approved', 60_000)], Buffer.from('junk').toString('base64')),
        NOW,
      ),
    ).toBeUndefined();
  });
});
