import { formatResourceList } from './resource-list';
import { pvcEvaluator } from './pvc-evaluator';

const claim = (spec: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
  metadata: { name: 'c', namespace: 'ns' },
  spec,
  ...more,
});

describe('persistent volume claim evaluator', () => {
  it('counts the claim and its storage request, in total and for its storage class', () => {
    const c = claim({ storageClassName: 'gold', resources: { requests: { storage: '5Gi' } } });
    expect(formatResourceList(pvcEvaluator.usage(c, 0))).toEqual({
      'count/persistentvolumeclaims': '1',
      persistentvolumeclaims: '1',
      'requests.storage': '5Gi',
      'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '1',
      'gold.storageclass.storage.k8s.io/requests.storage': '5Gi',
    });
  });

  it('takes the class from the beta annotation first, and charges no class without one', () => {
    const annotated = claim({ storageClassName: 'gold', resources: { requests: { storage: '1Gi' } } });
    annotated.metadata = {
      ...annotated.metadata,
      annotations: { 'volume.beta.kubernetes.io/storage-class': 'silver' },
    } as typeof annotated.metadata;
    expect(Object.keys(pvcEvaluator.usage(annotated, 0))).toContain(
      'silver.storageclass.storage.k8s.io/requests.storage',
    );
    const plain = claim({ resources: { requests: { storage: '1Gi' } } });
    expect(Object.keys(pvcEvaluator.usage(plain, 0)).sort()).toEqual([
      'count/persistentvolumeclaims',
      'persistentvolumeclaims',
      'requests.storage',
    ]);
  });

  it('charges the allocated storage when it is more than the request', () => {
    const c = claim(
      { resources: { requests: { storage: '1Gi' } } },
      { status: { allocatedResources: { storage: '2Gi' } } },
    );
    expect(pvcEvaluator.usage(c, 0)['requests.storage']!.toString()).toBe('2Gi');
  });

  it('measures claim resources and the per-class ones, on creates and updates', () => {
    expect(
      pvcEvaluator.matchingResources([
        'requests.storage',
        'gold.storageclass.storage.k8s.io/requests.storage',
        'gold.storageclass.storage.k8s.io/persistentvolumeclaims',
        'pods',
        'persistentvolumeclaims',
      ]),
    ).toEqual([
      'requests.storage',
      'gold.storageclass.storage.k8s.io/requests.storage',
      'gold.storageclass.storage.k8s.io/persistentvolumeclaims',
      'persistentvolumeclaims',
    ]);
    expect(pvcEvaluator.handles('UPDATE')).toBe(true);
  });
});
