import type { Node } from '@orch/api';
import { eventually } from '@orch/apiserver';
import { startCloudTestCluster, type CloudTestCluster } from '../../testing/startCloudTestCluster';
import { nodeCondition } from '../nodeUtil';
import { routePlan } from './RouteController';

describe('routePlan', () => {
  const node = (name: string, cidrs: string[]): Node =>
    ({ metadata: { name }, spec: { podCIDRs: cidrs } }) as Node;

  test('creates missing routes, deletes stale ones inside the cluster CIDR only', () => {
    const plan = routePlan(
      [node('a', ['10.244.0.0/24']), node('b', ['10.244.1.0/24', 'fd00::/64'])],
      [
        { name: 'orch-a', targetNode: 'a', destinationCIDR: '10.244.0.0/24' },
        { name: 'orch-b-old', targetNode: 'b', destinationCIDR: '10.244.9.0/24' },
        { name: 'orch-gone', targetNode: 'gone', destinationCIDR: '10.244.2.0/24' },
        { name: 'orch-foreign', targetNode: 'gone', destinationCIDR: '192.168.0.0/24' },
        { name: 'orch-hole', targetNode: 'a', destinationCIDR: '10.244.0.0/24', blackhole: true },
      ],
      ['10.244.0.0/16', 'fd00::/48'],
    );
    expect(plan.create.map((c) => [c.node.metadata?.name, c.cidr])).toEqual([
      ['b', '10.244.1.0/24'],
      ['b', 'fd00::/64'],
    ]);
    expect(plan.remove.map((r) => r.name)).toEqual(['orch-b-old', 'orch-gone', 'orch-hole']);
  });
});

describe('against an apiserver', () => {
  let cluster: CloudTestCluster;
  beforeAll(async () => {
    cluster = await startCloudTestCluster(['route']);
  });
  afterAll(() => cluster?.close());

  test('routes follow the nodes pod CIDRs and NetworkUnavailable is set False', async () => {
    const routes = cluster.cloud.routes();
    // A stale route of this cluster and one of another cluster.
    await routes.createRoute('orch', 'old-uid', { targetNode: 'old', destinationCIDR: '10.244.7.0/24' });
    await routes.createRoute('other', 'x', { targetNode: 'old', destinationCIDR: '10.244.8.0/24' });
    const created = await cluster.nodes.create({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1' },
      spec: { podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'] },
      status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'ready' }] },
    } as Node);
    await cluster.nodes.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'no-cidr' } } as Node);

    const listed = await eventually(async () => {
      const r = await routes.listRoutes('orch');
      return r.length === 1 && r[0]?.targetNode === 'n1' && r;
    }, 'the route table');
    expect(listed).toEqual([
      {
        name: `orch-${created.metadata?.uid}-10-244-1-0-24`,
        targetNode: 'n1',
        destinationCIDR: '10.244.1.0/24',
      },
    ]);
    expect(await routes.listRoutes('other')).toHaveLength(1);

    const node = await eventually(async () => {
      const n = await cluster.nodes.get('n1');
      return nodeCondition(n, 'NetworkUnavailable') && n;
    }, 'the condition');
    expect(nodeCondition(node, 'NetworkUnavailable')).toMatchObject({
      status: 'False',
      reason: 'RouteCreated',
      message: 'RouteController created a route',
    });
    // The other conditions are kept.
    expect(nodeCondition(node, 'Ready')?.status).toBe('True');
    expect(nodeCondition(await cluster.nodes.get('no-cidr'), 'NetworkUnavailable')).toBeUndefined();

    // A deleted node's route goes.
    await cluster.nodes.delete('n1');
    await eventually(async () => (await routes.listRoutes('orch')).length === 0, 'the route to go');
  });
});
