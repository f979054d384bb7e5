import { formatResourceList } from './resource-list';
import { serviceEvaluator } from './service-evaluator';

const service = (spec: Record<string, unknown>) => ({ metadata: { name: 's', namespace: 'ns' }, spec });
const usage = (spec: Record<string, unknown>) => formatResourceList(serviceEvaluator.usage(service(spec), 0));

describe('service evaluator', () => {
  it('counts every service, with no load balancer or node port for a ClusterIP one', () => {
    expect(usage({ type: 'ClusterIP', ports: [{ port: 80 }] })).toEqual({
      'count/services': '1',
      services: '1',
      'services.loadbalancers': '0',
      'services.nodeports': '0',
    });
  });

  it('counts the node ports of a NodePort service', () => {
    expect(usage({ type: 'NodePort', ports: [{ port: 80 }, { port: 443 }] })['services.nodeports']).toBe('2');
  });

  it('counts a LoadBalancer and its node ports, only the named ones when none are allocated', () => {
    const lb = usage({ type: 'LoadBalancer', ports: [{ port: 80 }, { port: 443 }] });
    expect([lb['services.loadbalancers'], lb['services.nodeports']]).toEqual(['1', '2']);
    const named = usage({
      type: 'LoadBalancer',
      allocateLoadBalancerNodePorts: false,
      ports: [{ port: 80, nodePort: 30080 }, { port: 443 }],
    });
    expect(named['services.nodeports']).toBe('1');
  });

  it('looks at creates and updates (the type can change), and has no scopes', () => {
    expect(['CREATE', 'UPDATE', 'DELETE'].map((o) => serviceEvaluator.handles(o as 'CREATE'))).toEqual([
      true,
      true,
      false,
    ]);
    expect(serviceEvaluator.matchesScope({ scopeName: 'BestEffort', operator: 'Exists' }, service({}))).toBe(
      false,
    );
    expect(serviceEvaluator.matchingResources(['services.nodeports', 'pods', 'count/services'])).toEqual([
      'services.nodeports',
      'count/services',
    ]);
  });
});
