// The daemon.
export { cloudControllerManagerDaemon } from './app/cloudControllerManagerDaemon';
export {
  COMPONENT_NAME,
  cloudControllerOptionsFromFlags,
  cloudProviderFromFlags,
  runCloudControllerManager,
  type RunOptions,
} from './app/runCloudControllerManager';

// The manager.
export { CloudControllerManager, type CloudControllerManagerOptions } from './manager/CloudControllerManager';
export { CLOUD_CONTROLLER_REGISTRY } from './manager/cloudControllerRegistry';

// The cloud provider interface.
export {
  InstanceNotFoundError,
  type CloudProvider,
  type InstanceMetadata,
  type Instances,
  type LoadBalancer,
  type LoadBalancerStatus,
  type NodeAddress,
  type Route,
  type Routes,
  type Zone,
  type Zones,
} from './cloudprovider/CloudProvider';
export {
  cloudProviderNames,
  initCloudProvider,
  registerCloudProvider,
  type CloudProviderFactory,
} from './cloudprovider/cloudProviderRegistry';

// The built-in local provider.
export { registerBuiltinProviders } from './providers/registerBuiltinProviders';
export { LOCAL_PROVIDER_NAME, LocalCloud } from './providers/local/LocalCloud';
export { LocalInventory } from './providers/local/LocalInventory';
export {
  LocalLoadBalancers,
  defaultLoadBalancerName,
  nodeBackendAddresses,
} from './providers/local/LocalLoadBalancers';
export { LocalRoutes, localRouteName } from './providers/local/LocalRoutes';
export {
  DEFAULT_LOAD_BALANCER_POOL,
  localProviderID,
  parseLocalCloudConfig,
  type InstanceState,
  type LocalCloudConfig,
  type LocalInstance,
} from './providers/local/localCloudConfig';

// Controllers.
export type {
  CloudControllerContext,
  CloudControllerDescriptor,
  CloudControllerOptions,
} from './controllers/CloudControllerContext';
export { SHUTDOWN_TAINT_KEY, UNINITIALIZED_TAINT_KEY } from './controllers/nodeUtil';
export { CloudNodeController, instanceLabels } from './controllers/cloudnode/CloudNodeController';
export { CloudNodeLifecycleController } from './controllers/nodelifecycle/CloudNodeLifecycleController';
export { RouteController, routePlan, nodePodCIDRs } from './controllers/route/RouteController';
export {
  LOAD_BALANCER_CLEANUP_FINALIZER,
  ServiceController,
  loadBalancerHosts,
  MASTER_ROLE_LABEL,
  type HostExclusionGates,
  wantsLoadBalancer,
} from './controllers/service/ServiceController';
