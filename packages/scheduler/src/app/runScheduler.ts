import {
  CSINodeKind,
  PersistentVolumeClaimKind,
  PersistentVolumeKind,
  ReplicaSetKind,
  ReplicationControllerKind,
  ServiceKind,
  StatefulSetKind,
  StorageClassKind,
  type CSINode,
  type Namespace,
  type Node,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
  type PodDisruptionBudget,
  type ReplicaSet,
  type ReplicationController,
  type Service,
  type StatefulSet,
  type StorageClass,
} from '@orch/api';
import {
  buildConfigFromFlags,
  EventBroadcaster,
  eventSinkFor,
  RestClient,
  SharedInformerFactory,
} from '@orch/client';
import { runLeaderElected, type DaemonContext, type DaemonHandle } from '@orch/component-base';
import { RestSchedulerClient } from '../client/restSchedulerClient';
import { addAllEventHandlers, addServiceEventHandlers, addVolumeEventHandlers } from '../eventHandlers';
import { POD_DISRUPTION_CONDITIONS } from '../plugins/defaultpreemption/defaultPreemption';
import { Scheduler } from '../scheduler';
import type { SchedulerConfiguration } from './schedulerConfig';

/** Sockets to the API server (two are held by the pod and node watches). */
const BINDING_SOCKETS = 50;
const PODS = { group: '', version: 'v1', resource: 'pods', namespaced: true };
const NODES = { group: '', version: 'v1', resource: 'nodes', namespaced: false };
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces', namespaced: false };
const PDBS = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets', namespaced: true };

/**
 * Builds the API client from --kubeconfig/--master and the --orch-api-* flags. Bindings go out
 * concurrently; a bounded socket pool keeps them on warm keep-alive connections instead of
 * opening a new TLS connection for every burst.
 */
export function restClientFor(cfg: SchedulerConfiguration, component: string): RestClient {
  const { kubeconfig, master, qps, burst, contentType } = cfg.clientConnection;
  const { config } = buildConfigFromFlags({
    ...(kubeconfig ? { kubeconfig } : {}),
    ...(master ? { master } : {}),
  });
  return new RestClient(
    { ...config, qps, burst, contentType, userAgent: `${component}/${process.version}` },
    { maxSockets: BINDING_SOCKETS },
  );
}

/**
 * orch-scheduler's main: informers for pods and nodes, the scheduler, and leader election; only the
 * leader schedules. Losing the lease ends the process, as in Kubernetes.
 */
