import type { Static } from '@sinclair/typebox';
import { required, str, struct } from '../../schema/fields';
import { RBAC_GROUP } from './policy-rule';

export const RoleRefSchema = struct(
  'io.k8s.api.rbac.v1.RoleRef',
  {
    apiGroup: required(str({ proto: 1, description: 'Group of the referenced role.' })),
    kind: required(str({ proto: 2, description: 'Kind of the referenced role: Role or ClusterRole.' })),
    name: required(str({ proto: 3, description: 'Name of the referenced role.' })),
  },
  {
    mapType: 'atomic',
    defaults: (ref) => {
      if (!ref.apiGroup) ref.apiGroup = RBAC_GROUP;
    },
  },
);
export type RoleRef = Static<typeof RoleRefSchema>;
