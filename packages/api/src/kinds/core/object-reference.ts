import type { Static, TString } from '@sinclair/typebox';
import { inlined, str, struct } from '../../schema/fields';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;

export const ObjectReferenceSchema = struct(
  core('ObjectReference'),
  {
    kind: str({ proto: 1, omitZero: true, description: 'Kind of the referent.' }),
    namespace: str({ proto: 2, omitZero: true, description: 'Namespace of the referent.' }),
    name: str({ proto: 3, omitZero: true, description: 'Name of the referent.' }),
    uid: str({ proto: 4, omitZero: true, description: 'UID of the referent.' }),
    apiVersion: str({ proto: 5, omitZero: true, description: 'API version of the referent.' }),
    resourceVersion: str({
      proto: 6,
      omitZero: true,
      description: 'Specific resourceVersion this reference is made to, if any.',
    }),
    fieldPath: str({
      proto: 7,
      omitZero: true,
      description:
        'When referring to a piece of an object, the path of that piece, e.g. spec.containers{name}.',
    }),
  },
  { mapType: 'atomic' },
);
export type ObjectReference = Static<typeof ObjectReferenceSchema>;

export const LocalObjectReferenceSchema = struct(
  core('LocalObjectReference'),
  { name: str({ proto: 1, omitZero: true, description: 'Name of the referent in the same namespace.' }) },
  { mapType: 'atomic' },
);
export type LocalObjectReference = Static<typeof LocalObjectReferenceSchema>;

/** The `name` of an inlined LocalObjectReference (protobuf field 1 of the parent message). */
export function localObjectReferenceName(description: string): { name: TString } {
  return inlined(
    { field: 'localObjectReference', proto: 1, message: 'k8s.io.api.core.v1.LocalObjectReference' },
    { name: str({ proto: 1, description }) },
  );
}

export const TypedLocalObjectReferenceSchema = struct(
  core('TypedLocalObjectReference'),
  {
    apiGroup: str({ proto: 1, description: 'API group of the referent; empty for the core group.' }),
    kind: str({ proto: 2, description: 'Kind of the referent.' }),
    name: str({ proto: 3, description: 'Name of the referent.' }),
  },
  { mapType: 'atomic' },
);
export type TypedLocalObjectReference = Static<typeof TypedLocalObjectReferenceSchema>;
