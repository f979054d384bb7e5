import { formatResourceList } from './resource-list';
import { isBestEffortPod, podEvaluator, podResourceTotal } from './pod-evaluator';

const container = (requests?: Record<string, string>, limits?: Record<string, string>, extra = {}) => ({
  name: 'c',
  image: 'i',
  resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) },
  ...extra,
});

const pod = (spec: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
  metadata: { name: 'p', namespace: 'ns' },
  spec,
  ...more,
});

const usage = (p: ReturnType<typeof pod>, now = Date.now()) => formatResourceList(podEvaluator.usage(p, now));

describe('pod evaluator usage', () => {
  it('charges requests under cpu and requests.cpu, limits under limits.*, and counts the pod', () => {
    const p = pod({
      containers: [
        container({ cpu: '100m', memory: '64Mi' }, { cpu: '200m', memory: '128Mi' }),
        container({ cpu: '250m', 'ephemeral-storage': '1Gi' }, { 'ephemeral-storage': '2Gi' }),
      ],
    });
    expect(usage(p)).toEqual({
      'count/pods': '1',
      pods: '1',
      cpu: '350m',
      'requests.cpu': '350m',
      'limits.cpu': '200m',
      memory: '64Mi',
      'requests.memory': '64Mi',
      'limits.memory': '128Mi',
      'ephemeral-storage': '1Gi',
      'requests.ephemeral-storage': '1Gi',
      'limits.ephemeral-storage': '2Gi',
    });
  });

  it('takes the largest init container when it needs more than the containers together', () => {
    const p = pod({
      initContainers: [container({ cpu: '2', memory: '10Mi' }), container({ cpu: '500m' })],
      containers: [container({ cpu: '300m', memory: '100Mi' }), container({ cpu: '300m', memory: '100Mi' })],
    });
    const u = usage(p);
    expect(u['requests.cpu']).toBe('2');
    expect(u['requests.memory']).toBe('200Mi');
  });

  it('adds sidecar init containers to the containers and to the init containers after them', () => {
    const p = pod({
      initContainers: [
        container({ cpu: '100m' }, undefined, { restartPolicy: 'Always' }),
        container({ cpu: '1' }),
      ],
      containers: [container({ cpu: '200m' })],
    });
    // max(200m + 100m, 1 + 100m)
    expect(usage(p)['requests.cpu']).toBe('1100m');
  });

  it('adds the pod overhead to requests, and to the limits the pod has', () => {
    const p = pod({
      overhead: { cpu: '50m', memory: '10Mi' },
      containers: [container({ cpu: '100m', memory: '10Mi' }, { cpu: '200m' })],
    });
    const u = usage(p);
    expect([u['requests.cpu'], u['requests.memory'], u['limits.cpu'], u['limits.memory']]).toEqual([
      '150m',
      '20Mi',
      '250m',
      undefined,
    ]);
  });

  it('charges huge pages and extended resources under their quota names', () => {
    const p = pod({ containers: [container({ 'hugepages-2Mi': '4Mi', 'example.com/gpu': '2' })] });
    const u = usage(p);
    expect(u['hugepages-2Mi']).toBe('4Mi');
    expect(u['requests.hugepages-2Mi']).toBe('4Mi');
    expect(u['requests.example.com/gpu']).toBe('2');
    expect(u['example.com/gpu']).toBeUndefined();
  });

  it('counts only the object of a pod that finished', () => {
    for (const phase of ['Succeeded', 'Failed']) {
      const p = pod({ containers: [container({ cpu: '1' })] }, { status: { phase } });
      expect(usage(p)).toEqual({ 'count/pods': '1' });
    }
    const running = pod({ containers: [container({ cpu: '1' })] }, { status: { phase: 'Running' } });
    expect(usage(running).pods).toBe('1');
  });

  it('stops charging a pod whose deletion is past its grace period', () => {
    const deleted = Date.parse('2024-01-01T00:00:00Z');
    const p = pod({ containers: [container({ cpu: '1' })] });
    p.metadata = {
      ...p.metadata,
      deletionTimestamp: '2024-01-01T00:00:00Z',
      deletionGracePeriodSeconds: 30,
    } as typeof p.metadata;
    expect(usage(p, deleted + 10_000).pods).toBe('1');
    expect(usage(p, deleted + 31_000)).toEqual({ 'count/pods': '1' });
  });
});

