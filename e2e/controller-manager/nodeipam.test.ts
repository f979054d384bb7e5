import { NodeKind, type Node } from '@orch/api';
import { eventually, startTestAPIServer, type TestAPIServer } from '@orch/apiserver';
import {
  clientFor,
  loadKubeconfigFile,
  restConfigFromKubeconfig,
  RestClient,
  type TypedClient,
} from '@orch/client';
import { kubectlOK } from '../harness/kubectl';
import { runInProcessManager, type InProcessManager } from './inProcessManager';

jest.setTimeout(120_000);

describe('nodeipam with the range allocator', () => {
  let api: TestAPIServer;
  let rest: RestClient;
  let nodes: TypedClient<Node>;
  const daemons: InProcessManager[] = [];

  function run(argv: string[]): InProcessManager {
    const daemon = runInProcessManager([`--kubeconfig=${api.kubeconfig}`, '--controllers=nodeipam', ...argv]);
    daemons.push(daemon);
    return daemon;
  }

  async function stopAll(): Promise<void> {
    for (const d of daemons.splice(0)) await d.stop();
  }

  const node = (name: string, podCIDR?: string): Node =>
    ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name },
      spec: podCIDR ? { podCIDR, podCIDRs: [podCIDR] } : {},
    }) as Node;

  function cidrOf(name: string, timeoutMs = 20_000): Promise<string[]> {
    return eventually(
      async () => {
        const n = await nodes.get(name);
        return n.spec?.podCIDRs?.length ? n.spec.podCIDRs : undefined;
      },
      `${name} to get a pod CIDR`,
      timeoutMs,
    );
  }

  beforeEach(async () => {
    api = await startTestAPIServer({ admissionPlugins: [] });
    rest = new RestClient(restConfigFromKubeconfig(loadKubeconfigFile(api.kubeconfig)).config);
    nodes = clientFor(rest, NodeKind);
  });
  afterEach(async () => {
    await stopAll();
    rest?.close();
    await api?.close();
  });

  test('nodes get distinct CIDRs; the taken one is skipped; exhaustion is an event; a deleted node frees its CIDR', async () => {
    // taken before the controller starts
    await nodes.create(node('node-a', '10.100.1.0/24'));
    run(['--allocate-node-cidrs', '--cluster-cidr=10.100.0.0/22', '--node-cidr-mask-size=24']);
    await nodes.create(node('node-b'));
    await nodes.create(node('node-c'));
    await nodes.create(node('node-d'));
    const given = [await cidrOf('node-b'), await cidrOf('node-c'), await cidrOf('node-d')];
    for (const cidrs of given) expect(cidrs).toHaveLength(1);
    expect(given.flat().sort()).toEqual(['10.100.0.0/24', '10.100.2.0/24', '10.100.3.0/24']);
    const b = await nodes.get('node-b');
    expect(b.spec?.podCIDR).toBe(b.spec?.podCIDRs?.[0]);

    await nodes.create(node('node-e'));
    const events = await eventually(async () => {
      const out = await kubectlOK(api.kubeconfig, [
        'get',
        'events',
        '-A',
        '--field-selector',
        'involvedObject.name=node-e,reason=CIDRNotAvailable',
        '-o',
        'json',
      ]);
      const items = (
        JSON.parse(out) as { items: { type: string; message: string; involvedObject: { kind: string } }[] }
      ).items;
      return items.length ? items : undefined;
    }, 'a CIDRNotAvailable event for node-e');
    expect(events[0]).toMatchObject({
      type: 'Normal',
      message: 'Node node-e status is now: CIDRNotAvailable',
      involvedObject: { kind: 'Node' },
    });
    expect((await nodes.get('node-e')).spec?.podCIDRs ?? []).toEqual([]);

    // node-c's CIDR is free again, and node-e, retried with backoff, gets it
    const freed = (await nodes.get('node-c')).spec!.podCIDRs![0]!;
    await nodes.delete('node-c');
    expect(await cidrOf('node-e', 60_000)).toEqual([freed]);
  });

  test('the service range is not handed out where it overlaps the cluster CIDR', async () => {
    run([
      '--allocate-node-cidrs',
      '--cluster-cidr=10.200.0.0/22',
      '--service-cluster-ip-range=10.200.0.0/23',
      '--node-cidr-mask-size=24',
    ]);
    await nodes.create(node('node-a'));
    await nodes.create(node('node-b'));
    const given = [await cidrOf('node-a'), await cidrOf('node-b')].flat().sort();
    expect(given).toEqual(['10.200.2.0/24', '10.200.3.0/24']);
  });

  test('without --allocate-node-cidrs nothing is allocated, and the log says why', async () => {
    const daemon = run(['--cluster-cidr=10.100.0.0/16']);
    await eventually(() => daemon.out.join('').includes('--allocate-node-cidrs is false'), 'the notice');
    await nodes.create(node('node-a'));
    await new Promise((r) => setTimeout(r, 1000));
    expect((await nodes.get('node-a')).spec?.podCIDRs ?? []).toEqual([]);
  });

  test('a configuration the allocator cannot use fails the start, with Kubernetes’ message', async () => {
    for (const [argv, message] of [
      [
        ['--cidr-allocator-type=CloudAllocator', '--cluster-cidr=10.0.0.0/16'],
        "--cidr-allocator-type is set to 'CloudAllocator' but cloud provider is not configured",
      ],
      [
        ['--cidr-allocator-type=Other', '--cluster-cidr=10.0.0.0/16'],
        '--cidr-allocator-type: invalid CIDR allocator type: Other',
      ],
      [[], 'Controller: Must specify --cluster-cidr if --allocate-node-cidrs is set'],
      [
        ['--cluster-cidr=10.0.0.0/26'],
        '--node-cidr-mask-size 24 must not be smaller than the --cluster-cidr 10.0.0.0/26 prefix length',
      ],
    ] as const) {
      const daemon = run(['--allocate-node-cidrs', ...argv]);
      expect(await daemon.done).toBe(1);
      expect(daemon.out.join('')).toContain(message);
    }
  });
});
