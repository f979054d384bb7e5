import type { SubresourceHandler } from '../custom-handlers';
import type { ApiObject } from '../object';
import { Strategy } from '../strategy';
import { proxyHandler } from './proxy';
import { serviceLocation } from './proxy-location';

interface ServicePort {
  name?: string;
  port?: number;
  protocol?: string;
  nodePort?: number;
}

interface ServiceSpec {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  ports?: ServicePort[];
  externalTrafficPolicy?: string;
  healthCheckNodePort?: number;
  externalIPs?: string[];
  allocateLoadBalancerNodePorts?: boolean;
  loadBalancerClass?: string;
}

const needsClusterIP = (s: ServiceSpec): boolean => s.type !== 'ExternalName';
const needsNodePort = (s: ServiceSpec): boolean => s.type === 'NodePort' || s.type === 'LoadBalancer';
const needsHealthCheckNodePort = (s: ServiceSpec): boolean =>
  s.type === 'LoadBalancer' && s.externalTrafficPolicy === 'Local';
const externallyAccessible = (s: ServiceSpec): boolean =>
  needsNodePort(s) || ((s.type ?? 'ClusterIP') === 'ClusterIP' && (s.externalIPs?.length ?? 0) > 0);
const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((x, i) => x === b![i]);
const nodePortsOf = (s: ServiceSpec): number[] =>
  (s.ports ?? []).map((p) => p.nodePort ?? 0).filter((n) => n !== 0);

/**
 * Clears what only the old type of a service needed, where the update left it as it was (so the
 * client did not ask for it): cluster IPs and IP families when it becomes an ExternalName, node ports
 * when it becomes neither NodePort nor LoadBalancer, the health check node port, the load balancer's
 * node-port allocation flag and class, the external traffic policy when it is no longer reachable
 * from outside, and the load balancer status of what is no LoadBalancer. An update that changes the
 * type with a manifest still holding these values (`kubectl apply` from NodePort to ClusterIP)
 * succeeds, as in Kubernetes.
 */
function dropTypeDependentFields(obj: ApiObject, spec: ServiceSpec, old: ServiceSpec): void {
  if (needsClusterIP(old) && !needsClusterIP(spec)) {
    if (spec.clusterIP === old.clusterIP && sameList(spec.clusterIPs, old.clusterIPs)) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (sameList(spec.ipFamilies, old.ipFamilies)) delete spec.ipFamilies;
    if (spec.ipFamilyPolicy === old.ipFamilyPolicy) delete spec.ipFamilyPolicy;
  }
  if (needsNodePort(old) && !needsNodePort(spec)) {
    const before = new Set(nodePortsOf(old));
    if (nodePortsOf(spec).every((n) => before.has(n))) for (const p of spec.ports ?? []) delete p.nodePort;
  }
  if (
    needsHealthCheckNodePort(old) &&
    !needsHealthCheckNodePort(spec) &&
    spec.healthCheckNodePort === old.healthCheckNodePort
  )
    delete spec.healthCheckNodePort;
  if (old.type === 'LoadBalancer' && spec.type !== 'LoadBalancer') {
    if (
      spec.allocateLoadBalancerNodePorts !== undefined &&
      spec.allocateLoadBalancerNodePorts === old.allocateLoadBalancerNodePorts
    )
      delete spec.allocateLoadBalancerNodePorts;
    if (spec.loadBalancerClass === old.loadBalancerClass) delete spec.loadBalancerClass;
  }
  if (
    externallyAccessible(old) &&
    !externallyAccessible(spec) &&
    spec.externalTrafficPolicy === old.externalTrafficPolicy
  )
    delete spec.externalTrafficPolicy;
  const status = obj.status as { loadBalancer?: Record<string, unknown> } | undefined;
  // the status may be the stored object's own (shared, read-only): replaced, not changed in place
  if (spec.type !== 'LoadBalancer' && status?.loadBalancer && Object.keys(status.loadBalancer).length)
    obj.status = { ...status, loadBalancer: {} };
}

/**
 * Services: an empty load-balancer status on create and, on update, the fields of a former type
 * dropped (see dropTypeDependentFields) and the allocated cluster IP and node ports carried over when
 * the new object leaves them out (as `kubectl replace` of an edited manifest
 * does). The allocation itself happens in {@link ServiceStorage}, where the write is. services/proxy
 * reaches a ready endpoint of the service.
 */
export class ServiceStrategy extends Strategy {
  override readonly connectSubresources = ['proxy'];

  override readonly subresources: Record<string, SubresourceHandler> = {
    proxy: proxyHandler('service', serviceLocation),
  };

  override prepareForCreate(obj: ApiObject, now: Date): void {
    super.prepareForCreate(obj, now);
    obj.status = { loadBalancer: {} };
  }

  override prepareForUpdate(obj: ApiObject, old: ApiObject, subresource = ''): void {
    super.prepareForUpdate(obj, old, subresource);
    if (subresource) return;
    const spec = (obj.spec ?? {}) as ServiceSpec;
    const before = (old.spec ?? {}) as ServiceSpec;
    dropTypeDependentFields(obj, spec, before);
    if (
      spec.type !== 'ExternalName' &&
      before.type !== 'ExternalName' &&
      !spec.clusterIP &&
      before.clusterIP
    ) {
      spec.clusterIP = before.clusterIP;
      if (before.clusterIPs) spec.clusterIPs = [...before.clusterIPs];
      if (before.ipFamilies) spec.ipFamilies = [...before.ipFamilies];
      if (before.ipFamilyPolicy) spec.ipFamilyPolicy = before.ipFamilyPolicy;
    }
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') {
      for (const p of spec.ports ?? []) {
        if (p.nodePort) continue;
        const same = (before.ports ?? []).find(
          (q) => q.port === p.port && (q.protocol ?? 'TCP') === (p.protocol ?? 'TCP') && q.nodePort,
        );
        if (same) p.nodePort = same.nodePort;
      }
    }
    if (
      spec.type === 'LoadBalancer' &&
      spec.externalTrafficPolicy === 'Local' &&
      !spec.healthCheckNodePort &&
      before.healthCheckNodePort
    )
      spec.healthCheckNodePort = before.healthCheckNodePort;
    obj.spec = spec;
  }
}
