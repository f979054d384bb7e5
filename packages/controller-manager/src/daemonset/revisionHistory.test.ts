import { CONTROLLER_REVISION_HASH_LABEL, type ControllerRevision } from '@orch/api';
import { daemonPod, daemonSet } from '../testing/daemonSetFixtures';
import {
  maxRevision,
  newRevision,
  revisionData,
  revisionHash,
  revisionMatches,
  revisionsToDelete,
} from './revisionHistory';

function revision(hash: string, number: number): ControllerRevision {
  return {
    metadata: { name: `agent-${hash}`, labels: { [CONTROLLER_REVISION_HASH_LABEL]: hash } },
    data: {},
    revision: number,
  } as ControllerRevision;
}

describe('a DaemonSet revision', () => {
  it('holds a patch replacing the template, which kubectl rollout undo sends back', () => {
    const ds = daemonSet();
    expect(revisionData(ds)).toEqual({ spec: { template: { ...ds.spec!.template, $patch: 'replace' } } });
  });

  it('is named by the hash of the template and the collision count, labelled with it and owned by the DaemonSet', () => {
    const ds = daemonSet();
    const hash = revisionHash(ds);
    expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
    const rev = newRevision(ds, hash, 3);
    expect(rev.metadata).toMatchObject({
      name: `agent-${hash}`,
      namespace: 'default',
      labels: { app: 'agent', [CONTROLLER_REVISION_HASH_LABEL]: hash },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'ds-uid', controller: true },
      ],
    });
    expect(rev.revision).toBe(3);
    expect(revisionHash({ ...ds, status: { ...ds.status!, collisionCount: 1 } })).not.toBe(hash);
  });

  it('matches the DaemonSet while the template is the same', () => {
    const ds = daemonSet();
    const rev = newRevision(ds, revisionHash(ds), 1);
    expect(revisionMatches(ds, rev)).toBe(true);
    const changed = daemonSet();
    changed.spec!.template.spec!.containers[0]!.image = 'agent:2';
    expect(revisionMatches(changed, rev)).toBe(false);
    expect(revisionHash(changed)).not.toBe(revisionHash(ds));
  });
});

describe('history cleanup', () => {
  it('deletes the oldest revisions beyond the limit, keeping those live pods were made from', () => {
    const old = [revision('r3', 3), revision('r1', 1), revision('r2', 2), revision('r4', 4)];
    expect(maxRevision(old)).toBe(4);
    const pods = [daemonPod('p', 'a', { hash: 'r1' })];
    expect(revisionsToDelete(old, 2, pods).map((r) => r.revision)).toEqual([2, 3]);
    expect(revisionsToDelete(old, 4, pods)).toEqual([]);
    expect(revisionsToDelete(old, 0, []).map((r) => r.revision)).toEqual([1, 2, 3, 4]);
  });
});
