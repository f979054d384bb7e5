import { isValidPathSegmentName } from '../../util/names';
import { child, invalid, notSupported, required, type FieldError } from '../../validation/field-error';
import { RBAC_GROUP } from './policy-rule';
import type { RoleRef } from './role-ref';

/** Kubernetes' checks of a binding's roleRef; `kinds` are the role kinds the binding may reference. */
export function validateRoleRef(
  ref: RoleRef | undefined,
  path: string,
  kinds: readonly string[],
): FieldError[] {
  const errors: FieldError[] = [];
  const r = ref ?? { apiGroup: '', kind: '', name: '' };
  if (r.apiGroup !== RBAC_GROUP) errors.push(notSupported(child(path, 'apiGroup'), r.apiGroup, [RBAC_GROUP]));
  if (!kinds.includes(r.kind)) errors.push(notSupported(child(path, 'kind'), r.kind, kinds));
  if (!r.name) errors.push(required(child(path, 'name')));
  else
    for (const msg of isValidPathSegmentName(r.name)) errors.push(invalid(child(path, 'name'), r.name, msg));
  return errors;
}

/** roleRef cannot change once the binding exists. */
export function validateRoleRefUpdate(ref: RoleRef, old: RoleRef): FieldError[] {
  if (ref.apiGroup === old.apiGroup && ref.kind === old.kind && ref.name === old.name) return [];
  return [invalid('roleRef', ref, 'cannot change roleRef')];
}
