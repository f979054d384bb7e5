import type { UserInfo } from '../../authn/authenticator';
import type { AuthorizationAttributes, AuthorizationResult } from '../../authz/authorizer';
import type { AdmissionAttributes } from '../admission';
import { admissionForbidden } from '../forbidden';

/** Asks the server's authorizer (admission plugins that check permissions of their own). */
export type Authorize = (attributes: AuthorizationAttributes) => Promise<AuthorizationResult>;

/** The attributes of `verb` on the `signers` resource named `name` (certificates.k8s.io). */
function signerAttributes(user: UserInfo, verb: string, name: string): AuthorizationAttributes {
  return {
    user,
    verb,
    isResourceRequest: true,
    path: '',
    namespace: '',
    apiGroup: 'certificates.k8s.io',
    apiVersion: '*',
    resource: 'signers',
    subresource: '',
    name,
  };
}

/**
 * Whether `user` may `verb` (approve, sign) requests of `signerName`: on that signer, or on every
 * signer of its domain (`<domain>/*`), as Kubernetes' IsAuthorizedForSignerName decides.
 */
async function isAuthorizedForSignerName(
  authorize: Authorize,
  user: UserInfo,
  verb: string,
  signerName: string,
): Promise<boolean> {
  if ((await authorize(signerAttributes(user, verb, signerName))).decision === 'Allow') return true;
  const domain = signerName.split('/')[0]!;
  return (await authorize(signerAttributes(user, verb, `${domain}/*`))).decision === 'Allow';
}

/** Whether the request is on CertificateSigningRequests (certificates.k8s.io). */
export function isCertificateSigningRequest(a: AdmissionAttributes): boolean {
  return a.declaration.group === 'certificates.k8s.io' && a.resource === 'certificatesigningrequests';
}

/**
 * Refuses the request (403) unless its user may `verb` (approve, sign) requests of `signerName`, with
 * the message Kubernetes' certificate admission plugins give.
 */
export async function requireSignerPermission(
  authorize: Authorize,
  a: AdmissionAttributes,
  user: UserInfo,
  verb: string,
  signerName: string,
): Promise<void> {
  if (!(await isAuthorizedForSignerName(authorize, user, verb, signerName)))
    throw admissionForbidden(a, `user not permitted to ${verb} requests with signerName "${signerName}"`);
}
