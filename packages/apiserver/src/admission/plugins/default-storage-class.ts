import { BETA_STORAGE_CLASS_ANNOTATION, isDefaultStorageClass, type StorageClass } from '@orch/api';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../admission';
import type { ObjectLookup } from '../object-lookup';
import { newestObject } from './newest-object';

/**
 * DefaultStorageClass: a new PersistentVolumeClaim that names no class (no storageClassName, not
 * even "", and no beta annotation) gets the default StorageClass (is-default-class "true"); with
 * several defaults, the newest (then the first by name).
 */
export class DefaultStorageClass implements AdmissionPlugin {
  readonly name = 'DefaultStorageClass';

  constructor(private readonly lookup: ObjectLookup) {}

  handles(operation: Operation): boolean {
    return operation === 'CREATE';
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    if (a.declaration.group !== '' || a.resource !== 'persistentvolumeclaims' || a.subresource || !a.object)
      return;
    const spec = (a.object.spec ?? {}) as { storageClassName?: string | null };
    if (spec.storageClassName !== undefined && spec.storageClassName !== null) return;
    if (a.object.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION] !== undefined) return;
    const classes = (await this.lookup.list(
      'storage.k8s.io',
      'storageclasses',
      '',
    )) as unknown as StorageClass[];
    const chosen = newestObject(
      classes.filter(isDefaultStorageClass).map((c) => ({ ...c, metadata: c.metadata ?? {} })),
    );
    if (!chosen) return;
    a.object.spec = { ...spec, storageClassName: chosen.metadata.name };
  }
}
