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
}

/**
 * Services: an empty load-balancer status on create and, on update, the allocated cluster IP and node
 * ports carried over when the new object leaves them out (as `kubectl replace` of an edited manifest
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
