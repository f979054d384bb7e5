import { statusErrors, type StatusError } from '../errors/status-error';
import type { AdmissionAttributes } from './admission';

/** admission.NewForbidden: `<resource> "<name>" is forbidden: <reason>`. */
export function admissionForbidden(a: AdmissionAttributes, reason: string): StatusError {
  const qualified = a.declaration.group ? `${a.resource}.${a.declaration.group}` : a.resource;
  const subject = a.name ? `${qualified} "${a.name}"` : qualified;
  return statusErrors.forbidden(`${subject} is forbidden: ${reason}`, {
    name: a.name,
    group: a.declaration.group,
    kind: a.resource,
  });
}
