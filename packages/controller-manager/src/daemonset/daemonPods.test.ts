import { CONTROLLER_REVISION_HASH_LABEL, DAEMONSET_TEMPLATE_GENERATION_LABEL } from '@orch/api';
import { daemonPod, daemonSet, node } from '../testing/daemonSetFixtures';
import {
  compareDaemonPods,
  daemonPodTemplate,
  daemonPodTolerations,
  findUpdatedPodsOnNode,
  isPodUpdated,
  nodeNameAffinity,
  nodeShouldRunDaemonPod,
  targetNodeName,
} from './daemonPods';

describe('daemonPodTolerations', () => {
  it('adds the not-ready and unreachable NoExecute and the pressure and unschedulable NoSchedule tolerations', () => {
    expect(daemonPodTolerations({ containers: [] })).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
    ]);
  });

  it('adds network-unavailable with host networking, and replaces a matching toleration in place', () => {
    const tolerations = daemonPodTolerations({
      containers: [],
      hostNetwork: true,
      tolerations: [
        { key: 'dedicated', operator: 'Equal', value: 'infra', effect: 'NoSchedule' },
        {
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 30,
        },
      ],
    });
    expect(tolerations[0]).toEqual({
      key: 'dedicated',
      operator: 'Equal',
      value: 'infra',
      effect: 'NoSchedule',
    });
    // the toleration for ever replaces the one with a time limit
    expect(tolerations[1]).toEqual({
      key: 'node.kubernetes.io/not-ready',
      operator: 'Exists',
      effect: 'NoExecute',
    });
    expect(tolerations).toHaveLength(8);
    expect(tolerations[7]).toEqual({
      key: 'node.kubernetes.io/network-unavailable',
      operator: 'Exists',
      effect: 'NoSchedule',
    });
  });
});

describe('nodeShouldRunDaemonPod', () => {
  it('runs on every node without a selector, and only on matching nodes with one', () => {
    expect(nodeShouldRunDaemonPod(node('a'), daemonSet())).toEqual({
      shouldRun: true,
      shouldContinueRunning: true,
    });
    const ds = daemonSet();
    ds.spec!.template.spec!.nodeSelector = { disk: 'ssd' };
    expect(nodeShouldRunDaemonPod(node('a', { disk: 'ssd' }), ds).shouldRun).toBe(true);
    expect(nodeShouldRunDaemonPod(node('b', { disk: 'hdd' }), ds)).toEqual({
      shouldRun: false,
      shouldContinueRunning: false,
    });
  });

  it('follows required node affinity and a template nodeName', () => {
    const ds = daemonSet();
    ds.spec!.template.spec!.affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['z1'] }] }],
        },
      },
    };
    expect(nodeShouldRunDaemonPod(node('a', { zone: 'z1' }), ds).shouldRun).toBe(true);
    expect(nodeShouldRunDaemonPod(node('b', { zone: 'z2' }), ds).shouldRun).toBe(false);
    const named = daemonSet();
    named.spec!.template.spec!.nodeName = 'a';
    expect(nodeShouldRunDaemonPod(node('a'), named).shouldRun).toBe(true);
    expect(nodeShouldRunDaemonPod(node('b'), named).shouldRun).toBe(false);
  });

  it('keeps off untolerated NoSchedule taints but goes on running there; leaves untolerated NoExecute taints', () => {
    const noSchedule = node('a', {}, [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }]);
    expect(nodeShouldRunDaemonPod(noSchedule, daemonSet())).toEqual({
      shouldRun: false,
      shouldContinueRunning: true,
    });
    const noExecute = node('b', {}, [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }]);
    expect(nodeShouldRunDaemonPod(noExecute, daemonSet())).toEqual({
      shouldRun: false,
      shouldContinueRunning: false,
    });
    const tolerant = daemonSet();
    tolerant.spec!.template.spec!.tolerations = [{ key: 'dedicated', operator: 'Exists' }];
    expect(nodeShouldRunDaemonPod(noExecute, tolerant).shouldRun).toBe(true);
  });

  it('runs on cordoned, not-ready and pressured nodes through the daemon tolerations', () => {
    const tainted = node('a', {}, [
      { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' },
    ]);
    expect(nodeShouldRunDaemonPod(tainted, daemonSet()).shouldRun).toBe(true);
    const network = node('b', {}, [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }]);
    expect(nodeShouldRunDaemonPod(network, daemonSet()).shouldRun).toBe(false);
    const host = daemonSet();
    host.spec!.template.spec!.hostNetwork = true;
    expect(nodeShouldRunDaemonPod(network, host).shouldRun).toBe(true);
  });
});

