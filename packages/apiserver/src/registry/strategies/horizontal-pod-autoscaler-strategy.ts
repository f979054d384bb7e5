import { HPA_CONDITIONS_ANNOTATION } from '@orch/api';
import type { UserInfo } from '../../authn/authenticator';
import type { ApiObject } from '../object';
import { Strategy } from '../strategy';

/**
 * HorizontalPodAutoscalers: autoscaling/v1 carries the status conditions in an annotation, which is
 * status as Kubernetes treats it: cleared on create, kept from the stored object by an update of the
 * main resource, and taken from the request by an update of the status subresource.
 */
export class HorizontalPodAutoscalerStrategy extends Strategy {
  override prepareForCreate(obj: ApiObject, now: Date, user?: UserInfo): void {
    super.prepareForCreate(obj, now, user);
    setConditionsAnnotation(obj, undefined);
  }

  override prepareForUpdate(obj: ApiObject, old: ApiObject, subresource = ''): void {
    super.prepareForUpdate(obj, old, subresource);
    if (!subresource) setConditionsAnnotation(obj, old.metadata.annotations?.[HPA_CONDITIONS_ANNOTATION]);
  }

  override prepareForStatusUpdate(obj: ApiObject, old: ApiObject): void {
    const conditions = obj.metadata?.annotations?.[HPA_CONDITIONS_ANNOTATION];
    super.prepareForStatusUpdate(obj, old);
    setConditionsAnnotation(obj, conditions);
  }
}

function setConditionsAnnotation(obj: ApiObject, value: string | undefined): void {
  const annotations = { ...obj.metadata.annotations };
  if (value === undefined) delete annotations[HPA_CONDITIONS_ANNOTATION];
  else annotations[HPA_CONDITIONS_ANNOTATION] = value;
  if (Object.keys(annotations).length) obj.metadata.annotations = annotations;
  else delete obj.metadata.annotations;
}
