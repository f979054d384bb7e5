import {
  ANN_BOUND_BY_CONTROLLER,
  ANN_SELECTED_NODE,
  isVolumeBoundToClaim,
  storageClassOf,
  volumeModeMismatch,
  type PersistentVolume,
  type PersistentVolumeClaim,
} from '@orch/api';
import type { EventType } from '@orch/client';
import {
  ANN_DYNAMICALLY_PROVISIONED,
  claimKey,
  claimRefKey,
  findBestMatchForClaim,
  volumeUnsatisfiedReason,
} from './volumeMatching';

/** An event the binder sends about an object. */
export interface BinderEvent {
  type: EventType;
  reason: string;
  message: string;
}

/** What the binder does with a claim not bound yet (no bind-completed annotation). */
export type UnboundClaimAction =
  /** Bind the claim and the volume, both ways. */
  | { kind: 'bind'; volume: PersistentVolume }
  /** Provision a volume of the claim's class. */
  | { kind: 'provision' }
  /** Leave the claim Pending, saying why when there is something to say. */
  | { kind: 'pending'; event?: BinderEvent }
  /** The claim names a volume the binder bound to another claim: a failure to report and retry. */
  | { kind: 'misbound'; event: BinderEvent; error: string };

export interface UnboundClaimInput {
  /** Every volume the binder knows. */
  volumes: readonly PersistentVolume[];
  /** Whether the claim's class binds only once a consumer is scheduled (WaitForFirstConsumer). */
  delayBinding: boolean;
  /** The names of the claim's pods not scheduled yet (for a delayed binding's event). */
  unscheduledPods: readonly string[];
}

/** The event of a delayed-binding claim still waiting for its consumer. */
function waitingForConsumer(unscheduledPods: readonly string[]): BinderEvent {
  if (unscheduledPods.length === 0) {
    return {
      type: 'Normal',
      reason: 'WaitForFirstConsumer',
      message: 'waiting for first consumer to be created before binding',
    };
  }
  const message =
    unscheduledPods.length > 1
      ? `waiting for pods ${unscheduledPods.join(',')} to be scheduled`
      : `waiting for pod ${unscheduledPods[0]} to be scheduled`;
  return { type: 'Normal', reason: 'WaitForPodScheduled', message };
}

/** Kubernetes' syncUnboundClaim, as a decision. */
export function unboundClaimAction(
  claim: PersistentVolumeClaim,
  input: UnboundClaimInput,
): UnboundClaimAction {
  const volumeName = claim.spec?.volumeName;
  if (!volumeName) {
    const volume = findBestMatchForClaim(claim, input.volumes, input.delayBinding);
    if (volume) return { kind: 'bind', volume };
    if (input.delayBinding && !claim.metadata?.annotations?.[ANN_SELECTED_NODE])
      return { kind: 'pending', event: waitingForConsumer(input.unscheduledPods) };
    if (storageClassOf(claim) !== '') return { kind: 'provision' };
    return {
      kind: 'pending',
      event: {
        type: 'Normal',
        reason: 'FailedBinding',
        message: 'no persistent volumes available for this claim and no storage class is set',
      },
    };
  }
  // the user asked for a particular volume
  const volume = input.volumes.find((v) => v.metadata?.name === volumeName);
  if (!volume) return { kind: 'pending' };
  if (!volume.spec?.claimRef) {
    const reason = volumeUnsatisfiedReason(volume, claim);
    if (!reason) return { kind: 'bind', volume };
    return {
      kind: 'pending',
      event: {
        type: 'Warning',
        reason: 'VolumeMismatch',
        message: `Cannot bind to requested volume "${volumeName}": ${reason}`,
      },
    };
  }
  if (isVolumeBoundToClaim(volume, claim)) return { kind: 'bind', volume };
  const event: BinderEvent = {
    type: 'Warning',
    reason: 'FailedBinding',
    message: `volume "${volumeName}" already bound to a different claim.`,
  };
  if (!claim.metadata?.annotations?.[ANN_BOUND_BY_CONTROLLER]) return { kind: 'pending', event };
  return {
    kind: 'misbound',
    event,
    error: `invalid binding of claim "${claimKey(claim)}" to volume "${volumeName}": volume already claimed by "${claimRefKey(volume)}"`,
  };
}

