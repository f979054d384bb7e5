import { objectCountEvaluator } from './object-count-evaluator';
import { podEvaluator } from './pod-evaluator';
import { pvcEvaluator } from './pvc-evaluator';
import { chargeQuota, evaluateQuotaRequest, type QuotaRequest } from './quota-check';
import type { QuotaLike } from './quota-evaluator';
import {
  formatResourceList,
  lessThanOrEqual,
  parseResourceList,
  prettyPrintResourceList,
} from './resource-list';

const quota = (
  name: string,
  hard: Record<string, string>,
  used: Record<string, string> | undefined,
  spec: Record<string, unknown> = {},
): QuotaLike => ({
  metadata: { name, namespace: 'ns' },
  spec: { hard, ...spec },
  status: used === undefined ? {} : { hard, used },
});

const pod = (resources?: Record<string, Record<string, string>>, spec: Record<string, unknown> = {}) => ({
  metadata: { name: 'p', namespace: 'ns' },
  spec: { containers: [{ name: 'c', image: 'i', ...(resources ? { resources } : {}) }], ...spec },
});

const request = (quotas: QuotaLike[], object: QuotaRequest['object'], more: Partial<QuotaRequest> = {}) =>
  evaluateQuotaRequest({ evaluator: podEvaluator, operation: 'CREATE', object, quotas, now: 0, ...more });

describe('resource lists', () => {
  it('print as sorted name=amount pairs joined by commas', () => {
    expect(prettyPrintResourceList(parseResourceList({ pods: '2', 'limits.cpu': '1', cpu: '500m' }))).toBe(
      'cpu=500m,limits.cpu=1,pods=2',
    );
  });

  it('compare only the names both have, listing those over', () => {
    const a = parseResourceList({ pods: '3', cpu: '1', memory: '1Gi' });
    const b = parseResourceList({ pods: '2', cpu: '1000m' });
    expect(lessThanOrEqual(a, b)).toEqual({ ok: false, exceeded: ['pods'] });
    expect(lessThanOrEqual(parseResourceList({ cpu: '1' }), b).ok).toBe(true);
  });
});

describe('quota admission decisions', () => {
  it('refuses what would exceed a quota, in Kubernetes words', () => {
    const q = quota(
      'compute',
      { pods: '2', 'requests.cpu': '1', 'requests.memory': '1Gi' },
      {
        pods: '2',
        'requests.cpu': '800m',
        'requests.memory': '0',
      },
    );
    const d = request([q], pod({ requests: { cpu: '300m', memory: '100Mi' } }));
    expect(d).toEqual({
      denied:
        'exceeded quota: compute, requested: pods=1,requests.cpu=300m, used: pods=2,requests.cpu=800m, limited: pods=2,requests.cpu=1',
    });
  });

  it('admits within the quota and gives the usage to charge', () => {
    const q = quota('compute', { pods: '2', 'requests.cpu': '1' }, { pods: '1', 'requests.cpu': '500m' });
    const d = request([q], pod({ requests: { cpu: '500m' } }));
    expect('usage' in d && formatResourceList(d.usage)).toEqual({
      'count/pods': '1',
      cpu: '500m',
      pods: '1',
      'requests.cpu': '500m',
    });
    expect('quotas' in d && d.quotas).toEqual([q]);
    const charged = chargeQuota(q, 'usage' in d ? d.usage : {});
    expect('used' in charged && formatResourceList(charged.used)).toEqual({ pods: '2', 'requests.cpu': '1' });
  });

  it('requires pods to state the cpu and memory a quota limits', () => {
    const q = quota(
      'mem',
      { 'limits.memory': '1Gi', 'requests.memory': '1Gi' },
      { 'limits.memory': '0', 'requests.memory': '0' },
    );
    expect(request([q], pod())).toEqual({
      denied: 'failed quota: mem: must specify limits.memory,requests.memory',
    });
  });

  it('does not enforce a quota whose status.hard is not set yet', () => {
    const q = quota('new', { pods: '0' }, undefined);
    expect(request([q], pod())).toEqual({ usage: {}, quotas: [] });
  });

  it('refuses while a quota enforces a resource it has no usage for yet', () => {
    const q: QuotaLike = {
      metadata: { name: 'half' },
      spec: { hard: { pods: '5', 'requests.cpu': '1' } },
      status: { hard: { pods: '5', 'requests.cpu': '1' }, used: { pods: '0' } },
    };
    expect(request([q], pod({ requests: { cpu: '1' } }))).toEqual({
      denied: 'status unknown for quota: half, resources: pods,requests.cpu',
    });
  });

  it('applies a quota only to pods within its scopes', () => {
    const q = quota('terminating', { pods: '1' }, { pods: '1' }, { scopes: ['Terminating'] });
    expect('usage' in request([q], pod())).toBe(true);
    expect(request([q], pod(undefined, { activeDeadlineSeconds: 10 }))).toEqual({
      denied: 'exceeded quota: terminating, requested: pods=1, used: pods=1, limited: pods=1',
    });
    const be = quota('be', { pods: '1' }, { pods: '1' }, { scopes: ['BestEffort'] });
    expect('usage' in request([be], pod({ requests: { cpu: '1' } }))).toBe(true);
    expect('denied' in request([be], pod())).toBe(true);
  });

  it('checks every quota of the namespace, the first refusing one answering', () => {
    const a = quota('a', { pods: '10' }, { pods: '0' });
    const b = quota('b', { 'count/pods': '1' }, { 'count/pods': '1' });
    expect(request([a, b], pod())).toEqual({
      denied: 'exceeded quota: b, requested: count/pods=1, used: count/pods=1, limited: count/pods=1',
    });
  });

  it('charges an update only with what it adds', () => {
    const q = quota('storage', { 'requests.storage': '10Gi' }, { 'requests.storage': '8Gi' });
    const claim = (storage: string) => ({
      metadata: { name: 'c', namespace: 'ns', resourceVersion: '5' },
      spec: { resources: { requests: { storage } } },
    });
    const update = (from: string, to: string) =>
      evaluateQuotaRequest({
        evaluator: pvcEvaluator,
        operation: 'UPDATE',
        object: claim(to),
        oldObject: claim(from),
        quotas: [q],
        now: 0,
      });
    const grow = update('5Gi', '7Gi');
    expect('usage' in grow && formatResourceList(grow.usage)).toEqual({ 'requests.storage': '2Gi' });
    expect(update('5Gi', '8Gi')).toEqual({
      denied:
        'exceeded quota: storage, requested: requests.storage=3Gi, used: requests.storage=8Gi, limited: requests.storage=10Gi',
    });
    expect(update('5Gi', '5Gi')).toEqual({ usage: {}, quotas: [] });
  });

  it('counts objects of any kind', () => {
    const q = quota('objects', { 'count/deployments.apps': '1' }, { 'count/deployments.apps': '1' });
    const d = evaluateQuotaRequest({
      evaluator: objectCountEvaluator('apps', 'deployments'),
      operation: 'CREATE',
      object: { metadata: { name: 'd' } },
      quotas: [q],
      now: 0,
    });
    expect(d).toEqual({
      denied:
        'exceeded quota: objects, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1',
    });
  });
});
