import {
  PersistentVolumeClaimKind,
  PersistentVolumeKind,
  type PersistentVolume,
  type PersistentVolumeClaim,
} from '@orch/api';
import type { SharedInformerFactory } from '@orch/client';
import type { ClaimCaches } from './VolumeManager';

/**
 * Claim and volume caches from the agent's informer factory: their informers are created and
 * started on this call (the first pod with a persistentVolumeClaim volume), and `changed` is told of
 * every claim and volume event.
 */
export function claimCachesFrom(factory: SharedInformerFactory, changed: () => void): ClaimCaches {
  const claims = factory.informerFor<PersistentVolumeClaim>(PersistentVolumeClaimKind);
  const volumes = factory.informerFor<PersistentVolume>(PersistentVolumeKind);
  claims.addEventHandler({ onAdd: changed, onUpdate: changed, onDelete: changed });
  volumes.addEventHandler({ onAdd: changed, onUpdate: changed, onDelete: changed });
  factory.start();
  return {
    claim: (namespace, name) => claims.lister().namespace(namespace).get(name),
    volume: (name) => volumes.lister().get(name),
    synced: () => claims.hasSynced() && volumes.hasSynced(),
  };
}