describe('the pod made for a node', () => {
  it('is labelled with the revision hash and the template generation, and tolerates the daemon taints', () => {
    const template = daemonPodTemplate(daemonSet(), 'abc123');
    expect(template.metadata?.labels).toEqual({
      app: 'agent',
      [CONTROLLER_REVISION_HASH_LABEL]: 'abc123',
      [DAEMONSET_TEMPLATE_GENERATION_LABEL]: '1',
    });
    expect(template.spec?.tolerations).toHaveLength(6);
  });

  it('replaces the required node terms with one naming the node, keeping the rest of the affinity', () => {
    const affinity = nodeNameAffinity(
      {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['z1'] }] }],
          },
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 1, preference: { matchExpressions: [{ key: 'x', operator: 'Exists' }] } },
          ],
        },
      },
      'node-a',
    );
    expect(affinity.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution).toEqual({
      nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-a'] }] }],
    });
    expect(affinity.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution).toHaveLength(1);
    expect(targetNodeName({ spec: { containers: [], affinity } } as never)).toBe('node-a');
  });

  it('is for its bound node, else for the node its affinity names', () => {
    expect(targetNodeName(daemonPod('p', 'a'))).toBe('a');
    expect(targetNodeName(daemonPod('p', 'b', { bound: false }))).toBe('b');
    expect(targetNodeName({ spec: { containers: [] } } as never)).toBeUndefined();
  });
});

describe('updated pods', () => {
  it('are those of the current hash or of the current template generation', () => {
    expect(isPodUpdated(daemonPod('p', 'a', { hash: 'new' }), 'new', 2)).toBe(true);
    expect(isPodUpdated(daemonPod('p', 'a', { hash: 'old' }), 'new', 2)).toBe(false);
    const generation = daemonPod('p', 'a', { hash: 'old' });
    generation.metadata!.labels![DAEMONSET_TEMPLATE_GENERATION_LABEL] = '2';
    expect(isPodUpdated(generation, 'new', 2)).toBe(true);
  });

  it('are told apart from old ones on a node; two of a kind is no answer', () => {
    const oldPod = daemonPod('o', 'a');
    const newPod = daemonPod('n', 'a', { hash: 'new' });
    expect(findUpdatedPodsOnNode([oldPod, newPod], 'new', undefined)).toEqual({ oldPod, newPod });
    expect(findUpdatedPodsOnNode([oldPod, daemonPod('o2', 'a')], 'new', undefined)).toBeUndefined();
    expect(
      findUpdatedPodsOnNode([oldPod, daemonPod('d', 'a', { hash: 'new', deleting: true })], 'new', undefined),
    ).toEqual({
      oldPod,
      newPod: undefined,
    });
  });

  it('sort bound first, then oldest, then by name', () => {
    const pods = [
      daemonPod('c', 'a', { created: 5 }),
      daemonPod('unbound', 'a', { created: 1, bound: false }),
      daemonPod('b', 'a', { created: 3 }),
      daemonPod('a', 'a', { created: 3 }),
    ];
    expect(pods.sort(compareDaemonPods).map((p) => p.metadata?.name)).toEqual(['a', 'b', 'c', 'unbound']);
  });
});
