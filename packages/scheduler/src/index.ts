// The scheduler: loop, queue, cache, framework and built-in plugins.
export { Scheduler, REASON_SCHEDULER_ERROR, REASON_UNSCHEDULABLE, type SchedulerOptions } from './scheduler';
export { addAllEventHandlers, addVolumeEventHandlers, nodeSchedulingPropertiesChange } from './eventHandlers';
export {
  MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND,
  MIN_FEASIBLE_NODES_TO_FIND,
  numFeasibleNodesToFind,
} from './numFeasibleNodesToFind';

// Queue.
export {
  DEFAULT_POD_INITIAL_BACKOFF_MS,
  DEFAULT_POD_MAX_BACKOFF_MS,
  SchedulingQueue,
  UNSCHEDULABLE_Q_TIME_INTERVAL_MS,
  type ClusterEvent,
  type PendingPods,
  type SchedulingQueueOptions,
} from './queue/schedulingQueue';
export { Heap } from './queue/heap';
export { PodNominator } from './queue/nominator';

// Cache.
export {
  DEFAULT_ASSUMED_POD_TTL_MS,
  SchedulerCache,
  type SchedulerCacheOptions,
} from './cache/schedulerCache';

// Framework.
export { Code, Status, isSuccess } from './framework/status';
export { CycleState } from './framework/cycleState';
export { NodeInfo, podHasAffinity, podHasRequiredAntiAffinity, podKey } from './framework/nodeInfo';
export {
  DEFAULT_BIND_ALL_HOST_IP,
  HostPortInfo,
  podHostPorts,
  type HostPort,
} from './framework/hostPortInfo';
export {
  DEFAULT_MEMORY_REQUEST,
  DEFAULT_MILLI_CPU_REQUEST,
  nodeAllocatable,
  POD_OVERHEAD,
  podRequests,
  resourceFromList,
  type PodRequests,
  type Resource,
} from './framework/resource';
export { FitError, NO_NODES_AVAILABLE, fitErrorMessage, withPostFilterMessage } from './framework/fitError';
export {
  Framework,
  MAX_PERMIT_TIMEOUT_MS,
  NO_VOLUME_LISTERS,
  NO_WORKLOAD_LISTERS,
  type FrameworkDeps,
} from './framework/framework';
export {
  DEFAULT_SCHEDULER_NAME,
  EXTENSION_POINTS,
  defaultPlugins,
  mergePluginSet,
  type ExtensionPoint,
  type PluginRef,
  type PluginSet,
  type PluginsConfig,
  type ProfileConfig,
} from './framework/profile';
export {
  MAX_NODE_SCORE,
  MIN_NODE_SCORE,
  type BindPlugin,
  type FilterPlugin,
  type FrameworkHandle,
  type PermitPlugin,
  type PermitResult,
  type Plugin,
  type PluginMetrics,
  type PluginFactory,
  type PluginRegistry,
  type PostBindPlugin,
  type PostFilterPlugin,
  type PostFilterResult,
  type PreBindPlugin,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreScorePlugin,
  type QueueSortPlugin,
  type QueuedPodInfo,
  type ReservePlugin,
  type SchedulerClient,
  type ScorePlugin,
  type VolumeListers,
  type WorkloadListers,
  type WaitingPod,
} from './framework/interfaces';

// Plugins.
export { inTreeRegistry } from './plugins/registry';
export { PRIORITY_SORT, PrioritySort, podPriority } from './plugins/prioritysort/prioritySort';
export { ERR_NODE_NAME_MISMATCH, NODE_NAME, NodeName } from './plugins/nodename/nodeName';
export {
  ERR_NODE_UNSCHEDULABLE,
  NODE_UNSCHEDULABLE,
  NodeUnschedulable,
  TAINT_NODE_UNSCHEDULABLE,
} from './plugins/nodeunschedulable/nodeUnschedulable';
export {
  TAINT_TOLERATION,
  TaintToleration,
  untoleratedTaintReason,
} from './plugins/tainttoleration/taintToleration';
export {
  ERR_NODE_SELECTOR_NOT_MATCH,
  NODE_AFFINITY,
  NodeAffinity,
} from './plugins/nodeaffinity/nodeAffinity';
export {
  NODE_RESOURCES_FIT,
  NodeResourcesFit,
  TOO_MANY_PODS,
  insufficientReason,
  type NodeResourcesFitArgs,
} from './plugins/noderesourcesfit/nodeResourcesFit';
export {
  NODE_RESOURCES_LEAST_ALLOCATED,
  NodeResourcesLeastAllocated,
  leastRequestedScore,
  type NodeResourcesLeastAllocatedArgs,
} from './plugins/noderesourcesleastallocated/nodeResourcesLeastAllocated';
export {
  NODE_RESOURCES_BALANCED_ALLOCATION,
  NodeResourcesBalancedAllocation,
  balancedResourceScore,
} from './plugins/noderesourcesbalancedallocation/nodeResourcesBalancedAllocation';
export { ERR_REASON_NODE_PORTS, NODE_PORTS, NodePorts } from './plugins/nodeports/nodePorts';
export {
  DEFAULT_HARD_POD_AFFINITY_WEIGHT,
  ERR_REASON_AFFINITY_RULES_NOT_MATCH,
  ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
  ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
  INTER_POD_AFFINITY,
  InterPodAffinity,
  hardPodAffinityWeightError,
  validateInterPodAffinityArgs,
  type InterPodAffinityArgs,
} from './plugins/interpodaffinity/interPodAffinity';
export { DEFAULT_BINDER, DefaultBinder } from './plugins/defaultbinder/defaultBinder';
export {
  DEFAULT_PREEMPTION,
  DefaultPreemption,
  ERR_NOT_ELIGIBLE_NEVER,
  ERR_NOT_ELIGIBLE_TERMINATING,
  ERR_PREEMPTION_NOT_HELPFUL,
  NON_PREEMPTING_PRIORITY,
  POD_DISRUPTION_CONDITIONS,
  REASON_PREEMPTION_BY_SCHEDULER,
  podTerminatingByPreemption,
  preemptionCondition,
} from './plugins/defaultpreemption/defaultPreemption';
export {
  DEFAULT_MIN_CANDIDATE_NODES_ABSOLUTE,
  DEFAULT_MIN_CANDIDATE_NODES_PERCENTAGE,
  calculateNumCandidates,
  validateDefaultPreemptionArgs,
  type DefaultPreemptionArgs,
} from './plugins/defaultpreemption/defaultPreemptionArgs';
export {
  pickOneNodeForPreemption,
  type Candidate,
} from './plugins/defaultpreemption/pickOneNodeForPreemption';
export {
  ERR_NO_PREEMPTION_VICTIMS,
  filterPodsWithPDBViolation,
  moreImportantPod,
  selectVictimsOnNode,
  type NodeVictims,
} from './plugins/defaultpreemption/selectVictimsOnNode';

