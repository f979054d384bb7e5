import type { CloudControllerDescriptor } from '../controllers/CloudControllerContext';
import { CloudNodeController } from '../controllers/cloudnode/CloudNodeController';
import { CloudNodeLifecycleController } from '../controllers/nodelifecycle/CloudNodeLifecycleController';
import { RouteController } from '../controllers/route/RouteController';
import { ServiceController } from '../controllers/service/ServiceController';

/** The cloud controllers by the name --controllers uses; each needs one capability of the cloud. */
export const CLOUD_CONTROLLER_REGISTRY: Readonly<Record<string, CloudControllerDescriptor>> = {
  'cloud-node': {
    serviceAccount: 'node-controller',
    start: (ctx) => {
      const instances = ctx.cloud.instances();
      return instances && new CloudNodeController(ctx, instances);
    },
  },
  'cloud-node-lifecycle': {
    serviceAccount: 'node-controller',
    start: (ctx) => {
      const instances = ctx.cloud.instances();
      return instances && new CloudNodeLifecycleController(ctx, instances);
    },
  },
  route: {
    start: (ctx) => {
      const { allocateNodeCIDRs, configureCloudRoutes } = ctx.options;
      if (!allocateNodeCIDRs || !configureCloudRoutes) {
        ctx.logger.info(
          `Will not configure cloud provider routes, --configure-cloud-routes: ${configureCloudRoutes}, --allocate-node-cidrs: ${allocateNodeCIDRs}`,
        );
        return undefined;
      }
      const routes = ctx.cloud.routes();
      if (!routes) {
        ctx.logger.warning('route controller disabled: the cloud provider does not support routes');
        return undefined;
      }
      return new RouteController(ctx, routes);
    },
  },
  service: {
    concurrencyFlag: 'concurrent-service-syncs',
    start: (ctx) => {
      const lb = ctx.cloud.loadBalancer();
      if (!lb) {
        ctx.logger.warning('service controller disabled: the cloud provider does not support load balancers');
        return undefined;
      }
      return new ServiceController(ctx, lb);
    },
  },
};
