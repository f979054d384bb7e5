import { defaultRESTMapper, GroupDiscoveryFailedError, StatusError } from '@orch/client';
import { staticResources, withVerbs } from '../controller/discovery';
import {
  contentRemainingMessage,
  discoveryFailureMessage,
  finalizersRemainingMessage,
  namespaceDeletionOrder,
} from './deletionOrder';

test('controllers go before pods, pods before the rest, service accounts and config last', () => {
  const ordered = namespaceDeletionOrder(withVerbs(staticResources(), ['list', 'delete']));
  const order = ordered.map((m) => m.resource);
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
  // Only namespaced, stored, listable and deletable resources (events too, as in Kubernetes).
  expect(order).not.toContain('namespaces');
  expect(order).toContain('events');
  expect(order).not.toContain('tokenreviews');
  expect(new Set(ordered.map((m) => `${m.resource}.${m.group}`)).size).toBe(order.length);
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

test("Kubernetes' wording of a discovery failure", () => {
  const partial = new GroupDiscoveryFailedError(
    new Map([['example.com/v1', new StatusError({ code: 503, message: 'service unavailable' })]]),
  );
  expect(discoveryFailureMessage(partial)).toBe(
    'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: ' +
      'example.com/v1: service unavailable',
  );
  expect(discoveryFailureMessage(new Error('connection refused'))).toBe('connection refused');
});