// API writes, metrics and the daemon.
export { RestSchedulerClient, type RestSchedulerClientOptions } from './client/restSchedulerClient';
export { SchedulerMetrics, type AttemptResult } from './metrics/schedulerMetrics';
export { buildSchedulerConfig, parseProfiles, type SchedulerConfiguration } from './app/schedulerConfig';
export { NOTICE_ONLY_FLAGS, configFileOnlyFlags, orchSchedulerFlagSets } from './app/schedulerFlags';
export { restClientFor, runScheduler } from './app/runScheduler';
export { schedulerDaemon } from './app/schedulerDaemon';
export {
  ERR_CONSTRAINTS_NOT_MATCH,
  ERR_NODE_LABEL_NOT_MATCH,
  EVEN_PODS_SPREAD,
  POD_TOPOLOGY_SPREAD,
  PodTopologySpread,
} from './plugins/podtopologyspread/podTopologySpread';
export {
  DEFAULT_POD_TOPOLOGY_SPREAD,
  SELECTOR_SPREAD,
  SelectorSpread,
  countMatchingPods,
} from './plugins/selectorspread/selectorSpread';
export { defaultSelector } from './plugins/selectorspread/defaultSelector';
export {
  IMAGE_LOCALITY,
  ImageLocality,
  MAX_CONTAINER_THRESHOLD,
  MIN_THRESHOLD,
  imageLocalityPriority,
  normalizedImageName,
} from './plugins/imagelocality/imageLocality';
export {
  NODE_PREFER_AVOID_PODS,
  NodePreferAvoidPods,
  PREFER_AVOID_PODS_ANNOTATION,
  avoidPodsFromAnnotations,
  type AvoidPods,
  type PreferAvoidPodsEntry,
} from './plugins/nodepreferavoidpods/nodePreferAvoidPods';
export {
  DEFAULT_BIND_TIMEOUT_SECONDS,
  ERR_UNBOUND_IMMEDIATE_PVC,
  VOLUME_BINDING,
  VolumeBinding,
  validateVolumeBindingArgs,
  type VolumeBindingArgs,
  type VolumeBindingOptions,
} from './plugins/volumebinding/volumeBinding';
export {
  ERR_REASON_BIND_CONFLICT,
  ERR_REASON_NODE_CONFLICT,
  NOT_SUPPORTED_PROVISIONER,
  VolumeBinder,
  type BindingInfo,
  type PodClaims,
  type PodVolumes,
  type VolumeBinderOptions,
} from './plugins/volumebinding/volumeBinder';
export { AssumeCache } from './plugins/volumebinding/assumeCache';
export { ERR_REASON_VOLUME_ZONE_CONFLICT, VOLUME_ZONE, VolumeZone } from './plugins/volumezone/volumeZone';
export {
  ERR_REASON_DISK_CONFLICT,
  VOLUME_RESTRICTIONS,
  VolumeRestrictions,
  isVolumeConflict,
} from './plugins/volumerestrictions/volumeRestrictions';
export { CSILimits, NODE_VOLUME_LIMITS } from './plugins/nodevolumelimits/csiLimits';
export {
  AZURE_DISK_LIMITS,
  AZURE_DISK_VOLUME_FILTER,
  DEFAULT_MAX_AZURE_DISK_VOLUMES,
  DEFAULT_MAX_EBS_NITRO_VOLUMES,
  DEFAULT_MAX_EBS_VOLUMES,
  DEFAULT_MAX_GCE_PD_VOLUMES,
  EBS_LIMITS,
  EBS_VOLUME_FILTER,
  GCE_PD_LIMITS,
  GCE_PD_VOLUME_FILTER,
  KUBE_MAX_PD_VOLS,
  NonCSILimits,
  maxPDVolumesFromEnv,
  type VolumeTypeFilter,
} from './plugins/nodevolumelimits/nonCSILimits';
export {
  ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED,
  csiAttachLimitKey,
  nodeVolumeLimits,
} from './plugins/nodevolumelimits/volumeLimits';
