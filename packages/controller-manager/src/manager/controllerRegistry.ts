import type { ControllerDescriptor } from '@orch/component-base';
import { BootstrapSigner } from '../bootstrap/BootstrapSigner';
import { TokenCleaner } from '../bootstrap/TokenCleaner';
import { CronJobController } from '../cronjob/CronJobController';
import { CSRApprovingController } from '../certificates/CSRApprovingController';
import { CSRCleanerController } from '../certificates/CSRCleanerController';
import { ClusterRoleAggregationController } from '../clusterroleaggregation/ClusterRoleAggregationController';
import { startCSRSigning } from '../certificates/startCSRSigning';
import { DaemonSetController } from '../daemonset/DaemonSetController';
import { DeploymentController } from '../deployment/DeploymentController';
import { DisruptionController } from '../disruption/DisruptionController';
import { EndpointsController } from '../endpoint/EndpointsController';
import { EndpointSliceController } from '../endpointslice/EndpointSliceController';
import { GarbageCollector } from '../garbagecollector/GarbageCollector';
import { HorizontalController } from '../podautoscaler/HorizontalController';
import { JobController } from '../job/JobController';
import { NamespaceController } from '../namespace/NamespaceController';
import { startNodeIpam } from '../nodeipam/startNodeIpam';
import { NodeLifecycleController } from '../nodelifecycle/NodeLifecycleController';
import { PodGCController } from '../podgc/PodGCController';
import { AttachDetachController } from '../volume/attachdetach/AttachDetachController';
import { ExpandController } from '../volume/expand/ExpandController';
import { PersistentVolumeController } from '../volume/persistentvolume/PersistentVolumeController';
import { PVCProtectionController } from '../volume/pvcprotection/PVCProtectionController';
import { PVProtectionController } from '../volume/pvprotection/PVProtectionController';
import { REPLICA_SET_KIND, ReplicaSetController } from '../replicaset/ReplicaSetController';
import { ReplicationManager } from '../replication/ReplicationManager';
import { RootCACertPublisher } from '../rootcacertpublisher/RootCACertPublisher';
import { rootCABundle } from '../rootcacertpublisher/rootCABundle';
import { ResourceQuotaController } from '../resourcequota/ResourceQuotaController';
import { ServiceAccountController } from '../serviceaccount/ServiceAccountController';
import { startServiceAccountTokens } from '../serviceaccount/startServiceAccountTokens';
import { StatefulSetController } from '../statefulset/StatefulSetController';
import { TTLAfterFinishedController } from '../ttlafterfinished/TTLAfterFinishedController';
import { TTLController } from '../ttl/TTLController';

