import { writeFileSync } from 'node:fs';
import { PROVIDED_NODE_IP_ANNOTATION, type Node } from '@orch/api';
import { eventually } from '@orch/apiserver';
import { startCloudTestCluster, type CloudTestCluster } from '../../testing/startCloudTestCluster';
import { UNINITIALIZED_TAINT_KEY } from '../nodeUtil';
import { preferNodeIP } from './CloudNodeController';

let cluster: CloudTestCluster;
const inventory = (address: string): string =>
  [
    'zone: zone-a',
    'region: region-1',
    'instances:',
    `  - {name: n1, instanceType: local.large, addresses: [{type: InternalIP, address: ${address}}]}`,
    '',
  ].join('\n');

beforeAll(async () => {
  cluster = await startCloudTestCluster(['cloud-node'], inventory('127.0.0.1'));
});
afterAll(() => cluster?.close());

function newNode(name: string, tainted: boolean): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    spec: tainted
      ? {
          taints: [
            { key: UNINITIALIZED_TAINT_KEY, value: 'true', effect: 'NoSchedule' },
            { key: 'keep', effect: 'NoExecute' },
          ],
        }
      : {},
  } as Node;
}

test('a node with the uninitialized taint gets provider ID, addresses, labels, and loses the taint', async () => {
  await cluster.nodes.create({
    ...newNode('n1', true),
    status: { addresses: [{ type: 'Hostname', address: 'n1' }] },
  });
  const node = await eventually(async () => {
    const n = await cluster.nodes.get('n1');
    return !n.spec?.taints?.some((t) => t.key === UNINITIALIZED_TAINT_KEY) && n;
  }, 'the taint to go');
  expect(node.spec?.providerID).toBe('local://n1');
  expect(node.spec?.taints).toEqual([{ key: 'keep', effect: 'NoExecute' }]);
  expect(node.metadata?.labels).toEqual({
    'kubernetes.io/hostname': 'n1',
    'node.kubernetes.io/instance-type': 'local.large',
    'beta.kubernetes.io/instance-type': 'local.large',
    'topology.kubernetes.io/zone': 'zone-a',
    'failure-domain.beta.kubernetes.io/zone': 'zone-a',
    'topology.kubernetes.io/region': 'region-1',
    'failure-domain.beta.kubernetes.io/region': 'region-1',
  });
  // The cloud's address, and the node's own Hostname address kept.
  expect(node.status?.addresses).toEqual([
    { type: 'InternalIP', address: '127.0.0.1' },
    { type: 'Hostname', address: 'n1' },
  ]);
});

test('an initialized node gets its addresses refreshed and beta labels reconciled periodically', async () => {
  const plain = newNode('plain', false);
  plain.metadata!.labels!['topology.kubernetes.io/zone'] = 'zone-x';
  await cluster.nodes.create(plain);
  const node = await eventually(async () => {
    const n = await cluster.nodes.get('plain');
    return n.metadata?.labels?.['failure-domain.beta.kubernetes.io/zone'] === 'zone-x' && n;
  }, 'the beta zone label');
  // Not initialized by the controller: no provider ID, no labels from the cloud.
  expect(node.spec?.providerID).toBeUndefined();
  expect(node.metadata?.labels?.['node.kubernetes.io/instance-type']).toBeUndefined();
  // An unlisted node without addresses runs on this machine.
  expect(node.status?.addresses).toEqual([
    { type: 'InternalIP', address: '127.0.0.1' },
    { type: 'Hostname', address: 'plain' },
  ]);

  writeFileSync(cluster.configFile, inventory('127.0.0.9'));
  await eventually(async () => {
    const n = await cluster.nodes.get('n1');
    return n.status?.addresses?.[0]?.address === '127.0.0.9';
  }, 'the new address');
});