export async function runScheduler(ctx: DaemonContext<SchedulerConfiguration>): Promise<DaemonHandle> {
  const { config: cfg, logger } = ctx;

  const rest = restClientFor(cfg, ctx.name);
  const broadcaster = new EventBroadcaster(eventSinkFor(rest), {
    onError: (message) => logger.v(2).info(`Unable to write event: ${message}`),
  });
  const client = new RestSchedulerClient(rest, {
    recorder: broadcaster.newRecorder({ component: cfg.profiles[0]!.schedulerName }),
  });
  const factory = new SharedInformerFactory(rest, {
    onHandlerError: (err) =>
      logger.error(`event handler failed: ${err instanceof Error ? err.stack : String(err)}`),
  });
  const podInformer = factory.informerFor<Pod>(PODS);
  const nodeInformer = factory.informerFor<Node>(NODES);
  // Namespace labels answer the namespace selectors of pod affinity terms.
  const namespaceInformer = factory.informerFor<Namespace>(NAMESPACES);
  // Preemption respects PodDisruptionBudgets.
  const pdbInformer = factory.informerFor<PodDisruptionBudget>(PDBS);
  // Volume binding reads claims, volumes and classes.
  const volumeInformer = factory.informerFor<PersistentVolume>(PersistentVolumeKind);
  const claimInformer = factory.informerFor<PersistentVolumeClaim>(PersistentVolumeClaimKind);
  const classInformer = factory.informerFor<StorageClass>(StorageClassKind);
  // The CSI volume limits read the drivers' attach limits from CSINodes.
  const csiNodeInformer = factory.informerFor<CSINode>(CSINodeKind);
  const csiNodeLister = csiNodeInformer.lister();
  // SelectorSpread spreads the pods selected by Services, ReplicationControllers, ReplicaSets and StatefulSets.
  const serviceInformer = factory.informerFor<Service>(ServiceKind);
  const rcInformer = factory.informerFor<ReplicationController>(ReplicationControllerKind);
  const rsInformer = factory.informerFor<ReplicaSet>(ReplicaSetKind);
  const ssInformer = factory.informerFor<StatefulSet>(StatefulSetKind);
  const serviceLister = serviceInformer.lister();
  const rcLister = rcInformer.lister();
  const rsLister = rsInformer.lister();
  const ssLister = ssInformer.lister();
  const volumeLister = volumeInformer.lister();
  const claimLister = claimInformer.lister();
  const classLister = classInformer.lister();
  const podLister = podInformer.lister();
  const namespaceLister = namespaceInformer.lister();
  const pdbLister = pdbInformer.lister();
  const { featureGates } = ctx;
  const scheduler = new Scheduler({
    client,
    profiles: cfg.profiles,
    percentageOfNodesToScore: cfg.percentageOfNodesToScore,
    podInitialBackoffMs: cfg.podInitialBackoffSeconds * 1000,
    podMaxBackoffMs: cfg.podMaxBackoffSeconds * 1000,
    logger,
    metrics: ctx.metrics,
    podLister: (namespace, name) => podLister.get(`${namespace}/${name}`),
    namespaceLabels: (namespace) => namespaceLister.get(namespace)?.metadata?.labels,
    podDisruptionBudgets: () => pdbLister.list(),
    volumeListers: {
      claim: (namespace, name) => claimLister.get(`${namespace}/${name}`),
      volume: (name) => volumeLister.get(name),
      volumes: () => volumeLister.list(),
      storageClass: (name) => classLister.get(name),
      csiNode: (name) => csiNodeLister.get(name),
    },
    workloadListers: {
      services: (namespace) => serviceLister.namespace(namespace).list(),
      replicationControllers: (namespace) => rcLister.namespace(namespace).list(),
      replicaSets: (namespace) => rsLister.namespace(namespace).list(),
      statefulSets: (namespace) => ssLister.namespace(namespace).list(),
    },
    // Gates orch's table does not list are off, but for PodDisruptionConditions, on as in Kubernetes
    // v1.29: the controller manager's taint manager and pod GC add the DisruptionTarget condition too.
    featureEnabled: (name) =>
      featureGates.names().includes(name) ? featureGates.enabled(name) : name === POD_DISRUPTION_CONDITIONS,
  });
  addAllEventHandlers(scheduler, podInformer, nodeInformer);
  addVolumeEventHandlers(scheduler, volumeInformer, claimInformer, classInformer, csiNodeInformer);
  addServiceEventHandlers(scheduler, serviceInformer);
  factory.start();
  ctx.health.add(
    {
      name: 'informer-sync',
      check: () => {
        if (
          !podInformer.hasSynced() ||
          !nodeInformer.hasSynced() ||
          !namespaceInformer.hasSynced() ||
          !pdbInformer.hasSynced() ||
          !volumeInformer.hasSynced() ||
          !claimInformer.hasSynced() ||
          !classInformer.hasSynced() ||
          !serviceInformer.hasSynced() ||
          !rcInformer.hasSynced() ||
          !rsInformer.hasSynced() ||
          !ssInformer.hasSynced() ||
          !csiNodeInformer.hasSynced()
        )
          throw new Error('informers not synced');
      },
    },
    ['readyz'],
  );
  await factory.waitForCacheSync();
  logger.info(`Caches synced; profiles: ${cfg.profiles.map((p) => p.schedulerName).join(', ')}`);

  const abort = new AbortController();
  const electing = runLeaderElected({
    leaderElection: cfg.leaderElection,
    client: rest,
    name: cfg.leaderElection.resourceName,
    logger,
    start: () => scheduler.run(),
    signal: abort.signal,
  });

  return {
    stop: async () => {
      abort.abort();
      await electing;
      await scheduler.stop();
      await broadcaster.shutdown();
      await factory.shutdown();
      rest.close();
    },
  };
}
