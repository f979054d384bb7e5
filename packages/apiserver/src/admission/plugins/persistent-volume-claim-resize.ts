import { storageClassOf, storageQuantity, type PersistentVolumeClaim, type StorageClass } from '@orch/api';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../admission';
import { admissionForbidden } from '../forbidden';
import type { ObjectLookup } from '../object-lookup';

/**
 * PersistentVolumeClaimResize: a claim's storage request may grow only once the claim is Bound, and
 * only when its StorageClass (the same before and after the update) allows volume expansion.
 */
export class PersistentVolumeClaimResize implements AdmissionPlugin {
  readonly name = 'PersistentVolumeClaimResize';

  constructor(private readonly lookup: ObjectLookup) {}

  handles(operation: Operation): boolean {
    return operation === 'UPDATE';
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.declaration.group !== '' || a.resource !== 'persistentvolumeclaims' || a.subresource) return;
    if (!a.object || !a.oldObject) return;
    const claim = a.object as unknown as PersistentVolumeClaim;
    const old = a.oldObject as unknown as PersistentVolumeClaim;
    const oldSize = storageQuantity(old.spec?.resources?.requests);
    const newSize = storageQuantity(claim.spec?.resources?.requests);
    if (!oldSize || !newSize || newSize.cmp(oldSize) <= 0) return;
    if (old.status?.phase !== 'Bound')
      throw admissionForbidden(a, 'Only bound persistent volume claims can be expanded');
    if (!(await this.allowResize(claim, old))) {
      throw admissionForbidden(
        a,
        'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
      );
    }
  }

  private async allowResize(claim: PersistentVolumeClaim, old: PersistentVolumeClaim): Promise<boolean> {
    const className = storageClassOf(claim);
    if (className === '' || className !== storageClassOf(old)) return false;
    const sc = (await this.lookup.get('storage.k8s.io', 'storageclasses', '', className)) as
      StorageClass | undefined;
    return sc?.allowVolumeExpansion === true;
  }
}
