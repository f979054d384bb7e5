import type { ApiObject } from '../object';
import { Strategy } from '../strategy';

/**
 * PersistentVolumeClaims: as Kubernetes' claim status strategy resets only the spec, an update
 * through the status subresource keeps the labels and annotations it brings (the expand controller
 * names the claim's resizer in an annotation with the Resizing condition).
 */
export class PersistentVolumeClaimStrategy extends Strategy {
  override prepareForStatusUpdate(obj: ApiObject, old: ApiObject): void {
    const { labels, annotations } = obj.metadata;
    super.prepareForStatusUpdate(obj, old);
    if (labels === undefined) delete obj.metadata.labels;
    else obj.metadata.labels = labels;
    if (annotations === undefined) delete obj.metadata.annotations;
    else obj.metadata.annotations = annotations;
  }
}
