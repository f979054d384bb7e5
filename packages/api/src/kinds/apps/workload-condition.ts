import { str, struct, time } from '../../schema/fields';

/** The condition struct shared by ReplicaSet, DaemonSet and StatefulSet (same fields and numbers). */
export function workloadCondition(name: string) {
  return struct(name, {
    type: str({ proto: 1, description: 'Type of the condition.' }),
    status: str({ proto: 2, enum: ['True', 'False', 'Unknown'], description: 'True, False or Unknown.' }),
    lastTransitionTime: time({ proto: 3, description: 'Last time the condition changed status.' }),
    reason: str({ proto: 4, description: 'Reason of the last transition.' }),
    message: str({ proto: 5, description: 'Human readable details of the last transition.' }),
  });
}
