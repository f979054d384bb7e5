import { fieldErrors, type FieldError } from '@orch/api';
import { parseCertificateRequest } from '@orch/component-base';
import type { UserInfo } from '../../authn/authenticator';
import { nowTime, type ApiObject } from '../object';
import { Strategy } from '../strategy';

interface Condition {
  type?: string;
  status?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  [field: string]: unknown;
}

interface CSRStatus {
  conditions?: Condition[];
  certificate?: string;
}

const statusOf = (obj: ApiObject): CSRStatus => (obj.status ?? {}) as CSRStatus;

/** The conditions of `type`, in order. */
const conditionsOf = (obj: ApiObject, type: string): Condition[] =>
  (statusOf(obj).conditions ?? []).filter((c) => c.type === type);

/**
 * CertificateSigningRequests, as Kubernetes' CSR strategies:
 * - the requester's identity is recorded by the server on create (spec.username, uid, groups,
 *   extra), never taken from the body;
 * - spec.request must be a certificate request whose signature holds;
 * - the approval subresource changes only status.conditions (Approved and Denied are added only
 *   there), the status subresource only status and never the Approved and Denied conditions;
 * - no update removes an Approved, Denied or Failed condition, and an issued certificate never changes;
 * - a condition's lastUpdateTime is set when missing, its lastTransitionTime kept from the stored
 *   condition of the same type and status or set to now.
 */
export class CertificateSigningRequestStrategy extends Strategy {
  override readonly objectSubresources: readonly string[] = ['status', 'approval'];

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

  override validate(obj: ApiObject): FieldError[] {
    const errors = super.validate(obj);
    const request = ((obj.spec ?? {}) as { request?: unknown }).request;
    // the declaration checks the PEM block; what is in it is read here (Kubernetes' validateCSR)
    if (typeof request === 'string' && !errors.some((e) => e.field === 'spec.request')) {
      try {
        parseCertificateRequest(Buffer.from(request, 'base64'));
      } catch (e) {
        errors.push(fieldErrors.invalid('spec.request', request, (e as Error).message));
      }
    }
    return errors;
  }

  override prepareForUpdate(obj: ApiObject, old: ApiObject, subresource = ''): void {
    super.prepareForUpdate(obj, old, subresource);
    if (subresource !== 'approval') return;
    obj.spec = old.spec;
    const status: CSRStatus = { ...statusOf(old) };
    const conditions = statusOf(obj).conditions;
    if (conditions === undefined) delete status.conditions;
    else status.conditions = conditions;
    obj.status = status;
    stampConditions(obj, old);
  }

  override prepareForStatusUpdate(obj: ApiObject, old: ApiObject): void {
    super.prepareForStatusUpdate(obj, old);
    preserveConditions(obj, old, 'Approved');
    preserveConditions(obj, old, 'Denied');
    stampConditions(obj, old);
  }

  override validateUpdate(obj: ApiObject, old: ApiObject, subresource = ''): FieldError[] {
    const errors =
      subresource === 'approval'
        ? this.compiled.validateUpdate(obj, old)
        : super.validateUpdate(obj, old, subresource);
    const path = 'status.conditions';
    for (const type of ['Approved', 'Denied', 'Failed']) {
      if (conditionsOf(obj, type).length < conditionsOf(old, type).length)
        errors.push(fieldErrors.forbidden(path, `updates may not remove a condition of type "${type}"`));
    }
    if (subresource !== 'approval') {
      for (const type of ['Approved', 'Denied']) {
        if (conditionsOf(obj, type).length > conditionsOf(old, type).length)
          errors.push(fieldErrors.forbidden(path, `updates may not add a condition of type "${type}"`));
      }
    }
    const certificate = statusOf(obj).certificate ?? '';
    const oldCertificate = statusOf(old).certificate ?? '';
    if (certificate !== oldCertificate) {
      if (subresource !== 'status')
        errors.push(fieldErrors.forbidden('status.certificate', 'updates may not modify the certificate'));
      else if (oldCertificate)
        errors.push(
          fieldErrors.forbidden('status.certificate', 'updates may not modify existing certificate content'),
        );
    }
    return errors;
  }
}

/**
 * The stored conditions of `type` in place of the new ones when there are as many of each (a status
 * update cannot change them; adding or removing them is refused by validation).
 */
function preserveConditions(obj: ApiObject, old: ApiObject, type: string): void {
  const conditions = statusOf(obj).conditions;
  const kept = conditionsOf(old, type);
  if (!conditions || conditions.filter((c) => c.type === type).length !== kept.length) return;
  let next = 0;
  statusOf(obj).conditions = conditions.map((c) => (c.type === type ? kept[next++]! : c));
}

/** Kubernetes' populateConditionTimestamps. */
function stampConditions(obj: ApiObject, old: ApiObject): void {
  const conditions = statusOf(obj).conditions;
  if (!conditions) return;
  const now = nowTime();
  const oldConditions = statusOf(old).conditions ?? [];
  statusOf(obj).conditions = conditions.map((c) => {
    const stamped = { ...c };
    if (!stamped.lastUpdateTime) stamped.lastUpdateTime = now;
    if (!stamped.lastTransitionTime) {
      const same = oldConditions.find(
        (o) => o.type === c.type && o.status === c.status && o.lastTransitionTime,
      );
      stamped.lastTransitionTime = same?.lastTransitionTime ?? now;
    }
    return stamped;
  });
}