/** The controllers built so far, by the name --controllers uses. */
export const CONTROLLER_REGISTRY: Readonly<Record<string, ControllerDescriptor>> = {
  deployment: {
    concurrencyFlag: 'concurrent-deployment-syncs',
    syncPeriodFlag: 'deployment-controller-sync-period',
    start: (ctx) => new DeploymentController(ctx),
  },
  replicaset: {
    concurrencyFlag: 'concurrent-replicaset-syncs',
    start: (ctx) => new ReplicaSetController(ctx, REPLICA_SET_KIND),
  },
  replicationcontroller: {
    concurrencyFlag: 'concurrent_rc_syncs',
    eventComponent: 'replication-controller',
    serviceAccount: 'replication-controller',
    start: (ctx) => new ReplicationManager(ctx),
  },
  'root-ca-cert-publisher': {
    serviceAccount: 'root-ca-cert-publisher',
    start: (ctx) => new RootCACertPublisher(ctx, rootCABundle(ctx)),
  },
  endpoint: {
    concurrencyFlag: 'concurrent-endpoint-syncs',
    batchPeriodFlag: 'endpoint-updates-batch-period',
    start: (ctx) => new EndpointsController(ctx),
  },
  endpointslice: {
    concurrencyFlag: 'concurrent-service-endpoint-syncs',
    featureGate: 'EndpointSlice',
    eventComponent: 'endpoint-slice-controller',
    start: (ctx) => new EndpointSliceController(ctx),
  },
  daemonset: {
    defaultWorkers: 2,
    serviceAccount: 'daemon-set-controller',
    start: (ctx) => new DaemonSetController(ctx),
  },
  disruption: { start: (ctx) => new DisruptionController(ctx) },
  job: { defaultWorkers: 5, start: (ctx) => new JobController(ctx) },
  cronjob: { start: (ctx) => new CronJobController(ctx) },
  bootstrapsigner: { serviceAccount: 'bootstrap-signer', start: (ctx) => new BootstrapSigner(ctx) },
  tokencleaner: { serviceAccount: 'token-cleaner', start: (ctx) => new TokenCleaner(ctx) },
  'ttl-after-finished': {
    concurrencyFlag: 'concurrent-ttl-after-finished-syncs',
    featureGate: 'TTLAfterFinished',
    start: (ctx) => new TTLAfterFinishedController(ctx),
  },
  podgc: { serviceAccount: 'pod-garbage-collector', start: (ctx) => new PodGCController(ctx) },
  attachdetach: {
    serviceAccount: 'attachdetach-controller',
    start: (ctx) =>
      new AttachDetachController(ctx, {
        reconcileSyncPeriodMs: ctx.flags?.duration('attach-detach-reconcile-sync-period') ?? 60_000,
        disableReconcileSync: ctx.flags?.bool?.('disable-attach-detach-reconcile-sync') ?? false,
      }),
  },
  nodelifecycle: {
    defaultWorkers: 8,
    eventComponent: 'node-controller',
    serviceAccount: 'node-controller',
    start: (ctx) => new NodeLifecycleController(ctx),
  },
  garbagecollector: {
    concurrencyFlag: 'concurrent-gc-syncs',
    enabledFlag: 'enable-garbage-collector',
    eventComponent: 'garbage-collector-controller',
    serviceAccount: 'generic-garbage-collector',
    start: (ctx) => new GarbageCollector(ctx),
  },
  namespace: {
    concurrencyFlag: 'concurrent-namespace-syncs',
    syncPeriodFlag: 'namespace-sync-period',
    start: (ctx) => new NamespaceController(ctx),
  },
  'serviceaccount-token': {
    concurrencyFlag: 'concurrent-serviceaccount-token-syncs',
    defaultWorkers: 5,
    rootCredentials: true,
    start: startServiceAccountTokens,
  },
  nodeipam: {
    eventComponent: 'cidrAllocator',
    serviceAccount: 'node-controller',
    start: startNodeIpam,
  },
  serviceaccount: {
    defaultWorkers: 1,
    serviceAccount: 'service-account-controller',
    start: (ctx) => new ServiceAccountController(ctx),
  },
  resourcequota: {
    concurrencyFlag: 'concurrent-resource-quota-syncs',
    defaultWorkers: 5,
    syncPeriodFlag: 'resource-quota-sync-period',
    start: (ctx) => new ResourceQuotaController(ctx),
  },
  statefulset: {
    concurrencyFlag: 'concurrent-statefulset-syncs',
    start: (ctx) => new StatefulSetController(ctx),
  },
  'persistentvolume-binder': {
    syncPeriodFlag: 'pvclaimbinder-sync-period',
    eventComponent: 'persistentvolume-controller',
    serviceAccount: 'persistent-volume-binder',
    start: (ctx) => new PersistentVolumeController(ctx),
  },
  'persistentvolume-expander': {
    defaultWorkers: 10,
    featureGate: 'ExpandPersistentVolumes',
    eventComponent: 'volume_expand',
    serviceAccount: 'expand-controller',
    start: (ctx) => new ExpandController(ctx),
  },
  'pv-protection': { start: (ctx) => new PVProtectionController(ctx) },
  'pvc-protection': { start: (ctx) => new PVCProtectionController(ctx) },
  csrsigning: {
    eventComponent: 'certificate-controller',
    serviceAccount: 'certificate-controller',
    start: startCSRSigning,
  },
  csrapproving: {
    defaultWorkers: 5,
    eventComponent: 'certificate-controller',
    serviceAccount: 'certificate-controller',
    start: (ctx) => new CSRApprovingController(ctx),
  },
  csrcleaner: {
    eventComponent: 'certificate-controller',
    serviceAccount: 'certificate-controller',
    start: (ctx) => new CSRCleanerController(ctx),
  },
  'clusterrole-aggregation': {
    defaultWorkers: 5,
    start: (ctx) => new ClusterRoleAggregationController(ctx),
  },
  ttl: { defaultWorkers: 5, start: (ctx) => new TTLController(ctx) },
  horizontalpodautoscaling: {
    syncPeriodFlag: 'horizontal-pod-autoscaler-sync-period',
    eventComponent: 'horizontal-pod-autoscaler',
    serviceAccount: 'horizontal-pod-autoscaler',
    start: (ctx) => new HorizontalController(ctx),
  },
};
