import { writeFileSync } from 'node:fs';
import type { Node } from '@orch/api';
import { eventually } from '@orch/apiserver';
import { isNotFound } from '@orch/client';
import { startCloudTestCluster, type CloudTestCluster } from '../../testing/startCloudTestCluster';
import { SHUTDOWN_TAINT_KEY } from '../nodeUtil';

let cluster: CloudTestCluster;
const inventory = (...entries: string[]): string =>
  ['unlistedInstances: absent', 'instances:', ...entries.map((e) => `  - ${e}`), ''].join('\n');

beforeAll(async () => {
  cluster = await startCloudTestCluster(
    ['cloud-node-lifecycle'],
    inventory('{name: ready}', '{name: down, state: shutdown}', '{name: gone}'),
  );
});
afterAll(() => cluster?.close());

const readyStatus = (status: string): Node['status'] => ({
  conditions: [{ type: 'Ready', status, reason: 'KubeletReady', message: '' }],
});

async function createNode(name: string, ready: string): Promise<void> {
  await cluster.nodes.create({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name },
    status: readyStatus(ready),
  } as Node);
}

const taintKeys = async (name: string): Promise<string[]> =>
  ((await cluster.nodes.get(name)).spec?.taints ?? []).map((t) => t.key ?? '');

test('a not-ready node whose instance is shut down is tainted, and untainted once ready', async () => {
  await createNode('down', 'Unknown');
  await eventually(async () => (await taintKeys('down')).includes(SHUTDOWN_TAINT_KEY), 'the shutdown taint');
  const taint = (await cluster.nodes.get('down')).spec?.taints?.[0];
  expect(taint).toMatchObject({ key: SHUTDOWN_TAINT_KEY, effect: 'NoSchedule' });
  expect(taint?.timeAdded).toBeTruthy();
  // Still there on the next rounds, and the node is not deleted.
  await new Promise((r) => setTimeout(r, 300));
  expect(await taintKeys('down')).toEqual([SHUTDOWN_TAINT_KEY]);

  await cluster.nodes.patch('down', 'merge', { status: readyStatus('True') }, { subresource: 'status' });
  await eventually(async () => (await taintKeys('down')).length === 0, 'the taint to go');
});

test('a not-ready node whose instance no longer exists is deleted, with an event; a ready one is kept', async () => {
  await createNode('gone', 'False');
  await createNode('ready', 'True');
  await new Promise((r) => setTimeout(r, 300));
  expect((await cluster.nodes.get('gone')).metadata?.name).toBe('gone');

  writeFileSync(cluster.configFile, inventory('{name: down, state: shutdown}'));
  await eventually(
    async () =>
      cluster.nodes.get('gone').then(
        () => false,
        (err) => isNotFound(err),
      ),
    'the node to be deleted',
  );
  expect(cluster.recorder.events).toContainEqual({
    name: 'gone',
    type: 'Normal',
    reason: 'DeletingNode',
    message: 'Deleting node gone because it does not exist in the cloud provider',
  });
  // Its instance is gone too, but a Ready node is never deleted.
  await new Promise((r) => setTimeout(r, 300));
  expect((await cluster.nodes.get('ready')).metadata?.name).toBe('ready');
});