describe('pod evaluator scopes', () => {
  const exists = (scopeName: string) => ({ scopeName, operator: 'Exists' });
  const bestEffort = pod({ containers: [container()] });
  const burstable = pod({ containers: [container({ memory: '1Mi' })] });
  const zeroOnly = pod({ containers: [container({ cpu: '0' })] });
  const deadline = pod({ activeDeadlineSeconds: 30, containers: [container()] });

  it('Terminating matches pods with an active deadline, NotTerminating the others', () => {
    expect(podEvaluator.matchesScope(exists('Terminating'), deadline)).toBe(true);
    expect(podEvaluator.matchesScope(exists('Terminating'), bestEffort)).toBe(false);
    expect(podEvaluator.matchesScope(exists('NotTerminating'), bestEffort)).toBe(true);
    expect(podEvaluator.matchesScope(exists('NotTerminating'), deadline)).toBe(false);
  });

  it('BestEffort matches pods without cpu or memory requests or limits', () => {
    expect(isBestEffortPod(bestEffort)).toBe(true);
    expect(isBestEffortPod(zeroOnly)).toBe(true);
    expect(isBestEffortPod(burstable)).toBe(false);
    expect(podEvaluator.matchesScope(exists('BestEffort'), burstable)).toBe(false);
    expect(podEvaluator.matchesScope(exists('NotBestEffort'), burstable)).toBe(true);
  });

  it('PriorityClass matches the pod priority class name by operator', () => {
    const high = pod({ priorityClassName: 'high', containers: [container()] });
    const sel = (operator: string, values?: string[]) => ({ scopeName: 'PriorityClass', operator, values });
    expect(podEvaluator.matchesScope(sel('In', ['high', 'x']), high)).toBe(true);
    expect(podEvaluator.matchesScope(sel('In', ['low']), high)).toBe(false);
    expect(podEvaluator.matchesScope(sel('NotIn', ['low']), high)).toBe(true);
    expect(podEvaluator.matchesScope(sel('Exists'), high)).toBe(true);
    expect(podEvaluator.matchesScope(sel('Exists'), bestEffort)).toBe(false);
    expect(podEvaluator.matchesScope(sel('DoesNotExist'), bestEffort)).toBe(false);
  });
});

describe('pod evaluator constraints and resources', () => {
  it('requires each container to state the cpu and memory a quota limits', () => {
    const p = pod({
      initContainers: [container({ cpu: '1' })],
      containers: [container({ cpu: '1', memory: '1Mi' }, { cpu: '1' })],
    });
    expect(podEvaluator.constraints(['pods', 'requests.cpu', 'limits.cpu', 'requests.memory'], p)).toBe(
      'must specify limits.cpu,requests.memory',
    );
    expect(podEvaluator.constraints(['pods', 'requests.cpu', 'cpu'], p)).toBeUndefined();
    expect(podEvaluator.constraints(['requests.storage'], p)).toBeUndefined();
  });

  it('measures pod resources, huge pages and requests of extended resources', () => {
    expect(
      podEvaluator.matchingResources([
        'pods',
        'count/pods',
        'requests.cpu',
        'limits.memory',
        'requests.hugepages-2Mi',
        'requests.example.com/gpu',
        'example.com/gpu',
        'services',
        'requests.storage',
      ]),
    ).toEqual([
      'pods',
      'count/pods',
      'requests.cpu',
      'limits.memory',
      'requests.hugepages-2Mi',
      'requests.example.com/gpu',
    ]);
  });

  it('podResourceTotal sums limits like requests', () => {
    const p = pod({
      containers: [container(undefined, { cpu: '1' }), container(undefined, { cpu: '500m' })],
    });
    expect(formatResourceList(podResourceTotal(p, 'limits'))).toEqual({ cpu: '1500m' });
  });
});
