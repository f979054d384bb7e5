import { PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER } from '@orch/api';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../admission';

/** The finalizer each protected resource gets. */
const finalizers: Record<string, string> = {
  persistentvolumes: PV_PROTECTION_FINALIZER,
  persistentvolumeclaims: PVC_PROTECTION_FINALIZER,
};

/**
 * StorageObjectInUseProtection: a new PersistentVolume gets the kubernetes.io/pv-protection
 * finalizer and a new PersistentVolumeClaim kubernetes.io/pvc-protection, so that they stay while
 * in use (the pv-protection and pvc-protection controllers remove them).
 */
export class StorageObjectInUseProtection implements AdmissionPlugin {
  readonly name = 'StorageObjectInUseProtection';

  handles(operation: Operation): boolean {
    return operation === 'CREATE';
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    if (a.declaration.group !== '' || a.subresource || !a.object) return;
    const finalizer = Object.hasOwn(finalizers, a.resource) ? finalizers[a.resource] : undefined;
    if (!finalizer) return;
    const present = a.object.metadata.finalizers ?? [];
    if (!present.includes(finalizer)) a.object.metadata.finalizers = [...present, finalizer];
  }
}
