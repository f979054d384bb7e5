import {
  errorMessage,
  runControllerManagerDaemon,
  splitList,
  type ControllerManagerRunOptions,
  type ControllerManagerDaemonContext,
  type DaemonHandle,
  type ParsedFlags,
} from '@orch/component-base';
import type { CloudProvider } from '../cloudprovider/CloudProvider';
import { initCloudProvider } from '../cloudprovider/cloudProviderRegistry';
import type { CloudControllerOptions } from '../controllers/CloudControllerContext';
import { CloudControllerManager } from '../manager/CloudControllerManager';
import { CLOUD_CONTROLLER_REGISTRY } from '../manager/cloudControllerRegistry';
import { registerBuiltinProviders } from '../providers/registerBuiltinProviders';

export const COMPONENT_NAME = 'orch-cloud-controller-manager';

/** The event source component of each controller, as Kubernetes names them. */
const EVENT_COMPONENTS: Record<string, string> = { route: 'route_controller' };

/** The cloud controllers' settings from the flags. */
export function cloudControllerOptionsFromFlags(flags: ParsedFlags): CloudControllerOptions {
  return {
    clusterName: flags.string('cluster-name'),
    clusterCIDRs: splitList(flags.string('cluster-cidr')),
    allocateNodeCIDRs: flags.bool('allocate-node-cidrs'),
    configureCloudRoutes: flags.bool('configure-cloud-routes'),
    nodeMonitorPeriodMs: flags.duration('node-monitor-period'),
    nodeStatusUpdateFrequencyMs: flags.duration('node-status-update-frequency'),
    routeReconciliationPeriodMs: flags.duration('route-reconciliation-period'),
  };
}

/** The provider --cloud-provider names, made from --cloud-config. */
export function cloudProviderFromFlags(flags: ParsedFlags): CloudProvider {
  registerBuiltinProviders();
  const name = flags.string('cloud-provider');
  try {
    return initCloudProvider(name, flags.string('cloud-config'));
  } catch (err) {
    throw new Error(`cloud provider could not be initialized: ${errorMessage(err)}`, { cause: err });
  }
}

export type RunOptions = ControllerManagerRunOptions;

/** Runs the cloud controller manager of a parsed command line: the cloud, leader election, the controllers. */
export async function runCloudControllerManager(
  daemon: ControllerManagerDaemonContext,
  options: RunOptions = {},
): Promise<DaemonHandle & { manager: CloudControllerManager; cloud: CloudProvider }> {
  const { flags } = daemon;
  // Unknown controller names fail before anything starts.
  CloudControllerManager.enabled(flags.strings('controllers'));
  const cloud = cloudProviderFromFlags(flags);
  const handle = runControllerManagerDaemon(daemon, {
    ...options,
    name: COMPONENT_NAME,
    eventComponent: (name) => EVENT_COMPONENTS[name] ?? `${name}-controller`,
    serviceAccount: (name) => CLOUD_CONTROLLER_REGISTRY[name]?.serviceAccount ?? `${name}-controller`,
    create: (deps) =>
      new CloudControllerManager({
        ...deps,
        controllers: flags.strings('controllers'),
        cloud,
        options: cloudControllerOptionsFromFlags(flags),
      }),
  });
  return {
    manager: handle.manager,
    cloud,
    async stop() {
      await handle.stop();
      await cloud.close();
    },
  };
}
