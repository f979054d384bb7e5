import { writeFileSync } from 'node:fs';
import type { Node } from '@orch/api';
import { eventually } from '@orch/apiserver';
import { startCloudTestCluster, type CloudTestCluster } from '../../testing/startCloudTestCluster';
import { UNINITIALIZED_TAINT_KEY } from '../nodeUtil';

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
