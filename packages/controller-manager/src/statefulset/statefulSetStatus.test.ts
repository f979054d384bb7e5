import { CONTROLLER_REVISION_HASH_LABEL, type Pod, type StatefulSet } from '@orch/api';
import { completeRollingUpdate, inconsistentStatus, replicaCounts } from './statefulSetStatus';

const pod = (revision: string, phase: string, ready: boolean, extra: Partial<Pod['metadata']> = {}): Pod =>
  ({
    metadata: { name: 'p', labels: { [CONTROLLER_REVISION_HASH_LABEL]: revision }, ...extra },
    status: {
      phase,
      conditions: [
        { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2026-01-01T00:00:00Z' },
      ],
    },
  }) as Pod;

describe('StatefulSet status', () => {
  it('counts created, ready, available, current and updated pods', () => {
    const now = Date.parse('2026-01-01T00:00:30Z');
    const counts = replicaCounts(
      [
        pod('cur', 'Running', true),
        pod('upd', 'Running', true),
        pod('upd', 'Pending', false),
        pod('cur', 'Running', true, { deletionTimestamp: '2026-01-01T00:00:00Z' }),
        { metadata: { name: 'not-created' } } as Pod,
        undefined,
      ],
      60,
      'cur',
      'upd',
      now,
    );
    expect(counts).toEqual({
      replicas: 4,
      readyReplicas: 3,
      availableReplicas: 0,
      currentReplicas: 1,
      updatedReplicas: 2,
    });
    expect(replicaCounts([pod('cur', 'Running', true)], 10, 'cur', 'upd', now).availableReplicas).toBe(1);
  });

  it('makes the update revision current once every pod is updated and ready', () => {
    const set = { spec: { updateStrategy: { type: 'RollingUpdate' } } } as StatefulSet;
    const status = {
      replicas: 3,
      readyReplicas: 3,
      updatedReplicas: 3,
      currentReplicas: 1,
      currentRevision: 'a',
      updateRevision: 'b',
    };
    completeRollingUpdate(set, status);
    expect(status).toMatchObject({ currentRevision: 'b', currentReplicas: 3 });
    const partial = { ...status, readyReplicas: 2, currentRevision: 'a', currentReplicas: 1 };
    completeRollingUpdate(set, partial);
    expect(partial).toMatchObject({ currentRevision: 'a', currentReplicas: 1 });
    const onDelete = { ...status, currentRevision: 'a' };
    completeRollingUpdate({ spec: { updateStrategy: { type: 'OnDelete' } } } as StatefulSet, onDelete);
    expect(onDelete.currentRevision).toBe('a');
  });

  it('is written only when it differs', () => {
    const set = { status: { replicas: 3, readyReplicas: 3, observedGeneration: 2 } } as StatefulSet;
    expect(inconsistentStatus(set, { replicas: 3, readyReplicas: 3, observedGeneration: 2 })).toBe(false);
    expect(inconsistentStatus(set, { replicas: 3, readyReplicas: 2, observedGeneration: 2 })).toBe(true);
    expect(inconsistentStatus(set, { replicas: 3, readyReplicas: 3, observedGeneration: 3 })).toBe(true);
  });
});
