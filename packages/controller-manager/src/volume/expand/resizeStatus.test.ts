import { mergeResizeConditions } from '@orch/api';
import type { PersistentVolumeClaim } from '@orch/api';
import {
  ANN_STORAGE_RESIZER,
  markForFSResize,
  markResizeFinished,
  markResizeInProgress,
  needsExpansion,
} from './resizeStatus';

const claim = (requested: string, capacity: string | undefined, phase = 'Bound'): PersistentVolumeClaim =>
  ({
    metadata: { name: 'data', namespace: 'default' },
    spec: { resources: { requests: { storage: requested } }, volumeName: 'pv' },
    status: { phase, ...(capacity ? { capacity: { storage: capacity } } : {}) },
  }) as PersistentVolumeClaim;

describe('needsExpansion', () => {
  it('is true for a bound claim requesting more than its capacity', () => {
    expect(needsExpansion(claim('2Gi', '1Gi'))).toBe(true);
    expect(needsExpansion(claim('1Gi', '1Gi'))).toBe(false);
    expect(needsExpansion(claim('1024Mi', '1Gi'))).toBe(false);
    expect(needsExpansion(claim('1Gi', '2Gi'))).toBe(false);
    expect(needsExpansion(claim('2Gi', '1Gi', 'Pending'))).toBe(false);
  });
});

describe('mergeResizeConditions', () => {
  const at = (t: string) => `2026-01-01T00:00:0${t}Z`;
  it('keeps other conditions, keeps an unchanged one, replaces or drops the resize ones', () => {
    const current = [
      { type: 'Custom', status: 'True', lastTransitionTime: at('1') },
      { type: 'Resizing', status: 'True', lastTransitionTime: at('1') },
    ];
    expect(
      mergeResizeConditions(current, [{ type: 'Resizing', status: 'True', lastTransitionTime: at('2') }]),
    ).toEqual(current);
    expect(
      mergeResizeConditions(current, [
        { type: 'FileSystemResizePending', status: 'True', lastTransitionTime: at('2') },
      ]),
    ).toEqual([current[0], { type: 'FileSystemResizePending', status: 'True', lastTransitionTime: at('2') }]);
    expect(mergeResizeConditions(current, [])).toEqual([current[0]]);
  });
});

describe('the resize marks', () => {
  const now = '2026-01-01T00:00:00Z';
  it('marks a resize in progress with the resizer', () => {
    const marked = markResizeInProgress(claim('2Gi', '1Gi'), 'kubernetes.io/gce-pd', now);
    expect(marked.status?.conditions).toEqual([
      { type: 'Resizing', status: 'True', lastTransitionTime: now },
    ]);
    expect(marked.metadata?.annotations?.[ANN_STORAGE_RESIZER]).toBe('kubernetes.io/gce-pd');
  });

  it('replaces Resizing by FileSystemResizePending, with Kubernetes message', () => {
    const pending = markForFSResize(markResizeInProgress(claim('2Gi', '1Gi'), 'r', now), now);
    expect(pending.status?.conditions).toEqual([
      {
        type: 'FileSystemResizePending',
        status: 'True',
        lastTransitionTime: now,
        message: 'Waiting for user to (re-)start a pod to finish file system resize of volume on node.',
      },
    ]);
  });

  it('finishes with the new capacity and no resize condition', () => {
    const done = markResizeFinished(markResizeInProgress(claim('2Gi', '1Gi'), 'r', now), '2Gi');
    expect(done.status?.capacity).toEqual({ storage: '2Gi' });
    expect(done.status?.conditions).toEqual([]);
    expect(needsExpansion(done)).toBe(false);
  });
});
