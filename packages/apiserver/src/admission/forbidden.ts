import { statusErrors, type StatusError } from '../errors/status-error';
import type { AdmissionAttributes } from './admission';

/** admission.NewForbidden: `<resource> "<name>" is forbidden: <reason>`. */
export function admissionForbidden(a: AdmissionAttributes, reason: string): StatusError {
  return statusErrors.forbiddenObject({ group: a.declaration.group, resource: a.resource }, a.name, reason);
}
