import {
  getControllerOf,
  labelSelectorAsSelector,
  type LabelSelector,
  type LabelSelectorLike,
  type LabelsSelector,
} from '@orch/api';
import type { KubeObject, Lister } from '@orch/client';

/**
 * The object of `kind` that the controller reference of `obj` names, from the lister, when it is that
 * very object (the same UID, not a newer one of the same name).
 */
export function resolveControllerRef<T extends KubeObject>(
  lister: Lister<T>,
  obj: KubeObject,
  kind: string,
): T | undefined {
  const ref = getControllerOf(obj);
  if (!ref || ref.kind !== kind) return undefined;
  const owner = lister.namespace(obj.metadata?.namespace ?? '').get(ref.name);
  return owner && owner.metadata?.uid === ref.uid ? owner : undefined;
}

/** An owner's spec.selector as a selector; undefined when it does not convert. */
export function specSelector(owner: { spec?: { selector?: LabelSelector } }): LabelsSelector | undefined {
  return parsedSelector(owner.spec?.selector);
}

function parsedSelector(selector: LabelSelectorLike | undefined): LabelsSelector | undefined {
  try {
    return labelSelectorAsSelector(selector);
  } catch {
    return undefined;
  }
}

/**
 * The objects in `obj`'s namespace whose valid, non-empty selector matches its labels (owners of an
 * orphan); `selectorOf` reads an owner's selector (its spec.selector unless given).
 */
export function selectingObjects<T extends KubeObject>(
  lister: Lister<T>,
  obj: KubeObject,
  selectorOf: (owner: T) => LabelSelectorLike | undefined = (owner) =>
    (owner as { spec?: { selector?: LabelSelector } }).spec?.selector,
): T[] {
  const labels = obj.metadata?.labels ?? {};
  return lister
    .namespace(obj.metadata?.namespace ?? '')
    .list()
    .filter((owner) => {
      const selector = parsedSelector(selectorOf(owner));
      return selector !== undefined && !selector.empty() && selector.matches(labels);
    });
}
