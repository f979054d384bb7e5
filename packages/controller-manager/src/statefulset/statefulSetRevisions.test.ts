import {
  CONTROLLER_REVISION_HASH_LABEL,
  type ControllerRevision,
  type Pod,
  type StatefulSet,
} from '@orch/api';
import {
  applyRevision,
  equalRevisions,
  newStatefulSetRevision,
  nextRevision,
  revisionsToTruncate,
  sortRevisions,
} from './statefulSetRevisions';

const set = (image: string, limit = 10): StatefulSet =>
  ({
    metadata: { name: 'web', namespace: 'prod', uid: 'uid', annotations: { team: 'a' } },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      revisionHistoryLimit: limit,
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } },
    },
  }) as StatefulSet;

describe('StatefulSet revisions', () => {
  it('are named by the hash of their data and collision count, labelled and annotated as the set', () => {
    const rev = newStatefulSetRevision(set('v1'), 4, 0);
    const hash = rev.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL];
    expect(rev.metadata).toMatchObject({
      name: `web-${hash}`,
      namespace: 'prod',
      labels: { app: 'web' },
      annotations: { team: 'a' },
      ownerReferences: [{ kind: 'StatefulSet', name: 'web', controller: true }],
    });
    expect(rev.revision).toBe(4);
    expect(newStatefulSetRevision(set('v1'), 4, 1).metadata?.name).not.toBe(rev.metadata?.name);
    expect(newStatefulSetRevision(set('v2'), 4, 0).metadata?.name).not.toBe(rev.metadata?.name);
  });

  it('give back the template they hold', () => {
    const rev = newStatefulSetRevision(set('v1'), 1, 0);
    expect(applyRevision(set('v2'), rev).spec?.template).toEqual(set('v1').spec?.template);
    expect(equalRevisions(set('v1'), [rev])).toEqual([rev]);
    expect(equalRevisions(set('v2'), [rev])).toEqual([]);
  });

  it('are numbered after the newest and truncated oldest first, sparing live ones', () => {
    const revs = [3, 1, 4, 2, 5].map(
      (n) => ({ metadata: { name: `r${n}` }, revision: n }) as ControllerRevision,
    );
    const sorted = sortRevisions(revs);
    expect(sorted.map((r) => r.revision)).toEqual([1, 2, 3, 4, 5]);
    expect(nextRevision(sorted)).toBe(6);
    expect(nextRevision([])).toBe(1);
    const pods = [{ metadata: { labels: { [CONTROLLER_REVISION_HASH_LABEL]: 'r1' } } } as Pod];
    // r5 update, r4 current, r1 a pod's: of r2 and r3, keep 1
    expect(revisionsToTruncate(set('v', 1), revs, pods, 'r4', 'r5').map((r) => r.metadata?.name)).toEqual([
      'r2',
    ]);
    expect(revisionsToTruncate(set('v', 2), revs, pods, 'r4', 'r5')).toEqual([]);
  });
});
