import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../admission';
import { jsonEqual } from '../../registry/object';
import { isCertificateSigningRequest, requireSignerPermission, type Authorize } from './signer-authorization';

interface CSRStatus {
  certificate?: string;
  conditions?: unknown[];
}

/**
 * CertificateSigning: a status update of a CertificateSigningRequest that changes its certificate or
 * its conditions takes the `sign` verb on the request's signer (`signers`, certificates.k8s.io).
 */
export class CertificateSigning implements AdmissionPlugin {
  readonly name = 'CertificateSigning';

  constructor(private readonly authorize: Authorize) {}

  handles(operation: Operation): boolean {
    return operation === 'UPDATE';
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (!isCertificateSigningRequest(a) || a.subresource !== 'status') return;
    if (!a.object || !a.oldObject || !a.user) return;
    const status = (a.object.status ?? {}) as CSRStatus;
    const old = (a.oldObject.status ?? {}) as CSRStatus;
    if (
      (status.certificate ?? '') === (old.certificate ?? '') &&
      jsonEqual(status.conditions ?? [], old.conditions ?? [])
    )
      return;
    const signerName = ((a.oldObject.spec ?? {}) as { signerName?: string }).signerName ?? '';
    await requireSignerPermission(this.authorize, a, a.user, 'sign', signerName);
  }
}
