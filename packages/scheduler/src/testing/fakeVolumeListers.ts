import type { CSINode, PersistentVolume, PersistentVolumeClaim, StorageClass } from '@orch/api';
import type { VolumeListers } from '../framework/interfaces';

/** Claims, volumes, classes and CSINodes held in maps, as informers would hold them. For unit tests. */
export class FakeVolumeListers implements VolumeListers {
  readonly claims = new Map<string, PersistentVolumeClaim>();
  readonly pvs = new Map<string, PersistentVolume>();
  readonly classes = new Map<string, StorageClass>();
  readonly csiNodes = new Map<string, CSINode>();

  /** Adds objects by their kind. */
  add(...objects: (PersistentVolumeClaim | PersistentVolume | StorageClass | CSINode)[]): this {
    for (const o of objects) {
      const name = o.metadata?.name ?? '';
      if (o.kind === 'PersistentVolumeClaim')
        this.claims.set(`${o.metadata?.namespace ?? 'default'}/${name}`, o as PersistentVolumeClaim);
      else if (o.kind === 'PersistentVolume') this.pvs.set(name, o as PersistentVolume);
      else if (o.kind === 'StorageClass') this.classes.set(name, o as StorageClass);
      else if (o.kind === 'CSINode') this.csiNodes.set(name, o as CSINode);
      else throw new Error(`unexpected kind ${String(o.kind)}`);
    }
    return this;
  }

  claim(namespace: string, name: string): PersistentVolumeClaim | undefined {
    return this.claims.get(`${namespace}/${name}`);
  }

  volume(name: string): PersistentVolume | undefined {
    return this.pvs.get(name);
  }

  volumes(): readonly PersistentVolume[] {
    return [...this.pvs.values()];
  }

  storageClass(name: string): StorageClass | undefined {
    return this.classes.get(name);
  }

  csiNode(name: string): CSINode | undefined {
    return this.csiNodes.get(name);
  }
}

/** A claim in `default`, bound to `volumeName` when given. */
export function makeClaim(
  name: string,
  f: { volumeName?: string; storageClassName?: string } = {},
): PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'default' },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
      ...(f.storageClassName !== undefined ? { storageClassName: f.storageClassName } : {}),
      ...(f.volumeName ? { volumeName: f.volumeName } : {}),
    },
  } as PersistentVolumeClaim;
}

/** A volume with `spec` as its source (and more), labelled with `labels`. */
export function makeVolume(
  name: string,
  spec: Partial<NonNullable<PersistentVolume['spec']>> = {},
  labels?: Record<string, string>,
): PersistentVolume {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, ...(labels ? { labels } : {}) },
    spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], ...spec },
  } as PersistentVolume;
}

/** A storage class with `provisioner` and, when given, `volumeBindingMode`. */
export function makeStorageClass(
  name: string,
  provisioner: string,
  volumeBindingMode?: string,
): StorageClass {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name },
    provisioner,
    ...(volumeBindingMode ? { volumeBindingMode } : {}),
  } as StorageClass;
}
