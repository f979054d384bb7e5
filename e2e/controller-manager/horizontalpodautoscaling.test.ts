import {
  DeploymentKind,
  HorizontalPodAutoscalerKind,
  HPA_CONDITIONS_ANNOTATION,
  PodKind,
  type Deployment,
  type HorizontalPodAutoscaler,
  type HorizontalPodAutoscalerCondition,
} from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor } from '@orch/client';
import { MemoryEventRecorder } from '@orch/component-base';
import {
  CONTROLLER_REGISTRY,
  HorizontalController,
  RestMetricsClient,
  type ResourceMetricsClient,
} from '@orch/controller-manager';
import { startCluster, type Cluster } from './harness';

jest.setTimeout(90_000);

/** Pods of this namespace use METERED_CPU milli-CPU each; elsewhere the resource metrics API is asked. */
const METERED = 'metered';
const METERED_CPU = 200;

let cluster: Cluster;
const recorder = new MemoryEventRecorder();

beforeAll(async () => {
  const hpa = CONTROLLER_REGISTRY.horizontalpodautoscaling!;
  cluster = await startCluster({
    duration: (flag) => (flag === 'horizontal-pod-autoscaler-sync-period' ? 300 : undefined),
    recorderFor: (name) => (name === 'horizontalpodautoscaling' ? recorder : new MemoryEventRecorder()),
    registry: {
      ...CONTROLLER_REGISTRY,
      horizontalpodautoscaling: {
        ...hpa,
        start: (ctx) => {
          const api = new RestMetricsClient(ctx.client);
          const metrics: ResourceMetricsClient = {
            getResourceMetric: async (resource, namespace, selector) => {
              if (namespace !== METERED) return api.getResourceMetric(resource, namespace, selector);
              const pods = await clientFor(ctx.client, PodKind).list({ namespace, labelSelector: selector });
              const at = { timestampMs: Date.now() + 1000, windowMs: 0 };
              return {
                metrics: new Map(
                  pods.items.map((p) => [p.metadata?.name ?? '', { value: METERED_CPU, ...at }]),
                ),
                timestampMs: at.timestampMs,
              };
            },
          };
          return new HorizontalController(ctx, { metrics });
        },
      },
    },
  });
  await cluster.kubectl('create', 'namespace', METERED);
});
afterAll(async () => {
  await cluster?.close();
});

function deployment(name: string, namespace: string, replicas: number): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'web', image: 'nginx', resources: { requests: { cpu: '100m' } } }] },
      },
    },
  } as Deployment;
}

function autoscaler(name: string, namespace: string, min: number, max: number): HorizontalPodAutoscaler {
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name, namespace },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
      minReplicas: min,
      maxReplicas: max,
      targetCPUUtilizationPercentage: 50,
    },
  };
}

const deployments = () => clientFor(cluster.rest, DeploymentKind);
const hpas = () => clientFor(cluster.rest, HorizontalPodAutoscalerKind);

const conditions = (hpa: HorizontalPodAutoscaler): HorizontalPodAutoscalerCondition[] =>
  JSON.parse(hpa.metadata?.annotations?.[HPA_CONDITIONS_ANNOTATION] ?? '[]');

/** The autoscaler once its condition of `type` has `reason`. */
function conditionReaching(name: string, namespace: string, type: string, reason: string) {
  return eventually(
    async () => {
      const hpa = await hpas().get(name, { namespace });
      const condition = conditions(hpa).find((c) => c.type === type);
      return condition?.reason === reason ? { hpa, condition } : undefined;
    },
    `${namespace}/${name} to have ${type} ${reason}`,
    30_000,
  );
}

function replicasReaching(name: string, namespace: string, replicas: number) {
  return eventually(
    async () => {
      const d = await deployments().get(name, { namespace });
      return d.spec?.replicas === replicas ? d : undefined;
    },
    `${namespace}/${name} to have ${replicas} replicas`,
    30_000,
  );
}

const eventsOf = (name: string) => recorder.events.filter((e) => e.name === name);

