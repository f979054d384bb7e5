import { quotaEvaluatorsFor } from './evaluator-registry';
import type { QuotaEvaluator, QuotaLike, QuotaObject } from './quota-evaluator';
import { nextQuotaStatus, calculateQuotaUsage } from './quota-usage';
import { formatResourceList, parseResourceList } from './resource-list';

const pod = (cpu: string, phase = 'Running', spec: Record<string, unknown> = {}): QuotaObject => ({
  metadata: { name: 'p' },
  spec: { containers: [{ name: 'c', resources: { requests: { cpu } } }], ...spec },
  status: { phase },
});

describe('quota usage', () => {
  const objects: Record<string, QuotaObject[]> = {
    pods: [pod('100m'), pod('200m'), pod('1', 'Succeeded')],
    configmaps: [{ metadata: { name: 'a' } }, { metadata: { name: 'b' } }],
    services: [],
  };
  const of = (e: QuotaEvaluator) => objects[e.resource] ?? [];

  it('sums the usage of the objects of each measured resource, zero where there are none', () => {
    const q: QuotaLike = {
      spec: {
        hard: {
          pods: '10',
          'count/pods': '10',
          'requests.cpu': '2',
          configmaps: '5',
          services: '2',
          unknown: '1',
        },
      },
    };
    const used = calculateQuotaUsage(q, quotaEvaluatorsFor(Object.keys(q.spec!.hard!)), of, 0);
    expect(formatResourceList(used)).toEqual({
      pods: '2',
      'count/pods': '3',
      'requests.cpu': '300m',
      configmaps: '2',
      services: '0',
    });
  });

  it('counts only objects within the quota scopes', () => {
    const q: QuotaLike = { spec: { hard: { pods: '10' }, scopes: ['Terminating'] } };
    objects.pods!.push(pod('1', 'Running', { activeDeadlineSeconds: 5 }));
    expect(formatResourceList(calculateQuotaUsage(q, quotaEvaluatorsFor(['pods']), of, 0))).toEqual({
      pods: '1',
    });
    objects.pods!.pop();
  });

  it('leaves out resources whose objects cannot be listed now', () => {
    const q: QuotaLike = { spec: { hard: { pods: '10', configmaps: '1' } } };
    const used = calculateQuotaUsage(
      q,
      quotaEvaluatorsFor(['pods']),
      (e) => (e.resource === 'pods' ? undefined : of(e)),
      0,
    );
    expect(formatResourceList(used)).toEqual({ configmaps: '2' });
  });
});

describe('the status the controller writes', () => {
  it('copies spec.hard to status.hard and keeps the earlier usage of resources not measured', () => {
    const q: QuotaLike = {
      spec: { hard: { pods: '5', 'example.com/thing': '3' } },
      status: { hard: { pods: '4' }, used: { pods: '1', 'example.com/thing': '2', gone: '1' } },
    };
    expect(nextQuotaStatus(q, parseResourceList({ pods: '2' }))).toEqual({
      status: {
        hard: { 'example.com/thing': '3', pods: '5' },
        used: { 'example.com/thing': '2', pods: '2' },
      },
      changed: true,
    });
  });

  it('is unchanged when hard and used already say so, and changed on the first sync', () => {
    const q: QuotaLike = {
      spec: { hard: { pods: '5' } },
      status: { hard: { pods: '5' }, used: { pods: '2' } },
    };
    expect(nextQuotaStatus(q, parseResourceList({ pods: '2' })).changed).toBe(false);
    expect(nextQuotaStatus(q, parseResourceList({ pods: '3' })).changed).toBe(true);
    expect(nextQuotaStatus({ spec: { hard: { pods: '5' } } }, parseResourceList({ pods: '0' }))).toEqual({
      status: { hard: { pods: '5' }, used: { pods: '0' } },
      changed: true,
    });
  });
});
