import type { PersistentVolume, PersistentVolumeClaim } from '@orch/api';

/** A hostPath volume for tests: ReadWriteOnce, Available unless said otherwise. */
export function volume(
  name: string,
  storage: string,
  spec: Partial<NonNullable<PersistentVolume['spec']>> = {},
  extra: { labels?: Record<string, string>; phase?: string; annotations?: Record<string, string> } = {},
): PersistentVolume {
  return {
    metadata: { name, labels: extra.labels, annotations: extra.annotations },
    spec: {
      capacity: { storage },
      accessModes: ['ReadWriteOnce'],
      hostPath: { path: `/tmp/${name}` },
      ...spec,
    },
    status: { phase: (extra.phase ?? 'Available') as 'Available' },
  } as PersistentVolume;
}

/** A claim in namespace `ns` for tests: ReadWriteOnce, Pending, UID `uid-<name>`. */
export function claim(
  name: string,
  storage: string,
  spec: Partial<NonNullable<PersistentVolumeClaim['spec']>> = {},
  annotations?: Record<string, string>,
): PersistentVolumeClaim {
  return {
    metadata: { name, namespace: 'ns', uid: `uid-${name}`, annotations },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } }, ...spec },
    status: { phase: 'Pending' },
  } as PersistentVolumeClaim;
}
