import type { UserInfo } from '../../authn/authenticator';
import type { ApiObject } from '../object';
import { Strategy } from '../strategy';

/**
 * CertificateSigningRequests: the requester's identity is recorded by the server on create (spec.username,
 * uid, groups, extra), never taken from the body, as Kubernetes' CSR strategy does.
 */
export class CertificateSigningRequestStrategy extends Strategy {
  override prepareForCreate(obj: ApiObject, now: Date, user?: UserInfo): void {
    super.prepareForCreate(obj, now, user);
    const spec = (obj.spec ??= {}) as Record<string, unknown>;
    delete spec.username;
    delete spec.uid;
    delete spec.groups;
    delete spec.extra;
    if (!user) return;
    spec.username = user.username;
    if (user.uid) spec.uid = user.uid;
    if (user.groups.length) spec.groups = [...user.groups];
    if (user.extra && Object.keys(user.extra).length) spec.extra = structuredClone(user.extra);
  }
}
