import type { ObjectReference } from '@orch/api';
import type { KubeObject } from '../types';

/** A reference to an object (or the reference itself when given one). */
export function objectReference(obj: KubeObject | ObjectReference): ObjectReference {
  if (!('metadata' in obj) || obj.metadata === undefined) {
    return obj as ObjectReference;
  }
  const o = obj as KubeObject;
  const ref: ObjectReference = {
    kind: o.kind,
    apiVersion: o.apiVersion,
    name: o.metadata?.name,
    uid: o.metadata?.uid,
    resourceVersion: o.metadata?.resourceVersion,
  };
  if (o.metadata?.namespace) {
    ref.namespace = o.metadata.namespace;
  }
  return ref;
}
