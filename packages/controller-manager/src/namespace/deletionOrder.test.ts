import { defaultRESTMapper } from '@orch/client';
import { deletableResources } from '../controller/discovery';
import { contentRemainingMessage, finalizersRemainingMessage, namespaceDeletionOrder } from './deletionOrder';

test('controllers go before pods, pods before the rest, service accounts and config last', () => {
  const order = namespaceDeletionOrder(deletableResources()).map((m) => m.gvr.resource);
  expect(order.slice(0, 6)).toEqual([
    'cronjobs',
    'deployments',
    'statefulsets',
    'daemonsets',
    'jobs',
    'replicasets',
  ]);
  expect(order.indexOf('pods')).toBeLessThan(order.indexOf('services'));
  expect(order.slice(-3)).toEqual(['configmaps', 'secrets', 'serviceaccounts']);
  // Only namespaced, stored, deletable resources; events are left to expire.
  expect(order).not.toContain('namespaces');
  expect(order).not.toContain('events');
  expect(order).not.toContain('tokenreviews');
  expect(new Set(order).size).toBe(order.length);
  expect(order.length).toBeLessThan(defaultRESTMapper().all().length);
});

test("Kubernetes' wording of the remaining-content conditions", () => {
  expect(contentRemainingMessage(new Map([['pods.', 2]]))).toBe(
    'Some resources are remaining: pods. has 2 resource instances',
  );
  expect(finalizersRemainingMessage(new Map([['foregroundDeletion', 1]]))).toBe(
    'Some content in the namespace has finalizers remaining: foregroundDeletion in 1 resource instances',
  );
});
