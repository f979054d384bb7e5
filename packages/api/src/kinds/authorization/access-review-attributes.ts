import type { Static } from '@sinclair/typebox';
import { field, list, map, str, struct } from '../../schema/fields';
import { child, invalid, type FieldError } from '../../validation/field-error';

export const ResourceAttributesSchema = struct('io.k8s.api.authorization.v1.ResourceAttributes', {
  namespace: str({
    proto: 1,
    description: "Namespace of the action; '' means all namespaces for listing verbs.",
  }),
  verb: str({ proto: 2, description: "Kubernetes verb of the action; '*' means all." }),
  group: str({ proto: 3, description: "API group of the resource; '*' means all." }),
  version: str({ proto: 4, description: "API version of the resource; '*' means all." }),
  resource: str({ proto: 5, description: "Resource type; '*' means all." }),
  subresource: str({ proto: 6, description: "Subresource; '' means none." }),
  name: str({ proto: 7, description: "Name of the object; '' means all." }),
});
export type ResourceAttributes = Static<typeof ResourceAttributesSchema>;

export const NonResourceAttributesSchema = struct('io.k8s.api.authorization.v1.NonResourceAttributes', {
  path: str({ proto: 1, description: 'URL path of the request.' }),
  verb: str({ proto: 2, description: 'Standard HTTP verb.' }),
});
export type NonResourceAttributes = Static<typeof NonResourceAttributesSchema>;

/** The resource/non-resource pair every access review spec starts with. */
export const accessReviewAttributeFields = () => ({
  resourceAttributes: field(ResourceAttributesSchema, {
    proto: 1,
    description: 'The resource request; exclusive with nonResourceAttributes.',
  }),
  nonResourceAttributes: field(NonResourceAttributesSchema, {
    proto: 2,
    description: 'The non-resource request; exclusive with resourceAttributes.',
  }),
});

/** The subject fields of SubjectAccessReviewSpec. */
export const accessReviewSubjectFields = () => ({
  user: str({ proto: 3, description: 'User to test; user or groups must be set.' }),
  groups: list(str(), { proto: 4, description: 'Groups to test.' }),
  extra: map(list(str()), {
    proto: 5,
    protoWrapper: 'k8s.io.api.authorization.v1.ExtraValue',
    description: 'Extra information of the user from the authenticator.',
  }),
  uid: str({ proto: 6, description: 'Information about the requesting user.' }),
});

/** Exactly one of resourceAttributes and nonResourceAttributes (Kubernetes' access review rules). */
export function validateAttributesChoice(
  spec: { resourceAttributes?: unknown; nonResourceAttributes?: unknown },
  path: string,
): FieldError[] {
  if (spec.resourceAttributes !== undefined && spec.nonResourceAttributes !== undefined) {
    return [
      invalid(
        child(path, 'nonResourceAttributes'),
        spec.nonResourceAttributes,
        'cannot be specified in combination with resourceAttributes',
      ),
    ];
  }
  if (spec.resourceAttributes === undefined && spec.nonResourceAttributes === undefined) {
    return [
      invalid(
        child(path, 'resourceAttributes'),
        spec.nonResourceAttributes,
        'exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ),
    ];
  }
  return [];
}

/** user or groups must name the subject of a SubjectAccessReview. */
export function validateAccessReviewSubject(
  spec: { user?: string; groups?: string[] },
  path: string,
): FieldError[] {
  if (spec.user || spec.groups?.length) return [];
  return [invalid(child(path, 'user'), spec.user ?? '', 'at least one of user or group must be specified')];
}
