import { validatePathSegmentName } from '../../util/names';

/** Kubernetes' ValidateRBACName: RBAC objects may be named with any path segment (e.g. `system:node`). */
export const validateRBACName = (name: string, prefix: boolean): readonly string[] =>
  validatePathSegmentName(name, prefix);
