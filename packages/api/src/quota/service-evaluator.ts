import { newQuantity } from '../util/quantity';
import { objectCountResourceName } from './object-count-evaluator';
import {
  intersectResourceNames,
  matchesNoScope,
  type QuotaEvaluator,
  type QuotaObject,
} from './quota-evaluator';
import { zeroQuantity, type ResourceList } from './resource-list';

interface QuotaService extends QuotaObject {
  spec?: {
    type?: string | null;
    ports?: { nodePort?: number | null }[] | null;
    allocateLoadBalancerNodePorts?: boolean | null;
  } | null;
}

const serviceCount = objectCountResourceName('', 'services');
const serviceResources = new Set([serviceCount, 'services', 'services.loadbalancers', 'services.nodeports']);

/**
 * The service evaluator: every service counts once; a LoadBalancer counts under
 * services.loadbalancers; NodePort and LoadBalancer services count their node ports (a
 * LoadBalancer without allocated node ports only those it names). Updates count, as the type can change.
 */
export const serviceEvaluator: QuotaEvaluator = {
  group: '',
  resource: 'services',
  handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
  matchingResources: (input) => intersectResourceNames(input, serviceResources),
  matchesScope: matchesNoScope,
  constraints: () => undefined,
  usage: (obj) => {
    const spec = (obj as QuotaService).spec ?? {};
    const ports = spec.ports ?? [];
    const out: ResourceList = {
      [serviceCount]: newQuantity(1, 'DecimalSI'),
      services: newQuantity(1, 'DecimalSI'),
      'services.loadbalancers': zeroQuantity(),
      'services.nodeports': zeroQuantity(),
    };
    if (spec.type === 'NodePort') out['services.nodeports'] = newQuantity(ports.length, 'DecimalSI');
    if (spec.type === 'LoadBalancer') {
      const nodePorts =
        spec.allocateLoadBalancerNodePorts === false ? ports.filter((p) => p.nodePort).length : ports.length;
      out['services.nodeports'] = newQuantity(nodePorts, 'DecimalSI');
      out['services.loadbalancers'] = newQuantity(1, 'DecimalSI');
    }
    return out;
  },
};
