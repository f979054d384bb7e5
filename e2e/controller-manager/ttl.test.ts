import { NodeKind, type Node } from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor } from '@orch/client';
import { startCluster, type Cluster } from './harness';

jest.setTimeout(60_000);

const TTL = 'node.alpha.kubernetes.io/ttl';

describe('ttl', () => {
  let cluster: Cluster;
  const nodes = () => clientFor(cluster.rest, NodeKind);
  const ttlOf = async (name: string) => (await nodes().get(name)).metadata?.annotations?.[TTL];

  beforeAll(async () => {
    cluster = await startCluster({ controllers: ['ttl'] });
  });
  afterAll(async () => {
    await cluster?.close();
  });

  test('every node of a small cluster is annotated with a TTL of 0, and a changed value is put back', async () => {
    for (const name of ['node-a', 'node-b', 'node-c'])
      await nodes().create({ metadata: { name, labels: { team: 'a' } } } as Node);
    for (const name of ['node-a', 'node-b', 'node-c'])
      await eventually(async () => (await ttlOf(name)) === '0', `${name} to carry ttl 0`);
    expect(
      await cluster.kubectl(
        'get',
        'node',
        'node-a',
        '-o',
        `jsonpath={.metadata.annotations.node\\.alpha\\.kubernetes\\.io/ttl}`,
      ),
    ).toBe('0');
    // the rest of the node is left alone
    expect((await nodes().get('node-b')).metadata?.labels).toEqual({ team: 'a' });

    await cluster.kubectl('annotate', 'node', 'node-b', '--overwrite', `${TTL}=15`);
    await eventually(async () => (await ttlOf('node-b')) === '0', 'node-b back to 0');
    await cluster.kubectl('annotate', 'node', 'node-c', '--overwrite', `${TTL}=soon`);
    await eventually(async () => (await ttlOf('node-c')) === '0', 'node-c back to 0');
  });

  test('a node already carrying the right value is not written', async () => {
    await nodes().create({ metadata: { name: 'node-d', annotations: { [TTL]: '0' } } } as Node);
    const created = await nodes().get('node-d');
    await new Promise((r) => setTimeout(r, 1000));
    expect((await nodes().get('node-d')).metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
  });
});
