import type { PluginFactory, PluginRegistry } from '../framework/interfaces';
import { POD_OVERHEAD } from '../framework/resource';
import { DEFAULT_BINDER, DefaultBinder } from './defaultbinder/defaultBinder';
import { DEFAULT_PREEMPTION, DefaultPreemption } from './defaultpreemption/defaultPreemption';
import { IMAGE_LOCALITY, ImageLocality } from './imagelocality/imageLocality';
import { NODE_PREFER_AVOID_PODS, NodePreferAvoidPods } from './nodepreferavoidpods/nodePreferAvoidPods';
import { SELECTOR_SPREAD, SelectorSpread } from './selectorspread/selectorSpread';
import { INTER_POD_AFFINITY, InterPodAffinity } from './interpodaffinity/interPodAffinity';
import { NODE_AFFINITY, NodeAffinity } from './nodeaffinity/nodeAffinity';
import { NODE_PORTS, NodePorts } from './nodeports/nodePorts';
import { NODE_NAME, NodeName } from './nodename/nodeName';
import {
  NODE_RESOURCES_FIT,
  NodeResourcesFit,
  type NodeResourcesFitArgs,
} from './noderesourcesfit/nodeResourcesFit';
import {
  NODE_RESOURCES_LEAST_ALLOCATED,
  NodeResourcesLeastAllocated,
  type NodeResourcesLeastAllocatedArgs,
} from './noderesourcesleastallocated/nodeResourcesLeastAllocated';
import {
  NODE_RESOURCES_BALANCED_ALLOCATION,
  NodeResourcesBalancedAllocation,
} from './noderesourcesbalancedallocation/nodeResourcesBalancedAllocation';
import { NODE_CONDITION, NodeCondition } from './nodecondition/nodeCondition';
import { NODE_UNSCHEDULABLE, NodeUnschedulable } from './nodeunschedulable/nodeUnschedulable';
import { POD_TOPOLOGY_SPREAD, PodTopologySpread } from './podtopologyspread/podTopologySpread';
import { PRIORITY_SORT, PrioritySort } from './prioritysort/prioritySort';
import { TAINT_TOLERATION, TaintToleration } from './tainttoleration/taintToleration';
import { VOLUME_BINDING, VolumeBinding, type VolumeBindingArgs } from './volumebinding/volumeBinding';
import { CSILimits, NODE_VOLUME_LIMITS } from './nodevolumelimits/csiLimits';
import {
  AZURE_DISK_VOLUME_FILTER,
  EBS_VOLUME_FILTER,
  GCE_PD_VOLUME_FILTER,
  NonCSILimits,
} from './nodevolumelimits/nonCSILimits';
import { VOLUME_RESTRICTIONS, VolumeRestrictions } from './volumerestrictions/volumeRestrictions';
import { VOLUME_ZONE, VolumeZone } from './volumezone/volumeZone';

/** The built-in plugins by name. */
export function inTreeRegistry(): PluginRegistry {
  return new Map<string, PluginFactory>([
    [PRIORITY_SORT, () => new PrioritySort()],
    [NODE_NAME, () => new NodeName()],
    [NODE_UNSCHEDULABLE, () => new NodeUnschedulable()],
    [NODE_CONDITION, () => new NodeCondition()],
    [TAINT_TOLERATION, () => new TaintToleration()],
    [NODE_AFFINITY, () => new NodeAffinity()],
    [
      NODE_RESOURCES_FIT,
      (args, handle) =>
        new NodeResourcesFit(args as NodeResourcesFitArgs | undefined, handle.featureEnabled(POD_OVERHEAD)),
    ],
    [
      NODE_RESOURCES_LEAST_ALLOCATED,
      (args, handle) =>
        new NodeResourcesLeastAllocated(
          args as NodeResourcesLeastAllocatedArgs | undefined,
          handle.featureEnabled(POD_OVERHEAD),
        ),
    ],
    [NODE_PORTS, () => new NodePorts()],
    [INTER_POD_AFFINITY, (args, handle) => new InterPodAffinity(args, handle)],
    [
      NODE_RESOURCES_BALANCED_ALLOCATION,
      (_args, handle) => new NodeResourcesBalancedAllocation(handle.featureEnabled(POD_OVERHEAD)),
    ],
    [POD_TOPOLOGY_SPREAD, (_args, handle) => new PodTopologySpread(handle)],
    [SELECTOR_SPREAD, (_args, handle) => new SelectorSpread(handle)],
    [IMAGE_LOCALITY, (_args, handle) => new ImageLocality(handle)],
    [NODE_PREFER_AVOID_PODS, () => new NodePreferAvoidPods()],
    [DEFAULT_BINDER, (_args, handle) => new DefaultBinder(handle)],
    [DEFAULT_PREEMPTION, (args, handle) => new DefaultPreemption(args, handle)],
    [VOLUME_BINDING, (args, handle) => new VolumeBinding(args as VolumeBindingArgs | undefined, handle)],
    [VOLUME_ZONE, (_args, handle) => new VolumeZone(handle)],
    [VOLUME_RESTRICTIONS, () => new VolumeRestrictions()],
    [NODE_VOLUME_LIMITS, (_args, handle) => new CSILimits(handle)],
    ...[EBS_VOLUME_FILTER, GCE_PD_VOLUME_FILTER, AZURE_DISK_VOLUME_FILTER].map(
      (type): [string, PluginFactory] => [type.name, (_args, handle) => new NonCSILimits(type, handle)],
    ),
  ]);
}
