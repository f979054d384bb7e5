import type { Static } from '@sinclair/typebox';
import { required, str, struct } from '../../schema/fields';

export const CrossVersionObjectReferenceSchema = struct(
  'io.k8s.api.autoscaling.v1.CrossVersionObjectReference',
  {
    kind: required(str({ proto: 1, description: 'Kind of the referent, e.g. Deployment.' })),
    name: required(str({ proto: 2, description: 'Name of the referent.' })),
    apiVersion: str({ proto: 3, description: 'API version of the referent.' }),
  },
);
export type CrossVersionObjectReference = Static<typeof CrossVersionObjectReferenceSchema>;
