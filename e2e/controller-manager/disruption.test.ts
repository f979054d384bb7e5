import {
  DeploymentKind,
  PodDisruptionBudgetKind,
  PodKind,
  type Deployment,
  type PodDisruptionBudget,
} from '@orch/api';
import { clientFor } from '@orch/client';
import { startCluster, statusReaching, type Cluster } from './harness';

jest.setTimeout(60_000);

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster?.close();
});

const NS = 'default';

function deployment(name: string, replicas: number): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'web', image: 'nginx' }] },
      },
    },
  } as Deployment;
}

function budget(name: string, spec: PodDisruptionBudget['spec']): PodDisruptionBudget {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: NS },
    spec: { ...spec, selector: { matchLabels: { app: name } } },
  };
}

/** The budget once its status reports `expected`, for the budget's current generation. */
const budgetReaching = (name: string, expected: Partial<NonNullable<PodDisruptionBudget['status']>>) =>
  statusReaching(clientFor(cluster.rest, PodDisruptionBudgetKind), name, expected, 30_000);

test('a budget counts its pods, allows the disruptions beyond minAvailable, and eviction takes them', async () => {
  const deployments = clientFor(cluster.rest, DeploymentKind);
  const pdbs = clientFor(cluster.rest, PodDisruptionBudgetKind);
  const pods = clientFor(cluster.rest, PodKind);
  await deployments.create(deployment('guarded', 3));
  await pdbs.create(budget('guarded', { minAvailable: 2 }));
  const pdb = await budgetReaching('guarded', {
    expectedPods: 3,
    currentHealthy: 3,
    desiredHealthy: 2,
    disruptionsAllowed: 1,
  });
  expect(pdb.status?.conditions).toEqual([
    expect.objectContaining({ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods' }),
  ]);

  const [first, second] = (await pods.list({ namespace: NS, labelSelector: 'app=guarded' })).items;
  await pods.evict(first!.metadata!.name!, { namespace: NS });
  // the disruption is taken at once: a second eviction before the budget recovers is refused
  const refused = await pods.evict(second!.metadata!.name!, { namespace: NS }).then(
    () => undefined,
    (e: { code?: number }) => e,
  );
  expect(refused?.code).toBe(429);

  // the Deployment replaces the evicted pod; once it is ready the budget allows one disruption again
  await budgetReaching('guarded', { expectedPods: 3, currentHealthy: 3, disruptionsAllowed: 1 });
  const table = await cluster.kubectl('get', 'pdb', 'guarded', '-n', NS, '--no-headers');
  expect(table.split(/\s+/).slice(0, 4)).toEqual(['guarded', '2', 'N/A', '1']);
});

test('maxUnavailable is taken of the replicas the Deployment wants, rounding up', async () => {
  const deployments = clientFor(cluster.rest, DeploymentKind);
  const pdbs = clientFor(cluster.rest, PodDisruptionBudgetKind);
  await deployments.create(deployment('spread', 4));
  await pdbs.create(budget('spread', { maxUnavailable: '30%' }));
  // 30% of 4 is 1.2, rounded up to 2 unavailable: 2 must stay healthy
  await budgetReaching('spread', {
    expectedPods: 4,
    currentHealthy: 4,
    desiredHealthy: 2,
    disruptionsAllowed: 2,
  });
});

test('a budget whose pods have no controller allows nothing with maxUnavailable', async () => {
  const pods = clientFor(cluster.rest, PodKind);
  const pdbs = clientFor(cluster.rest, PodDisruptionBudgetKind);
  await pods.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'loner', namespace: NS, labels: { app: 'loner' } },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  });
  await pdbs.create(budget('loner', { maxUnavailable: 1 }));
  await budgetReaching('loner', {
    expectedPods: 0,
    currentHealthy: 1,
    desiredHealthy: 0,
    disruptionsAllowed: 0,
  });
});
