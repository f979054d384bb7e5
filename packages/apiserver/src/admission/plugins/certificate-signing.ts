import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../admission';
import { admissionForbidden } from '../forbidden';
import { jsonEqual } from '../../registry/object';
import { isAuthorizedForSignerName, type Authorize } from './signer-authorization';

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
    if (a.declaration.group !== 'certificates.k8s.io' || a.resource !== 'certificatesigningrequests') return;
    if (a.subresource !== 'status' || !a.object || !a.oldObject || !a.user) return;
    const status = (a.object.status ?? {}) as CSRStatus;
    const old = (a.oldObject.status ?? {}) as CSRStatus;
    if (
      (status.certificate ?? '') === (old.certificate ?? '') &&
      jsonEqual(status.conditions ?? [], old.conditions ?? [])
    )
      return;
    const signerName = ((a.oldObject.spec ?? {}) as { signerName?: string }).signerName ?? '';
    if (!(await isAuthorizedForSignerName(this.authorize, a.user, 'sign', signerName)))
      throw admissionForbidden(a, `user not permitted to sign requests with signerName "${signerName}"`);
  }
}