/** What the binder does with a claim it bound before (bind-completed). */
export type BoundClaimAction =
  | { kind: 'bind'; volume: PersistentVolume }
  /** The claim goes Lost (a terminal phase), with this event. */
  | { kind: 'lost'; event: BinderEvent };

/** Kubernetes' syncBoundClaim, as a decision; `volume` is the claim's volume, if it exists. */
export function boundClaimAction(
  claim: PersistentVolumeClaim,
  volume: PersistentVolume | undefined,
): BoundClaimAction {
  const lost = (reason: string, message: string): BoundClaimAction => ({
    kind: 'lost',
    event: { type: 'Warning', reason, message },
  });
  if (!claim.spec?.volumeName)
    return lost(
      'ClaimLost',
      'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!',
    );
  if (!volume)
    return lost('ClaimLost', 'Bound claim has lost its PersistentVolume. Data on the volume is lost!');
  const ref = volume.spec?.claimRef;
  if (!ref || ref.uid === claim.metadata?.uid) return { kind: 'bind', volume };
  return lost('ClaimMisbound', 'Two claims are bound to the same volume, this one is bound incorrectly');
}

/** What the binder does with a volume. */
export type VolumeAction =
  /** Set the volume's phase. */
  | { kind: 'phase'; phase: 'Available' | 'Bound' }
  /** The volume's claim is gone (or bound elsewhere and the volume was provisioned for it): reclaim. */
  | { kind: 'release' }
  /** The claim has not finished binding: sync the claim. */
  | { kind: 'syncClaim'; claim: PersistentVolumeClaim }
  /** The claim and the volume, pre-bound to each other, differ in volumeMode. */
  | { kind: 'modeMismatch'; claim: PersistentVolumeClaim; volumeEvent: BinderEvent; claimEvent: BinderEvent }
  /** Undo the binder's binding (or the claimRef UID of a user's pre-binding): the volume is Available again. */
  | { kind: 'unbind' };

/**
 * Kubernetes' syncVolume, as a decision; `claim` is the claim the volume's claimRef names, if it
 * exists.
 */
export function volumeAction(
  volume: PersistentVolume,
  claim: PersistentVolumeClaim | undefined,
): VolumeAction {
  const ref = volume.spec?.claimRef;
  if (!ref || !ref.uid) return { kind: 'phase', phase: 'Available' };
  if (!claim || claim.metadata?.uid !== ref.uid) return { kind: 'release' };
  const name = volume.metadata?.name ?? '';
  if (!claim.spec?.volumeName) {
    if (volumeModeMismatch(claim, volume)) {
      return {
        kind: 'modeMismatch',
        claim,
        volumeEvent: {
          type: 'Warning',
          reason: 'VolumeMismatch',
          message: `Cannot bind PersistentVolume to requested PersistentVolumeClaim "${claim.metadata?.name ?? ''}" due to incompatible volumeMode.`,
        },
        claimEvent: {
          type: 'Warning',
          reason: 'VolumeMismatch',
          message: `Cannot bind PersistentVolume "${name}" to requested PersistentVolumeClaim due to incompatible volumeMode.`,
        },
      };
    }
    return { kind: 'syncClaim', claim };
  }
  if (claim.spec.volumeName === name) return { kind: 'phase', phase: 'Bound' };
  if (
    volume.metadata?.annotations?.[ANN_DYNAMICALLY_PROVISIONED] &&
    volume.spec?.persistentVolumeReclaimPolicy === 'Delete'
  )
    return { kind: 'release' };
  return { kind: 'unbind' };
}
