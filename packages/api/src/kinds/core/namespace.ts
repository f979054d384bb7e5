import type { Static } from '@sinclair/typebox';
import { field, list, str, struct, time } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { isQualifiedName, nameIsDNSLabel } from '../../util/names';
import { child, invalid, type FieldError } from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;

/** The finalizer the namespace controller removes once the namespace's content is gone. */
export const FINALIZER_KUBERNETES = 'kubernetes';

/** Finalizer names that need no domain prefix (Kubernetes' IsStandardFinalizerName). */
const standardFinalizers = new Set([FINALIZER_KUBERNETES, 'orphan', 'foregroundDeletion']);

/** Kubernetes' validateFinalizerName: a qualified name, either standard or domain-prefixed. */
export function validateFinalizerName(name: string, path: string): FieldError[] {
  const errors: FieldError[] = isQualifiedName(name).map((msg) => invalid(path, name, msg));
  if (!name.includes('/') && !standardFinalizers.has(name)) {
    errors.push(invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified'));
  }
  return errors;
}

export const NamespaceSpecSchema = struct(
  core('NamespaceSpec'),
  {
    finalizers: list(str(), {
      proto: 1,
      description: 'Values that must be empty before the namespace is removed from storage.',
    }),
  },
  {
    validate: (spec, path) =>
      (spec.finalizers ?? []).flatMap((f, i) =>
        validateFinalizerName(f, child(child(path, 'finalizers'), i)),
      ),
  },
);

export const NamespaceConditionSchema = struct(core('NamespaceCondition'), {
  type: str({ proto: 1, description: 'Type of namespace controller condition.' }),
  status: str({ proto: 2, description: 'Status of the condition: True, False or Unknown.' }),
  lastTransitionTime: time({ proto: 4, description: 'Last time the condition changed.' }),
  reason: str({ proto: 5, description: 'Machine-readable reason for the last transition.' }),
  message: str({ proto: 6, description: 'Human-readable details of the last transition.' }),
});

export const NamespaceStatusSchema = struct(core('NamespaceStatus'), {
  phase: str({
    proto: 1,
    enum: ['Active', 'Terminating'],
    default: 'Active',
    description: 'Lifecycle phase of the namespace: Active or Terminating.',
  }),
  conditions: list(NamespaceConditionSchema, {
    proto: 2,
    patchMergeKey: 'type',
    patchStrategy: 'merge',
    description: 'Latest observations of the namespace state.',
  }),
});

export const NamespaceSchema = struct(
  core('Namespace'),
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(NamespaceSpecSchema, { proto: 2, default: {}, description: 'Behaviour of the namespace.' }),
    status: field(NamespaceStatusSchema, {
      proto: 3,
      default: {},
      description: 'Current status of the namespace.',
    }),
  },
  { description: 'A scope for names: most objects belong to a namespace.' },
);
export type Namespace = Static<typeof NamespaceSchema>;

export const NamespaceKind = defineKind({
  group: '',
  versions: ['v1'],
  kind: 'Namespace',
  plural: 'namespaces',
  singular: 'namespace',
  shortNames: ['ns'],
  namespaced: false,
  generation: false,
  schema: NamespaceSchema,
  // Kubernetes' ValidateNamespaceName: a namespace name is an RFC 1123 label, not a subdomain.
  nameValidation: nameIsDNSLabel,
  // every verb but deletecollection, as Kubernetes serves namespaces
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: { status: true, finalize: { verbs: ['update'] } },
  selectableFields: {
    'status.phase': (ns) => ns.status?.phase ?? '',
    // Kept by Kubernetes for compatibility with old clients.
    name: (ns) => ns.metadata?.name ?? '',
  },
  columns: [
    nameColumn(),
    {
      name: 'Status',
      type: 'string',
      description: 'The status of the namespace',
      cell: (ns) => ns.status?.phase ?? '',
    },
    ageColumn(),
  ],
});