test('kubectl autoscale: the Deployment is scaled to the minimum, the CPU target has no metrics', async () => {
  await deployments().create(deployment('web', 'default', 1));
  await cluster.kubectl('autoscale', 'deployment', 'web', '--min=3', '--max=5', '--cpu-percent=50');
  await replicasReaching('web', 'default', 3);
  const { hpa, condition } = await conditionReaching(
    'web',
    'default',
    'ScalingActive',
    'FailedGetResourceMetric',
  );
  expect(condition.status).toBe('False');
  expect(condition.message).toMatch(
    // no node agent serves these pods: the resource metrics API has none of them
    /^the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API$/,
  );
  expect(hpa.status).toMatchObject({ currentReplicas: 3, desiredReplicas: 3 });
  expect(hpa.status?.lastScaleTime).toBeDefined();
  expect(eventsOf('web')).toEqual(
    expect.arrayContaining([
      {
        name: 'web',
        type: 'Normal',
        reason: 'SuccessfulRescale',
        message: 'New size: 3; reason: Current number of replicas below Spec.MinReplicas',
      },
      expect.objectContaining({ type: 'Warning', reason: 'FailedGetResourceMetric' }),
      expect.objectContaining({
        type: 'Warning',
        reason: 'FailedComputeMetricsReplicas',
        message: expect.stringMatching(
          /^invalid metrics \(1 invalid out of 1\), first error is: failed to get cpu resource metric value: failed to get cpu utilization: /,
        ),
      }),
    ]),
  );
  const table = await cluster.kubectl('get', 'hpa', 'web');
  expect(table.split('\n')[0]).toMatch(/^NAME\s+REFERENCE\s+TARGETS\s+MINPODS\s+MAXPODS\s+REPLICAS\s+AGE/);
  expect(table.split('\n')[1]).toMatch(/^web\s+Deployment\/web\s+<unknown>\/50%\s+3\s+5\s+3\s+/);
});

test('a target above the maximum is scaled down to it without metrics', async () => {
  await deployments().create(deployment('wide', 'default', 5));
  await hpas().create(autoscaler('wide', 'default', 1, 3));
  await replicasReaching('wide', 'default', 3);
  await conditionReaching('wide', 'default', 'ScalingActive', 'FailedGetResourceMetric');
  expect(eventsOf('wide')).toContainEqual({
    name: 'wide',
    type: 'Normal',
    reason: 'SuccessfulRescale',
    message: 'New size: 3; reason: Current number of replicas above Spec.MaxReplicas',
  });
  const hpa = await hpas().get('wide', { namespace: 'default' });
  expect(hpa.status).toMatchObject({ currentReplicas: 3, desiredReplicas: 3, observedGeneration: 1 });
  expect(hpa.status?.currentCPUUtilizationPercentage).toBeUndefined();
});

test('a target scaled to zero is left alone: scaling is disabled', async () => {
  await deployments().create(deployment('idle', 'default', 0));
  await hpas().create(autoscaler('idle', 'default', 1, 3));
  const { condition } = await conditionReaching('idle', 'default', 'ScalingActive', 'ScalingDisabled');
  expect(condition).toMatchObject({
    status: 'False',
    message: 'scaling is disabled since the replica count of the target is zero',
  });
  expect((await deployments().get('idle', { namespace: 'default' })).spec?.replicas).toBe(0);
  expect(eventsOf('idle').filter((e) => e.reason === 'SuccessfulRescale')).toEqual([]);
});

test('with metrics over the target, the target scales up, at most doubling, to the maximum', async () => {
  await deployments().create(deployment('busy', METERED, 1));
  await hpas().create(autoscaler('busy', METERED, 1, 6));
  await replicasReaching('busy', METERED, 6);
  // the sync after the last rescale finds the target at the maximum
  const hpa = await eventually(
    async () => {
      const current = await hpas().get('busy', { namespace: METERED });
      return current.status?.currentReplicas === 6 ? current : undefined;
    },
    'busy to count 6 replicas',
    30_000,
  );
  expect(conditions(hpa).find((c) => c.type === 'ScalingLimited')).toMatchObject({
    status: 'True',
    reason: 'TooManyReplicas',
  });
  expect(conditions(hpa).find((c) => c.type === 'ScalingActive')).toMatchObject({
    status: 'True',
    reason: 'ValidMetricFound',
    message:
      'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
  });
  expect(hpa.status).toMatchObject({
    currentReplicas: 6,
    desiredReplicas: 6,
    currentCPUUtilizationPercentage: 200,
  });
  const reason = 'cpu resource utilization (percentage of request) above target';
  // 1 pod at 200% of a 50% target asks for 4, the scale-up limit of 1 (at least 4); 4 ask for 16, limited to 6
  expect(
    eventsOf('busy')
      .filter((e) => e.reason === 'SuccessfulRescale')
      .map((e) => e.message),
  ).toEqual([`New size: 4; reason: ${reason}`, `New size: 6; reason: ${reason}`]);
});
