import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../admission';
import { admissionForbidden } from '../forbidden';
import { isAuthorizedForSignerName, type Authorize } from './signer-authorization';

/**
 * CertificateApproval: approving or denying a CertificateSigningRequest (its approval subresource)
 * takes the `approve` verb on the request's signer (`signers`, certificates.k8s.io).
 */
export class CertificateApproval implements AdmissionPlugin {
  readonly name = 'CertificateApproval';

  constructor(private readonly authorize: Authorize) {}

  handles(operation: Operation): boolean {
    return operation === 'UPDATE';
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.declaration.group !== 'certificates.k8s.io' || a.resource !== 'certificatesigningrequests') return;
    if (a.subresource !== 'approval' || !a.object || !a.user) return;
    const signerName = ((a.object.spec ?? {}) as { signerName?: string }).signerName ?? '';
    if (!(await isAuthorizedForSignerName(this.authorize, a.user, 'approve', signerName)))
      throw admissionForbidden(a, `user not permitted to approve requests with signerName "${signerName}"`);
  }
}
