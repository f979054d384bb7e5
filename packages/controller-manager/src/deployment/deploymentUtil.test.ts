import type { Deployment, ReplicaSet } from '@orch/api';
import {
  findNewReplicaSet,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  setNewReplicaSetAnnotations,
  maxRevision,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
} from './deploymentUtil';
import { calculateStatus, deploymentTimedOut, Reasons, setCondition, newCondition } from './deploymentStatus';
import { computeHash, fnv32a, safeEncodeString } from './podTemplateHash';

const template = (image: string, hash?: string): NonNullable<Deployment['spec']>['template'] => ({
  metadata: { labels: { app: 'web', ...(hash ? { 'pod-template-hash': hash } : {}) } },
  spec: { containers: [{ name: 'c', image }] },
});

const dep = (image: string, extra: Partial<NonNullable<Deployment['spec']>> = {}): Deployment =>
  ({
    metadata: {
      name: 'web',
      namespace: 'ns',
      generation: 3,
      annotations: { team: 'a', [REVISION_ANNOTATION]: '2' },
    },
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: template(image), ...extra },
  }) as Deployment;

const rs = (name: string, image: string, revision: number, created: string): ReplicaSet =>
  ({
    metadata: { name, creationTimestamp: created, annotations: { [REVISION_ANNOTATION]: String(revision) } },
    spec: { replicas: 0, selector: {}, template: template(image, name) },
  }) as ReplicaSet;

describe('pod-template-hash', () => {
  test('FNV-32a of known inputs', () => {
    expect(fnv32a(Buffer.from(''))).toBe(0x811c9dc5);
    expect(fnv32a(Buffer.from('a'))).toBe(0xe40c292c);
    expect(fnv32a(Buffer.from('foobar'))).toBe(0xbf9cf968);
  });

  test('SafeEncodeString maps to consonants and digits without look-alikes', () => {
    expect(safeEncodeString('0123456789')).toBe('456789bcdf');
    expect(computeHash(template('nginx'))).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
  });

  test('the hash depends on the template and the collision count, not on key order', () => {
    const a = computeHash(template('nginx'));
    expect(
      computeHash({
        spec: { containers: [{ image: 'nginx', name: 'c' }] },
        metadata: { labels: { app: 'web' } },
      }),
    ).toBe(a);
    expect(computeHash(template('nginx:2'))).not.toBe(a);
    expect(computeHash(template('nginx'), 1)).not.toBe(a);
    expect(computeHash(template('nginx'), 1)).not.toBe(computeHash(template('nginx'), 2));
  });
});

describe('rollback: the old ReplicaSet becomes the new revision', () => {
  const rs1 = rs('web-a', 'nginx:1', 1, '2024-01-01T00:00:00Z');
  const rs2 = rs('web-b', 'nginx:2', 2, '2024-01-02T00:00:00Z');

  test('the ReplicaSet whose template matches (ignoring the hash label) is the new one', () => {
    expect(findNewReplicaSet(dep('nginx:1'), [rs2, rs1])?.metadata?.name).toBe('web-a');
    expect(findNewReplicaSet(dep('nginx:3'), [rs2, rs1])).toBeUndefined();
  });

  test('it gets revision max(old)+1 and remembers its previous revision', () => {
    const d = dep('nginx:1');
    const copy = structuredClone(rs1);
    const newRevision = maxRevision([rs2]) + 1;
    expect(setNewReplicaSetAnnotations(d, copy, newRevision, true)).toBe(true);
    expect(copy.metadata?.annotations).toEqual({
      [REVISION_ANNOTATION]: '3',
      [REVISION_HISTORY_ANNOTATION]: '1',
      team: 'a',
    });
    // A second sync changes nothing.
    expect(setNewReplicaSetAnnotations(d, copy, newRevision, true)).toBe(false);
  });

  test('a created ReplicaSet gets the replicas annotations', () => {
    const fresh = {
      metadata: {},
      spec: { replicas: 0, selector: {}, template: template('x') },
    } as ReplicaSet;
    setNewReplicaSetAnnotations(dep('x'), fresh, 1, false);
    expect(fresh.metadata?.annotations).toMatchObject({
      [REVISION_ANNOTATION]: '1',
      [DESIRED_REPLICAS_ANNOTATION]: '3',
      [MAX_REPLICAS_ANNOTATION]: '4',
    });
    expect(fresh.metadata?.annotations?.[REVISION_HISTORY_ANNOTATION]).toBeUndefined();
  });
});

describe('status and conditions', () => {
  const now = Date.parse('2024-01-01T00:10:00Z');
  const withStatus = (replicas: number, available: number, ready = available): ReplicaSet =>
    ({
      metadata: { name: 'n' },
      spec: { replicas, selector: {}, template: {} },
      status: { replicas, availableReplicas: available, readyReplicas: ready },
    }) as ReplicaSet;

  test('counts and the Available condition follow maxUnavailable', () => {
    const d = dep('x', {
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } },
    });
    const s = calculateStatus([withStatus(3, 2)], withStatus(3, 2), d, now);
    expect(s).toMatchObject({
      observedGeneration: 3,
      replicas: 3,
      updatedReplicas: 3,
      availableReplicas: 2,
      readyReplicas: 2,
      unavailableReplicas: 1,
    });
    expect(s.conditions?.[0]).toMatchObject({
      type: 'Available',
      status: 'True',
      reason: 'MinimumReplicasAvailable',
      message: 'Deployment has minimum availability.',
    });
    const low = calculateStatus([withStatus(3, 1)], withStatus(3, 1), d, now);
    expect(low.conditions?.[0]).toMatchObject({
      status: 'False',
      reason: 'MinimumReplicasUnavailable',
      message: 'Deployment does not have minimum availability.',
    });
  });

  test('the progress deadline passes when the Progressing condition was not updated in time', () => {
    const d = dep('x', { progressDeadlineSeconds: 60 });
    const status = {};
    setCondition(
      status,
      newCondition(
        'Progressing',
        'True',
        Reasons.ReplicaSetUpdated,
        'ReplicaSet "n" is progressing.',
        now - 61_000,
      ),
    );
    expect(deploymentTimedOut(d, status, now)).toBe(true);
    expect(deploymentTimedOut(d, status, now - 2_000)).toBe(false);
    const done = {};
    setCondition(done, newCondition('Progressing', 'True', Reasons.NewRSAvailable, 'done', now - 3_600_000));
    expect(deploymentTimedOut(d, done, now)).toBe(false);
  });

  test('setting a condition with the same status and reason keeps it as it was', () => {
    const status = {};
    setCondition(status, newCondition('Progressing', 'True', 'A', 'first', now - 1000));
    setCondition(status, newCondition('Progressing', 'True', 'A', 'second', now));
    expect((status as { conditions: { message: string }[] }).conditions[0]!.message).toBe('first');
    setCondition(status, newCondition('Progressing', 'True', 'B', 'third', now));
    expect(
      (status as { conditions: { lastTransitionTime: string; lastUpdateTime: string }[] }).conditions[0],
    ).toMatchObject({
      lastTransitionTime: '2024-01-01T00:09:59Z',
      lastUpdateTime: '2024-01-01T00:10:00Z',
    });
  });
});
