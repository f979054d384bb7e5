export {
  buildNodeAgentConfig,
  nodeAgentValidators,
  nodeNames,
  parseKeyValues,
  parseTaints,
  POD_RUNTIME_MODES,
  type NodeAgentConfiguration,
  type PodRuntimeMode,
} from './app/nodeAgentConfig';
export { nodeAgentFlagSets } from './app/nodeAgentFlags';
export { nodeAgentDaemon } from './app/nodeAgentDaemon';
export { nodeAgentRestClient, runNodeAgent } from './app/runNodeAgent';
export { NodeAgent, type NodeAgentOptions } from './app/NodeAgent';
export { MAX_SIMULATED_NODES, PodIPAllocator, nodeInternalIP, nodePodCIDR } from './node/addresses';
export {
  KUBELET_PORT,
  NODE_LEASE_NAMESPACE,
  SIMULATED_RUNTIME_VERSION,
  allocatable,
  nodeLease,
  nodeObject,
  nodeStatus,
  reconcileNode,
  simulatedNode,
  type SimulatedNode,
  type SimulatedNodeOptions,
} from './node/nodeObjects';
export { NodeHeartbeats, nodeRef, type NodeHeartbeatsOptions } from './node/NodeHeartbeats';
export {
  CRASH_BACKOFF_INITIAL_MS,
  CRASH_BACKOFF_MAX_MS,
  SIMULATED_EXIT_CODE_ANNOTATION,
  crashBackoffMs,
  simulatePodStatus,
  simulatedContainerID,
  simulatedExitCode,
  simulatedImageID,
  stoppedPodStatus,
  type PodRunContext,
  type PodTimelineOptions,
  type SimulatedPodStatus,
} from './runtime/podTimeline';
export type { PodRunner } from './runtime/PodRunner';
export { PodRuntime, type PodRuntimeOptions } from './runtime/PodRuntime';
export {
  NO_COMMAND_MESSAGE,
  ProcessPodRuntime,
  TERMINATION_MESSAGE_PATH_ENV,
  containerLogPath,
  podDir,
  type ProcessPodRuntimeOptions,
} from './runtime/process/ProcessPodRuntime';
export { buildEnv, ContainerConfigError, type EnvSources } from './runtime/process/buildEnv';
export { criLogText } from './runtime/process/logReader';
export { expandEnv } from './runtime/process/expandEnv';
export { DueQueue, type DueQueueOptions } from './scheduling/DueQueue';
export { FakeClock, realClock, type Clock } from './scheduling/Clock';
export { nextSlot, staggerOffset } from './scheduling/stagger';
