/** The fields of an OwnerReference these helpers use. */
export interface OwnerReferenceLike {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean | null;
  blockOwnerDeletion?: boolean | null;
}

/** Any object with metadata (and maybe owner references). */
export interface ObjectWithOwners<R extends OwnerReferenceLike = OwnerReferenceLike> {
  metadata?: { ownerReferences?: readonly R[] | null } | null;
}

/** An object that can own others: its name and uid. */
export interface OwnerLike {
  metadata?: { name?: string | null; uid?: string | null } | null;
}

/** A group/version/kind; group is '' for the core group. */
export interface GroupVersionKindLike {
  group: string;
  version: string;
  kind: string;
}

/** The owner reference with controller=true, if any (metav1.GetControllerOf). */
export function getControllerOf<R extends OwnerReferenceLike>(obj: ObjectWithOwners<R>): R | undefined {
  const refs = obj.metadata?.ownerReferences;
  if (!refs) return undefined;
  for (let i = 0; i < refs.length; i++) {
    if (refs[i]!.controller === true) return refs[i];
  }
  return undefined;
}

/** Whether `owner` is the controller of `obj`: the controller reference's uid is the owner's (metav1.IsControlledBy). */
export function isControlledBy(obj: ObjectWithOwners, owner: OwnerLike): boolean {
  const ref = getControllerOf(obj);
  return ref !== undefined && ref.uid === (owner.metadata?.uid ?? '');
}

/** `group/version`, or `version` for the core group (GroupVersion.String). */
export function groupVersionString(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/**
 * A controller owner reference to `owner` (metav1.NewControllerRef): controller and
 * blockOwnerDeletion set to true.
 */
export function newControllerRef(
  owner: OwnerLike,
  gvk: GroupVersionKindLike,
): OwnerReferenceLike & {
  controller: true;
  blockOwnerDeletion: true;
} {
  return {
    apiVersion: groupVersionString(gvk.group, gvk.version),
    kind: gvk.kind,
    name: owner.metadata?.name ?? '',
    uid: owner.metadata?.uid ?? '',
    blockOwnerDeletion: true,
    controller: true,
  };
}
