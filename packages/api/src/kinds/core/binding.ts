import type { Static } from '@sinclair/typebox';
import { field, required, struct } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { notSupported, required as requiredError, type FieldError } from '../../validation/field-error';
import { ObjectReferenceSchema } from './object-reference';

/** Kubernetes' ValidatePodBinding: the target is a node, named. */
export function validatePodBinding(target: { kind?: string; name?: string } | undefined): FieldError[] {
  const errors: FieldError[] = [];
  if (target?.kind && target.kind !== 'Node')
    errors.push(notSupported('target.kind', target.kind, ['Node', '<empty>']));
  if (!target?.name) errors.push(requiredError('target.name', ''));
  return errors;
}

export const BindingSchema = struct(
  'io.k8s.api.core.v1.Binding',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    target: required(
      field(ObjectReferenceSchema, { proto: 2, description: 'The object to bind to (a node).' }),
    ),
  },
  {
    description: "Binding ties an object to another; a pod's binding assigns it to a node.",
    validate: (binding) => validatePodBinding(binding.target),
  },
);
export type Binding = Static<typeof BindingSchema>;

/** The `bindings` resource: binds the pod named in metadata to a node; nothing is stored. */
export const BindingKind = defineKind({
  group: '',
  versions: ['v1'],
  kind: 'Binding',
  plural: 'bindings',
  singular: 'binding',
  namespaced: true,
  schema: BindingSchema,
  verbs: ['create'],
  virtual: true,
});