test('preferNodeIP keeps the provided node IP as the only address of its type, first', () => {
  const node = (ip?: string): Node =>
    ({ metadata: { name: 'n', annotations: ip ? { [PROVIDED_NODE_IP_ANNOTATION]: ip } : {} } }) as Node;
  const cloud = [
    { type: 'InternalIP', address: '10.0.0.1' },
    { type: 'ExternalIP', address: '203.0.113.7' },
    { type: 'InternalIP', address: '10.0.0.2' },
    { type: 'Hostname', address: 'n' },
  ];
  expect(preferNodeIP(node(), cloud)).toEqual(cloud);
  expect(preferNodeIP(node('10.0.0.2'), cloud)).toEqual([
    { type: 'InternalIP', address: '10.0.0.2' },
    { type: 'ExternalIP', address: '203.0.113.7' },
    { type: 'Hostname', address: 'n' },
  ]);
  expect(() => preferNodeIP(node('10.0.0.9'), cloud)).toThrow(
    'failed to get node address from cloud provider that matches ip: 10.0.0.9',
  );
});

test("a node agent's --node-ip (provided-node-ip) replaces stale addresses of an unlisted node", async () => {
  const stale = newNode('moved', false);
  stale.metadata!.annotations = { [PROVIDED_NODE_IP_ANNOTATION]: '127.0.0.5' };
  await cluster.nodes.create({
    ...stale,
    status: {
      addresses: [
        { type: 'InternalIP', address: '192.0.2.2' },
        { type: 'Hostname', address: 'elsewhere' },
      ],
    },
  });
  const node = await eventually(async () => {
    const n = await cluster.nodes.get('moved');
    return n.status?.addresses?.[0]?.address === '127.0.0.5' && n;
  }, 'the provided node IP');
  expect(node.status?.addresses).toEqual([
    { type: 'InternalIP', address: '127.0.0.5' },
    { type: 'Hostname', address: 'moved' },
  ]);
});

test('a node whose provided IP the cloud does not report stays uninitialized', async () => {
  const listed = newNode('n1', true);
  await cluster.nodes.delete('n1');
  await eventually(
    async () => !(await cluster.nodes.list()).items.some((n) => n.metadata?.name === 'n1'),
    'n1 gone',
  );
  listed.metadata!.annotations = { [PROVIDED_NODE_IP_ANNOTATION]: '127.0.0.77' };
  await cluster.nodes.create(listed);
  // the cloud lists n1 at 127.0.0.9 only: several syncs later it is still tainted, its addresses unset
  await new Promise((r) => setTimeout(r, 1_500));
  const node = await cluster.nodes.get('n1');
  expect(node.spec?.taints?.some((t) => t.key === UNINITIALIZED_TAINT_KEY)).toBe(true);
  expect(node.status?.addresses ?? []).toEqual([]);
  expect(node.spec?.providerID).toBeUndefined();
});

test('the periodic sync runs first at start, as wait.Until does; a changed provided-node-ip syncs at once', async () => {
  const node = newNode('restarted', false);
  node.metadata!.annotations = { [PROVIDED_NODE_IP_ANNOTATION]: '127.0.0.5' };
  // hourly periodic syncs: only the first round, when the cache has synced, writes the addresses
  const slow = await startCloudTestCluster(
    ['cloud-node'],
    '',
    { nodeStatusUpdateFrequencyMs: 3_600_000 },
    undefined,
    async (nodes) => void (await nodes.create(node)),
  );
  try {
    const address = async () => (await slow.nodes.get('restarted')).status?.addresses?.[0]?.address;
    await eventually(async () => (await address()) === '127.0.0.5', 'the addresses of the first round');
    const current = await slow.nodes.get('restarted');
    current.metadata!.annotations = { [PROVIDED_NODE_IP_ANNOTATION]: '127.0.0.6' };
    await slow.nodes.update(current);
    await eventually(async () => (await address()) === '127.0.0.6', 'the addresses of the new node IP');
  } finally {
    await slow.close();
  }
});
