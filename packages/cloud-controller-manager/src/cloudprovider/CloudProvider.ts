import type { Node, Service } from '@orch/api';

/** One address of a node, as in Node.status.addresses. */
export interface NodeAddress {
  type: string;
  address: string;
}

/** What the cloud knows about the instance behind a node (Kubernetes' InstanceMetadata). */
export interface InstanceMetadata {
  /** `<provider>://<id>`, written to spec.providerID. */
  providerID: string;
  instanceType: string;
  nodeAddresses: NodeAddress[];
  zone: string;
  region: string;
}

/** Instances by node (Kubernetes' InstancesV2). */
export interface Instances {
  /** Whether the node's instance still exists. */
  instanceExists(node: Node): Promise<boolean>;
  /** Whether the node's instance is shut down; false when it does not exist. */
  instanceShutdown(node: Node): Promise<boolean>;
  /** The node's instance; throws InstanceNotFoundError when it does not exist. */
  instanceMetadata(node: Node): Promise<InstanceMetadata>;
}

/** The ingress points of a load balancer (Service.status.loadBalancer). */
export interface LoadBalancerStatus {
  ingress: { ip?: string; hostname?: string }[];
}

/** Load balancers for Services of type LoadBalancer. */
export interface LoadBalancer {
  /** The status of the service's load balancer, if it exists. */
  getLoadBalancer(clusterName: string, service: Service): Promise<LoadBalancerStatus | undefined>;
  /** The provider's name for the service's load balancer. */
  getLoadBalancerName(clusterName: string, service: Service): string;
  /** Creates or updates the load balancer so that it forwards the service's ports to `nodes`. */
  ensureLoadBalancer(clusterName: string, service: Service, nodes: Node[]): Promise<LoadBalancerStatus>;
  /** Points an existing load balancer at `nodes`. */
  updateLoadBalancer(clusterName: string, service: Service, nodes: Node[]): Promise<void>;
  /** Deletes the load balancer; no error when it is already gone. */
  ensureLoadBalancerDeleted(clusterName: string, service: Service): Promise<void>;
}

/** A route of the cloud's network: pod traffic for destinationCIDR goes to targetNode. */
export interface Route {
  name: string;
  targetNode: string;
  destinationCIDR: string;
  /** A route whose target no longer exists. */
  blackhole?: boolean;
}

/** The cloud's route table. */
export interface Routes {
  /** The routes of one cluster. */
  listRoutes(clusterName: string): Promise<Route[]>;
  /** Creates a route; the provider names it from `nameHint` (the node's UID). */
  createRoute(clusterName: string, nameHint: string, route: Omit<Route, 'name'>): Promise<void>;
  deleteRoute(clusterName: string, route: Route): Promise<void>;
}

/** The failure domain of an instance. */
export interface Zone {
  failureDomain: string;
  region: string;
}

/** Zones of instances. */
export interface Zones {
  getZoneByNodeName(nodeName: string): Promise<Zone>;
  getZoneByProviderID(providerID: string): Promise<Zone>;
}

/**
 * A cloud provider (Kubernetes' cloudprovider.Interface): each capability is optional, and the
 * controllers that need a missing one do nothing.
 */
export interface CloudProvider {
  providerName(): string;
  instances(): Instances | undefined;
  loadBalancer(): LoadBalancer | undefined;
  routes(): Routes | undefined;
  zones(): Zones | undefined;
  /** Whether node names are the instances' hostnames. */
  hasClusterID(): boolean;
  /** Releases what the provider holds (listeners, timers). */
  close(): Promise<void>;
}

/** The instance behind a node does not exist. */
export class InstanceNotFoundError extends Error {
  constructor(nodeName: string) {
    super(`instance not found for node "${nodeName}"`);
    this.name = 'InstanceNotFoundError';
  }
}
