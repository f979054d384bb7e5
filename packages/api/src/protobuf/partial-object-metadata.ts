import { field, list, str, struct } from '../schema/fields';
import { ListMetaSchema, ObjectMetaSchema } from '../meta/object-meta';

const meta = (name: string): string => `io.k8s.apimachinery.pkg.apis.meta.v1.${name}`;

/** The metadata-only form of an object (`as=PartialObjectMetadata`), with Kubernetes' field numbers. */
export const PartialObjectMetadataSchema = struct(meta('PartialObjectMetadata'), {
  apiVersion: str(),
  kind: str(),
  metadata: field(ObjectMetaSchema, { proto: 1 }),
});

/** The metadata-only form of a list (`as=PartialObjectMetadataList`). */
export const PartialObjectMetadataListSchema = struct(meta('PartialObjectMetadataList'), {
  apiVersion: str(),
  kind: str(),
  metadata: field(ListMetaSchema, { proto: 1 }),
  items: list(PartialObjectMetadataSchema, { proto: 2 }),
});
