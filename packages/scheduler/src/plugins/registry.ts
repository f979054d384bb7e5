import type { PluginFactory, PluginRegistry } from '../framework/interfaces';
import { DEFAULT_BINDER, DefaultBinder } from './defaultbinder/defaultBinder';
import { NODE_AFFINITY, NodeAffinity } from './nodeaffinity/nodeAffinity';
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
import { NODE_UNSCHEDULABLE, NodeUnschedulable } from './nodeunschedulable/nodeUnschedulable';
import { PRIORITY_SORT, PrioritySort } from './prioritysort/prioritySort';
import { TAINT_TOLERATION, TaintToleration } from './tainttoleration/taintToleration';

/** The built-in plugins by name. */
export function inTreeRegistry(): PluginRegistry {
  return new Map<string, PluginFactory>([
    [PRIORITY_SORT, () => new PrioritySort()],
    [NODE_NAME, () => new NodeName()],
    [NODE_UNSCHEDULABLE, () => new NodeUnschedulable()],
    [TAINT_TOLERATION, () => new TaintToleration()],
    [NODE_AFFINITY, () => new NodeAffinity()],
    [NODE_RESOURCES_FIT, (args) => new NodeResourcesFit(args as NodeResourcesFitArgs | undefined)],
    [
      NODE_RESOURCES_LEAST_ALLOCATED,
      (args) => new NodeResourcesLeastAllocated(args as NodeResourcesLeastAllocatedArgs | undefined),
    ],
    [DEFAULT_BINDER, (_args, handle) => new DefaultBinder(handle)],
  ]);
}
