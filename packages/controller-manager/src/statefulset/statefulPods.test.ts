import { CONTROLLER_REVISION_HASH_LABEL, type Pod, type StatefulSet } from '@orch/api';
import {
  claimMatchesRetentionPolicy,
  claimOwnerReferences,
  descendingOrdinal,
  identityMatches,
  inOrdinalRange,
  isMemberOf,
  newStatefulSetPod,
  newVersionedStatefulSetPod,
  parentAndOrdinal,
  podClaims,
  storageMatches,
} from './statefulPods';

function set(extra: Partial<NonNullable<StatefulSet['spec']>> = {}): StatefulSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'prod', uid: 'set-uid' },
    spec: {
      replicas: 3,
      serviceName: 'nginx',
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [{ name: 'nginx', image: 'nginx' }],
          volumes: [
            { name: 'www', emptyDir: {} },
            { name: 'config', configMap: { name: 'cfg' } },
          ],
        },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'www', labels: { tier: 'storage' } },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      ...extra,
    },
  } as StatefulSet;
}

const named = (name: string): Pod => ({ metadata: { name } }) as Pod;

describe('ordinals', () => {
  it('come from the pod name after the last dash', () => {
    expect(parentAndOrdinal(named('web-12'))).toEqual({ parent: 'web', ordinal: 12 });
    expect(parentAndOrdinal(named('my-web-0'))).toEqual({ parent: 'my-web', ordinal: 0 });
    expect(parentAndOrdinal(named('web'))).toEqual({ parent: '', ordinal: -1 });
    expect(parentAndOrdinal(named('web-x'))).toEqual({ parent: '', ordinal: -1 });
    expect(isMemberOf(set(), named('web-1'))).toBe(true);
    expect(isMemberOf(set(), named('webby-1'))).toBe(false);
  });

  it('are in range from spec.ordinals.start for replicas pods', () => {
    expect(inOrdinalRange(named('web-2'), set())).toBe(true);
    expect(inOrdinalRange(named('web-3'), set())).toBe(false);
    const shifted = set({ ordinals: { start: 5 } });
    expect(inOrdinalRange(named('web-4'), shifted)).toBe(false);
    expect(inOrdinalRange(named('web-7'), shifted)).toBe(true);
    expect(
      descendingOrdinal([named('web-1'), named('web-10'), named('web-2')]).map((p) => p.metadata?.name),
    ).toEqual(['web-10', 'web-2', 'web-1']);
  });
});

describe('a stateful pod', () => {
  it('has its name, hostname, subdomain, identity labels and claims', () => {
    const pod = newStatefulSetPod(set(), 1);
    expect(pod.metadata).toMatchObject({
      name: 'web-1',
      namespace: 'prod',
      labels: {
        app: 'web',
        'statefulset.kubernetes.io/pod-name': 'web-1',
        'apps.kubernetes.io/pod-index': '1',
      },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'set-uid', controller: true },
      ],
    });
    expect(pod.metadata?.generateName).toBeUndefined();
    expect(pod.spec?.hostname).toBe('web-1');
    expect(pod.spec?.subdomain).toBe('nginx');
    // the claim replaces the template's volume of the same name; the others stay
    expect(pod.spec?.volumes).toEqual([
      { name: 'www', persistentVolumeClaim: { claimName: 'www-web-1' } },
      { name: 'config', configMap: { name: 'cfg' } },
    ]);
    expect(identityMatches(set(), pod)).toBe(true);
    expect(storageMatches(set(), pod)).toBe(true);
    expect(identityMatches(set({ serviceName: 'other' }), pod)).toBe(false);
    const relabelled = { ...pod, metadata: { ...pod.metadata, labels: { app: 'web' } } };
    expect(identityMatches(set(), relabelled)).toBe(false);
    expect(storageMatches(set(), { ...pod, spec: { ...pod.spec!, volumes: [] } })).toBe(false);
  });

  it("claims are named <template>-<set>-<ordinal>, labelled with the set's selector too", () => {
    const claims = podClaims(set(), 2);
    expect([...claims.keys()]).toEqual(['www']);
    expect(claims.get('www')).toEqual({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'www-web-2', namespace: 'prod', labels: { tier: 'storage', app: 'web' } },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
  });

  it('is made at the current revision below the partition and at the update revision from it up', () => {
    const current = set({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } });
    const update = set({
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'n', image: 'v2' }] } },
    });
    const at = (ordinal: number) =>
      newVersionedStatefulSetPod(current, update, 'web-cur', 'web-upd', ordinal);
    expect(at(1).metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL]).toBe('web-cur');
    expect(at(1).spec?.containers[0]?.image).toBe('nginx');
    expect(at(2).metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL]).toBe('web-upd');
    expect(at(2).spec?.containers[0]?.image).toBe('v2');
    // without rolling update parameters, the ordinals below the current replicas stay current
    const noParams = set({ updateStrategy: { type: 'RollingUpdate' } });
    noParams.status = { replicas: 3, currentReplicas: 2 };
    const pick = (o: number) =>
      newVersionedStatefulSetPod(noParams, update, 'web-cur', 'web-upd', o).metadata?.labels?.[
        CONTROLLER_REVISION_HASH_LABEL
      ];
    expect([pick(0), pick(1), pick(2)]).toEqual(['web-cur', 'web-cur', 'web-upd']);
  });
});

describe('claim retention', () => {
  const pod = (ordinal: number): Pod =>
    ({ metadata: { name: `web-${ordinal}`, uid: `pod-${ordinal}` } }) as Pod;
  const claim = {
    metadata: { name: 'www-web-0', ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'x' }] },
  };
  const owners = (whenDeleted: string, whenScaled: string, ordinal: number) =>
    claimOwnerReferences(
      set({ persistentVolumeClaimRetentionPolicy: { whenDeleted, whenScaled } }),
      pod(ordinal),
      claim as never,
    ).map((r) => r.kind);

  it('owns claims by the set when they go with it, by the pod when they go with a scale down', () => {
    expect(owners('Retain', 'Retain', 0)).toEqual(['X']);
    expect(owners('Delete', 'Retain', 0)).toEqual(['X', 'StatefulSet']);
    expect(owners('Delete', 'Retain', 5)).toEqual(['X', 'StatefulSet']);
    expect(owners('Retain', 'Delete', 0)).toEqual(['X']);
    expect(owners('Retain', 'Delete', 5)).toEqual(['X', 'Pod']);
    expect(owners('Delete', 'Delete', 0)).toEqual(['X', 'StatefulSet']);
    expect(owners('Delete', 'Delete', 5)).toEqual(['X', 'Pod']);
  });

  it('tells whether a claim already has them', () => {
    const s = set({ persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' } });
    expect(claimMatchesRetentionPolicy(s, pod(0), claim as never)).toBe(false);
    const owned = {
      metadata: { ...claim.metadata, ownerReferences: claimOwnerReferences(s, pod(0), claim as never) },
    };
    expect(claimMatchesRetentionPolicy(s, pod(0), owned as never)).toBe(true);
  });
});
