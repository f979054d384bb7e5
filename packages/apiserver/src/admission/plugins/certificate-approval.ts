import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../admission';
import { isCertificateSigningRequest, requireSignerPermission, type Authorize } from './signer-authorization';

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
    if (!isCertificateSigningRequest(a) || a.subresource !== 'approval' || !a.object || !a.user) return;
    const signerName = ((a.object.spec ?? {}) as { signerName?: string }).signerName ?? '';
    await requireSignerPermission(this.authorize, a, a.user, 'approve', signerName);
  }
}
