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
export { deletableResources, mappingForKind } from './controller/discovery';
export { isPodActive, isPodAvailable, isPodReady, podFromTemplate } from './controller/podUtil';

// Controllers.
export { DisruptionController } from './disruption/DisruptionController';
export { EndpointsController } from './endpoint/EndpointsController';
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
export { ReplicaSetController, replicaSetPod, BURST_REPLICAS } from './replicaset/ReplicaSetController';
export { podsToDelete, comparePodsForDeletion } from './replicaset/rankPodsForDeletion';
export { slowStartBatch } from './replicaset/slowStartBatch';
export { JobController, jobPodFromTemplate } from './job/JobController';
export { CronJobController, CRONJOB_SYNC_PERIOD_MS, jobFromTemplate } from './cronjob/CronJobController';
export { jobNameFor, parseSchedule, unmetScheduleTimes, type Schedule } from './cronjob/schedule';
export { GarbageCollector } from './garbagecollector/GarbageCollector';
export { removeOwnerReferencesPatch } from './garbagecollector/removeOwnerReferencesPatch';
export { decideDependent, type GCDecision, type OwnerLookup } from './garbagecollector/ownerClassification';
export { NamespaceController, KUBERNETES_FINALIZER } from './namespace/NamespaceController';
export { namespaceDeletionOrder } from './namespace/deletionOrder';
export {
  ServiceAccountController,
  DEFAULT_SERVICE_ACCOUNTS,
} from './serviceaccount/ServiceAccountController';
