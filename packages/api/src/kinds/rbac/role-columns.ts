import type { ColumnDeclaration } from '../../schema/kind';
import { ageColumn, nameColumn } from '../columns';
import { subjectNames, type Subject } from './subject';
import type { RoleRef } from './role-ref';

/** The CREATED AT column of roles and cluster roles (an RFC 3339 time, not an age). */
export function createdAtColumn(): ColumnDeclaration<{ metadata?: { creationTimestamp?: string } }> {
  return {
    name: 'Created At',
    type: 'date',
    description:
      'CreationTimestamp is a timestamp representing the server time when this object was created.',
    cell: (obj) => obj.metadata?.creationTimestamp ?? '',
  };
}

interface Binding {
  metadata?: { name?: string; creationTimestamp?: string };
  roleRef: RoleRef;
  subjects?: Subject[];
}

/** Columns of role bindings and cluster role bindings: NAME ROLE AGE, wide USERS GROUPS SERVICEACCOUNTS. */
export function bindingColumns(): ColumnDeclaration<Binding>[] {
  return [
    nameColumn(),
    {
      name: 'Role',
      type: 'string',
      description: 'Kind and name of the role the binding grants.',
      cell: (b) => `${b.roleRef.kind}/${b.roleRef.name}`,
    },
    ageColumn(),
    {
      name: 'Users',
      type: 'string',
      priority: 1,
      description: 'Users in the binding.',
      cell: (b) => subjectNames(b.subjects).users.join(', '),
    },
    {
      name: 'Groups',
      type: 'string',
      priority: 1,
      description: 'Groups in the binding.',
      cell: (b) => subjectNames(b.subjects).groups.join(', '),
    },
    {
      name: 'ServiceAccounts',
      type: 'string',
      priority: 1,
      description: 'Service accounts in the binding, as namespace/name.',
      cell: (b) => subjectNames(b.subjects).serviceAccounts.join(', '),
    },
  ];
}
