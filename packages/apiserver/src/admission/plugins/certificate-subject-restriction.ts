import { parseCertificateRequest } from '@orch/component-base';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../admission';
import { admissionForbidden } from '../forbidden';
import { isCertificateSigningRequest } from './signer-authorization';

const KUBE_APISERVER_CLIENT = 'kubernetes.io/kube-apiserver-client';

/**
 * CertificateSubjectRestriction: a CertificateSigningRequest for the kube-apiserver-client signer may
 * not ask for the system:masters group, whose certificates no authorization could limit.
 */
export class CertificateSubjectRestriction implements AdmissionPlugin {
  readonly name = 'CertificateSubjectRestriction';

  handles(operation: Operation): boolean {
    return operation === 'CREATE';
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (!isCertificateSigningRequest(a) || a.subresource || !a.object) return;
    const spec = (a.object.spec ?? {}) as { signerName?: string; request?: string };
    if (spec.signerName !== KUBE_APISERVER_CLIENT) return;
    let organizations: string[];
    try {
      organizations = parseCertificateRequest(Buffer.from(spec.request ?? '', 'base64')).organizations;
    } catch (e) {
      throw admissionForbidden(a, `failed to parse CSR: ${(e as Error).message}`);
    }
    if (organizations.includes('system:masters'))
      throw admissionForbidden(
        a,
        `use of ${KUBE_APISERVER_CLIENT} signer with system:masters group is not allowed`,
      );
  }
}
