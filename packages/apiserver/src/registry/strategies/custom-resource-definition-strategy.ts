import { customResourceCleanupFinalizer, type CustomResourceDefinitionCondition } from '@orch/api';
import { nowTime, type ApiObject } from '../object';
import { Strategy } from '../strategy';
import type { UserInfo } from '../../authn/authenticator';

interface Versioned {
  spec?: { versions?: { name: string; storage?: boolean }[] };
  status?: { storedVersions?: string[]; conditions?: CustomResourceDefinitionCondition[] };
}

/** Sets a condition of a definition's status, keeping lastTransitionTime when the status stays. */
export function setDefinitionCondition(
  obj: ApiObject,
  condition: Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>,
  now: Date,
): void {
  const status = ((obj as Versioned).status ??= {});
  const conditions = (status.conditions ??= []);
  const at = conditions.findIndex((c) => c.type === condition.type);
  const old = at < 0 ? undefined : conditions[at];
  const next: CustomResourceDefinitionCondition = {
    ...condition,
    lastTransitionTime: old && old.status === condition.status ? old.lastTransitionTime : nowTime(now),
  };
  if (at < 0) conditions.push(next);
  else conditions[at] = next;
}

/**
 * CustomResourceDefinitions: the storage version is recorded in status.storedVersions; a delete keeps
 * the definition (Terminating, with the customresourcecleanup finalizer) until the API server has
 * deleted its objects.
 */
export class CustomResourceDefinitionStrategy extends Strategy {
  override prepareForCreate(obj: ApiObject, now: Date, user?: UserInfo): void {
    super.prepareForCreate(obj, now, user);
    const crd = obj as Versioned;
    const storage = crd.spec?.versions?.find((v) => v.storage)?.name;
    crd.status = { storedVersions: storage ? [storage] : [] };
  }

  override prepareForUpdate(obj: ApiObject, old: ApiObject, subresource = ''): void {
    super.prepareForUpdate(obj, old, subresource);
    if (subresource) return;
    const crd = obj as Versioned;
    const storage = crd.spec?.versions?.find((v) => v.storage)?.name;
    const stored = crd.status?.storedVersions ?? [];
    if (storage && !stored.includes(storage))
      crd.status = { ...crd.status, storedVersions: [...stored, storage] };
  }

  override beforeDelete(obj: ApiObject, now: Date): boolean {
    const finalizers = obj.metadata.finalizers ?? [];
    if (!finalizers.includes(customResourceCleanupFinalizer))
      obj.metadata.finalizers = [...finalizers, customResourceCleanupFinalizer];
    if (!obj.metadata.deletionTimestamp)
      setDefinitionCondition(
        obj,
        {
          type: 'Terminating',
          status: 'True',
          reason: 'InstanceDeletionPending',
          message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
        },
        now,
      );
    return true;
  }
}
