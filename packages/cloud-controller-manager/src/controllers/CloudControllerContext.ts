import type { ControllerContext, RunningController } from '@orch/component-base';
import type { CloudProvider } from '../cloudprovider/CloudProvider';

/** The settings of the cloud controllers (from the daemon's flags). */
export interface CloudControllerOptions {
  /** --cluster-name: the prefix of the cluster's routes. */
  clusterName: string;
  /** --cluster-cidr, split at commas. */
  clusterCIDRs: string[];
  allocateNodeCIDRs: boolean;
  configureCloudRoutes: boolean;
  /** --node-monitor-period in ms. */
  nodeMonitorPeriodMs: number;
  /** --node-status-update-frequency in ms. */
  nodeStatusUpdateFrequencyMs: number;
  /** --route-reconciliation-period in ms. */
  routeReconciliationPeriodMs: number;
}

/** What the cloud controller manager hands each controller. */
export interface CloudControllerContext extends ControllerContext {
  cloud: CloudProvider;
  options: CloudControllerOptions;
}

/** One entry of the cloud controller registry. */
export interface CloudControllerDescriptor {
  /** The flag giving the number of workers, if the controller has one. */
  concurrencyFlag?: string;
  /**
   * The service account (in orch-system) the controller acts as with --use-service-account-credentials,
   * as Kubernetes names it; `<name>-controller` unless given.
   */
  serviceAccount?: string;
  /** Starts the controller; undefined when it has nothing to do (its cloud capability is missing). */
  start(ctx: CloudControllerContext): RunningController | undefined;
}
