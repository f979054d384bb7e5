import type { KubeObject } from '@orch/client';

/** Being deleted and still held by the finalizer: the protection controller decides whether to let go. */
export function isDeletionCandidate(obj: KubeObject, finalizer: string): boolean {
  return !!obj.metadata?.deletionTimestamp && (obj.metadata.finalizers ?? []).includes(finalizer);
}

/** Not being deleted and without the finalizer (an object created before admission added it). */
export function needsFinalizer(obj: KubeObject, finalizer: string): boolean {
  return !obj.metadata?.deletionTimestamp && !(obj.metadata?.finalizers ?? []).includes(finalizer);
}

/** The object with the finalizer added or removed. */
export function withFinalizer<T extends KubeObject>(obj: T, finalizer: string, present: boolean): T {
  const others = (obj.metadata?.finalizers ?? []).filter((f) => f !== finalizer);
  return { ...obj, metadata: { ...obj.metadata, finalizers: present ? [...others, finalizer] : others } };
}
