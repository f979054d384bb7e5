import { jsonEqual, type ApiObject } from '../object';
import { Strategy } from '../strategy';

/**
 * Custom resources (kinds a CustomResourceDefinition declares): metadata.generation is always kept
 * and counts every change outside metadata — status included, unless status is a subresource — as
 * Kubernetes' customresource strategy does.
 */
export class CustomResourceStrategy extends Strategy {
  override readonly schemaTypeErrorsInvalid = true;
  protected override readonly statusStruct = false;

  protected override get tracksGeneration(): boolean {
    return true;
  }

  protected override specChanged(obj: ApiObject, old: ApiObject): boolean {
    if (this.hasStatus) return super.specChanged(obj, old);
    for (const k of new Set([...Object.keys(obj), ...Object.keys(old)])) {
      if (k === 'metadata' || k === 'apiVersion' || k === 'kind') continue;
      if (!jsonEqual(obj[k], old[k])) return true;
    }
    return false;
  }
}
