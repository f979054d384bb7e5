// The daemon.
export { controllerManagerDaemon } from './app/controllerManagerDaemon';
export {
  COMPONENT_NAME,
  restConfigFromFlags,
  runControllerManager,
  type RunOptions,
} from './app/runControllerManager';

// The manager.
export { ControllerManager, type ControllerManagerOptions } from './manager/ControllerManager';
export { CONTROLLER_REGISTRY } from './manager/controllerRegistry';

// Controller helpers.
export {
  deletableResources,
  discoverResources,
  mappingForKind,
  type ResourceDiscovery,
  resourceForKind,
  staticResources,
} from './controller/discovery';
export { isPodActive, isPodAvailable, isPodReady, podFromTemplate } from './controller/podUtil';

// Controllers.
export {
  AttachDetachController,
  CSI_ATTACH_TIMEOUT_MS,
  MAX_WAIT_FOR_UNMOUNT_MS,
} from './volume/attachdetach/AttachDetachController';
export { volumeAttachmentName } from './volume/attachdetach/desiredAttachments';
export { DisruptionController } from './disruption/DisruptionController';
export {
  DEFAULT_CPU_UTILIZATION,
  HorizontalController,
  type HorizontalControllerOptions,
  HPA_DEFAULTS,
} from './podautoscaler/HorizontalController';
export type { PodMetric, PodMetricsInfo, ResourceMetricsClient } from './podautoscaler/ResourceMetricsClient';
export { RestMetricsClient } from './podautoscaler/RestMetricsClient';
export { StatefulSetController } from './statefulset/StatefulSetController';
export {
  claimMatchesRetentionPolicy,
  claimName,
  claimOwnerReferences,
  identityMatches,
  newStatefulSetPod,
  newVersionedStatefulSetPod,
  parentAndOrdinal,
  podClaims,
  POD_INDEX_LABEL,
  STATEFUL_SET_POD_NAME_LABEL,
  storageMatches,
} from './statefulset/statefulPods';
export {
  applyRevision,
  newStatefulSetRevision,
  revisionsToTruncate,
} from './statefulset/statefulSetRevisions';
export { completeRollingUpdate, inconsistentStatus, replicaCounts } from './statefulset/statefulSetStatus';
export { revisionHoldsTemplate, templateRevisionData } from './controller/templateRevision';
export { DaemonSetController } from './daemonset/DaemonSetController';
export {
  compareDaemonPods,
  daemonPodTemplate,
  daemonPodTolerations,
  findUpdatedPodsOnNode,
  isPodUpdated,
  nodeNameAffinity,
  nodeShouldRunDaemonPod,
  targetNodeName,
  templateGeneration,
  type NodePlacement,
} from './daemonset/daemonPods';
export { daemonSetCounts, statusHolds, type DaemonSetCounts } from './daemonset/daemonSetStatus';
export { allowsSurge, managePlan, type ManagePlan } from './daemonset/managePlan';
export {
  DAEMON_SET_GVK,
  maxRevision,
  newRevision,
  revisionData,
  revisionHash,
  revisionMatches,
  revisionsToDelete,
} from './daemonset/revisionHistory';
export { rollingUpdatePlan, updateBounds, type RollingUpdateStep } from './daemonset/rollingUpdatePlan';
export { EndpointsController } from './endpoint/EndpointsController';
export {
  EndpointSliceController,
  MAX_ENDPOINTS_PER_SLICE_FLAG,
} from './endpointslice/EndpointSliceController';
export {
  CONTROLLER_NAME as ENDPOINT_SLICE_CONTROLLER_NAME,
  MANAGED_BY_LABEL,
  reconcileSlices,
  SERVICE_NAME_LABEL,
  type SlicePlan,
} from './endpointslice/sliceReconciler';
export { ResourceQuotaController } from './resourcequota/ResourceQuotaController';
export { quotaNeedsSync, quotaTracks } from './resourcequota/quotaSync';
export {
  endpointSubsets,
  findPort,
  HEADLESS_LABEL,
  MAX_ENDPOINT_ADDRESSES,
  OVER_CAPACITY_ANNOTATION,
  shouldPodBeInEndpoints,
  truncateSubsets,
} from './endpoint/endpointSubsets';
export { DeploymentController, DEPLOYMENT_GVK } from './deployment/DeploymentController';
export { computeHash, POD_TEMPLATE_HASH_LABEL, safeEncodeString } from './deployment/podTemplateHash';
export {
  rollingUpdateStep,
  reconcileNewReplicaSet,
  reconcileOldReplicaSets,
  scalePlan,
  type ScaleAction,
} from './deployment/rolloutPlan';
export {
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  maxSurge,
  maxUnavailable,
} from './deployment/deploymentUtil';
export {
  ReplicaSetController,
  replicaSetPod,
  BURST_REPLICAS,
  REPLICA_SET_KIND,
  type ReplicatedKind,
} from './replicaset/ReplicaSetController';
export { type ReplicaSetLike } from './replicaset/replicaSetStatus';
export {
  ReplicationManager,
  REPLICATION_CONTROLLER_GVK,
  REPLICATION_CONTROLLER_KIND,
} from './replication/ReplicationManager';
export { replicationControllerSelector } from './replication/replicationControllerSelector';
export { RootCACertPublisher } from './rootcacertpublisher/RootCACertPublisher';
export {
  DESCRIPTION_ANNOTATION,
  newRootCAConfigMap,
  restoredRootCAConfigMap,
  ROOT_CA_CONFIG_MAP_KEY,
  ROOT_CA_CONFIG_MAP_NAME,
  ROOT_CA_DESCRIPTION,
} from './rootcacertpublisher/rootCAConfigMap';
export { ROOT_CA_FILE_FLAG, rootCABundle } from './rootcacertpublisher/rootCABundle';
export { podsToDelete, comparePodsForDeletion } from './replicaset/rankPodsForDeletion';
export { slowStartBatch } from './replicaset/slowStartBatch';
export { JobController, jobPodFromTemplate } from './job/JobController';
export { CronJobController, CRONJOB_SYNC_PERIOD_MS, jobFromTemplate } from './cronjob/CronJobController';
export { jobNameFor, parseSchedule, unmetScheduleTimes, type Schedule } from './cronjob/schedule';
export {
  GarbageCollector,
  type GarbageCollectorOptions,
  GC_DISCOVERY_RESYNC_MS,
} from './garbagecollector/GarbageCollector';
export {
  removeOwnerReferencesMergePatch,
  removeOwnerReferencesPatch,
} from './garbagecollector/removeOwnerReferencesPatch';
export { decideDependent, type GCDecision, type OwnerLookup } from './garbagecollector/ownerClassification';
export {
  NamespaceController,
  type NamespaceControllerOptions,
  KUBERNETES_FINALIZER,
} from './namespace/NamespaceController';
export {
  NodeLifecycleController,
  NODE_EVICTION_PERIOD_MS,
  NODE_LEASE_NAMESPACE,
} from './nodelifecycle/NodeLifecycleController';
export { TaintManager, TAINT_EVICTION_CHECK_PERIOD_MS } from './nodelifecycle/TaintManager';
export {
  CONDITION_TAINT_KEYS,
  conditionNoScheduleTaints,
  nodeCondition,
  noScheduleTaintDiff,
  NOT_READY_TAINT_TEMPLATE,
  swapTaints,
  taintExists,
  UNREACHABLE_TAINT_TEMPLATE,
  type NodeCondition,
} from './nodelifecycle/conditionTaints';
export {
  CONDITIONS_MARKED_UNKNOWN,
  observeNodeHealth,
  type HealthObservation,
  type NodeHealth,
} from './nodelifecycle/nodeHealth';
export {
  DEFAULT_NODE_LIFECYCLE_OPTIONS,
  nodeLifecycleOptions,
  type NodeLifecycleFlags,
  type NodeLifecycleOptions,
} from './nodelifecycle/nodeLifecycleOptions';
export {
  podNotReadyCondition,
  TAINT_MANAGER_DISRUPTION_CONDITION,
  withPodCondition,
} from './nodelifecycle/podConditions';
export {
  EVICTION_RATE_LIMITER_BURST,
  RateLimitedTimedQueue,
  type TimedValue,
  type TryResult,
} from './nodelifecycle/RateLimitedTimedQueue';
export { TokenBucket } from './nodelifecycle/TokenBucket';
export {
  evictionTime,
  matchingTolerations,
  minTolerationMs,
  type EvictionTime,
} from './nodelifecycle/tolerationTime';
export {
  computeZoneState,
  EXCLUDE_DISRUPTION_LABEL,
  isExcludedFromDisruptionChecks,
  legacyIsMasterNode,
  type DisruptionExclusionGates,
  planDisruption,
  zoneEvictionRate,
  zoneName,
  type DisruptionPlan,
  type EvictionRates,
  type ZoneState,
} from './nodelifecycle/zoneStates';
export {
  DEFAULT_TERMINATED_POD_GC_THRESHOLD,
  PodGCController,
  POD_GC_CHECK_PERIOD_MS,
  POD_GC_QUARANTINE_MS,
  TERMINATED_POD_GC_THRESHOLD_FLAG,
  type PodGCOptions,
} from './podgc/PodGCController';
export { NodeQuarantine } from './podgc/NodeQuarantine';
export {
  compareByEvictionAndCreation,
  isNodeReady,
  isPodEvicted,
  isPodTerminated,
  missingNodeNames,
  orphanedPods,
  OUT_OF_SERVICE_TAINT,
  outOfServiceTerminatingPods,
  terminatedPodsToCollect,
  unscheduledTerminatingPods,
} from './podgc/podsToCollect';
export { TTLAfterFinishedController } from './ttlafterfinished/TTLAfterFinishedController';
export { jobFinishTime, needsCleanup, ttlTimeLeft, type TTLTimeLeft } from './ttlafterfinished/ttlTimeLeft';
export {
  ClusterRoleAggregationController,
  CLUSTER_ROLE_AGGREGATION_FIELD_MANAGER,
} from './clusterroleaggregation/ClusterRoleAggregationController';
export { aggregatedRules, sameRules } from './clusterroleaggregation/aggregatedRules';
export { TTLController } from './ttl/TTLController';
export {
  ClusterSizeTTL,
  hasTTL,
  NODE_TTL_ANNOTATION,
  TTL_BOUNDARIES,
  type TTLBoundary,
} from './ttl/ttlBoundaries';
export { AUTO_APPROVED_REASON, CSRApprovingController } from './certificates/CSRApprovingController';
export {
  isNodeClientCert,
  isSelfNodeClientCert,
  NODE_CLIENT_RECOGNIZERS,
  type NodeClientRecognizer,
} from './certificates/nodeClientRecognizers';
export { CSRCleanerController } from './certificates/CSRCleanerController';
export {
  APPROVED_EXPIRATION_MS,
  CSR_CLEANER_INTERVAL_MS,
  csrCleanupReason,
  DENIED_EXPIRATION_MS,
  FAILED_EXPIRATION_MS,
  PENDING_EXPIRATION_MS,
} from './certificates/csrCleanup';
export { namespaceDeletionOrder } from './namespace/deletionOrder';
export {
  ENABLE_DYNAMIC_PROVISIONING_FLAG,
  ENABLE_HOSTPATH_PROVISIONER_FLAG,
  PersistentVolumeController,
  type PersistentVolumeBinderOptions,
} from './volume/persistentvolume/PersistentVolumeController';
export {
  boundClaimAction,
  unboundClaimAction,
  volumeAction,
  type BinderEvent,
  type BoundClaimAction,
  type UnboundClaimAction,
  type VolumeAction,
} from './volume/persistentvolume/binderActions';
export {
  ANN_BETA_STORAGE_PROVISIONER,
  ANN_DYNAMICALLY_PROVISIONED,
  ANN_STORAGE_PROVISIONER,
  findBestMatchForClaim,
  volumeUnsatisfiedReason,
} from './volume/persistentvolume/volumeMatching';
export {
  HOST_PATH_PLUGIN,
  HOST_PATH_PROVISION_DIR,
  hostPathVolume,
  provisionPlan,
  reclaimPlan,
  type ProvisionPlan,
  type ReclaimPlan,
} from './volume/persistentvolume/volumePlugins';
export { PVProtectionController } from './volume/pvprotection/PVProtectionController';
export { PVCProtectionController } from './volume/pvcprotection/PVCProtectionController';
export { podUsesClaim } from './volume/pvcprotection/podUsesClaim';
export {
  ServiceAccountController,
  DEFAULT_SERVICE_ACCOUNTS,
} from './serviceaccount/ServiceAccountController';
export { TokensController, type TokensControllerOptions } from './serviceaccount/TokensController';
export { SERVICE_ACCOUNT_TOKEN_TYPE } from './serviceaccount/tokenSecret';
export { RangeAllocator } from './nodeipam/RangeAllocator';
export { CIDR_RANGE_EXHAUSTED, CIDRSet } from './nodeipam/CIDRSet';
