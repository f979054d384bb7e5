import type { Static } from '@sinclair/typebox';
import { int64, rawExtension, required, struct } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, type OwnerReference, typeMeta } from '../../meta/object-meta';
import { invalid, required as requiredError, type FieldError } from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';

/** The label naming, by its hash, the ControllerRevision a DaemonSet's or StatefulSet's pod was made from. */
export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash';

export const ControllerRevisionSchema = struct(
  'io.k8s.api.apps.v1.ControllerRevision',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    data: rawExtension({ proto: 2, immutable: true, description: 'The serialized state of this revision.' }),
    revision: required(int64({ proto: 3, description: 'Revision number of the state in data.' })),
  },
  {
    description:
      'An immutable snapshot of state data, kept by DaemonSet and StatefulSet controllers to roll back and forward.',
    // Kubernetes' ValidateControllerRevision.
    validate: (rev): FieldError[] => [
      ...(rev.data === undefined || rev.data === null ? [requiredError('data', 'data is mandatory')] : []),
      ...(rev.revision < 0 ? [invalid('revision', rev.revision, 'must be greater than or equal to 0')] : []),
    ],
  },
);
export type ControllerRevision = Static<typeof ControllerRevisionSchema>;

/** The CONTROLLER cell: `<kind>.<group>/<name>` of the controlling owner, lower-cased kind; `<none>` without one. */
export function controllerCell(owners: readonly OwnerReference[] | undefined): string {
  const ref = owners?.find((o) => o.controller);
  if (!ref) return '<none>';
  const slash = ref.apiVersion.indexOf('/');
  const group = slash < 0 ? '' : ref.apiVersion.slice(0, slash);
  const kind = group ? `${ref.kind}.${group}` : ref.kind;
  return `${kind.toLowerCase()}/${ref.name}`;
}

export const ControllerRevisionKind = defineKind({
  group: 'apps',
  versions: ['v1'],
  kind: 'ControllerRevision',
  plural: 'controllerrevisions',
  singular: 'controllerrevision',
  namespaced: true,
  schema: ControllerRevisionSchema,
  columns: [
    nameColumn(),
    {
      name: 'Controller',
      type: 'string',
      description: 'Controller of the object.',
      cell: (rev) => controllerCell(rev.metadata?.ownerReferences),
    },
    {
      name: 'Revision',
      type: 'string',
      description: 'Revision of the ControllerRevision.',
      cell: (rev) => rev.revision,
    },
    ageColumn(),
  ],
});
