import type { Static } from '@sinclair/typebox';
import { required, str, struct, type StructSchema } from '../../schema/fields';
import { nameIsDNSSubdomain } from '../../util/names';
import {
  child,
  invalid,
  notSupported,
  required as requiredError,
  type FieldError,
} from '../../validation/field-error';
import { RBAC_GROUP } from './policy-rule';

export const SubjectKinds = ['ServiceAccount', 'User', 'Group'] as const;

const subjectFields = {
  kind: required(str({ proto: 1, description: 'Kind of the subject: User, Group or ServiceAccount.' })),
  apiGroup: str({
    proto: 2,
    description:
      "Group of the subject: '' for service accounts, rbac.authorization.k8s.io for users and groups.",
  }),
  name: required(str({ proto: 3, description: 'Name of the subject.' })),
  namespace: str({ proto: 4, description: 'Namespace of a service account subject.' }),
};

/** The value a Subject hook receives. */
type SubjectValue = Static<StructSchema<typeof subjectFields>>;

export const SubjectSchema = struct('io.k8s.api.rbac.v1.Subject', subjectFields, {
  mapType: 'atomic',
  defaults: (subject) => {
    if (!subject.apiGroup && (subject.kind === 'User' || subject.kind === 'Group'))
      subject.apiGroup = RBAC_GROUP;
  },
  validate: (subject, path) => validateSubject(subject, path),
});
export type Subject = Static<typeof SubjectSchema>;

/** Kubernetes' ValidateRoleBindingSubject (the namespace rule of cluster bindings is ClusterRoleBinding's). */
function validateSubject(subject: SubjectValue, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (subject.name === '') errors.push(requiredError(child(path, 'name')));
  switch (subject.kind) {
    case 'ServiceAccount':
      if (subject.name) {
        for (const msg of nameIsDNSSubdomain(subject.name, false)) {
          errors.push(invalid(child(path, 'name'), subject.name, msg));
        }
      }
      if (subject.apiGroup) errors.push(notSupported(child(path, 'apiGroup'), subject.apiGroup, ['']));
      break;
    case 'User':
    case 'Group':
      if (subject.apiGroup !== RBAC_GROUP) {
        errors.push(notSupported(child(path, 'apiGroup'), subject.apiGroup ?? '', [RBAC_GROUP]));
      }
      break;
    default:
      errors.push(notSupported(child(path, 'kind'), subject.kind, SubjectKinds));
  }
  return errors;
}

/** The users, groups and service accounts (namespace/name) of a subject list, as the binding tables show them. */
export function subjectNames(subjects: readonly Subject[] | undefined): {
  users: string[];
  groups: string[];
  serviceAccounts: string[];
} {
  const users: string[] = [];
  const groups: string[] = [];
  const serviceAccounts: string[] = [];
  for (const s of subjects ?? []) {
    if (s.kind === 'User') users.push(s.name);
    else if (s.kind === 'Group') groups.push(s.name);
    else if (s.kind === 'ServiceAccount') serviceAccounts.push(`${s.namespace ?? ''}/${s.name}`);
  }
  return { users, groups, serviceAccounts };
}
