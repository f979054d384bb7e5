import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { Server } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { NodeKind, ServiceKind, type Node, type Service } from '@orch/api';
import {
  daemonBin,
  eventually,
  freePort,
  startAPIServerProcess,
  startDaemon,
  startNodePortEchoServer,
  tcpExchange,
  type APIServerProcess,
  type DaemonProcess,
} from '@orch/apiserver';
import { loopbackDaemonArgs } from '@orch/component-base';
import {
  AnnotationLock,
  clientFor,
  isNotFound,
  loadKubeconfigFile,
  restConfigFromKubeconfig,
  RestClient,
  type TypedClient,
} from '@orch/client';
import { kubectlOK } from '../harness/kubectl';

jest.setTimeout(60_000);

const run = promisify(execFile);
const BIN = daemonBin('cloud-controller-manager', 'orch-cloud-controller-manager');
const UNINITIALIZED = 'node.cloudprovider.kubernetes.io/uninitialized';

/** Runs the binary to completion; resolves with its exit code and output. */
async function ccm(args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { timeout: 20_000 });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/** Polls an endpoint of the daemon (its certificate is self-signed) until it answers 200. */
async function waitHealthy(url: string, daemon: DaemonProcess): Promise<void> {
  await eventually(async () => {
    if (daemon.child.exitCode !== null) throw new Error(`exited: ${readFileSync(daemon.log, 'utf8')}`);
    return new Promise<boolean>((resolve) => {
      https
        .get(url, { rejectUnauthorized: false, timeout: 1000 }, (res) => {
          res.resume();
          resolve(res.statusCode === 200);
        })
        .on('error', () => resolve(false));
    });
  }, url);
}

describe('orch-cloud-controller-manager flags', () => {
  test('--help lists the flags of doc 3 with their defaults', async () => {
    const { code, out } = await ccm(['--help']);
    expect(code).toBe(0);
    for (const flag of [
      'allocate-node-cidrs',
      'cidr-allocator-type',
      'cloud-config',
      'cloud-provider',
      'cluster-cidr',
      'cluster-name',
      'concurrent-service-syncs',
      'configure-cloud-routes',
      'controller-start-interval',
      'controllers',
      'external-cloud-volume-plugin',
      'min-resync-period',
      'node-monitor-period',
      'route-reconciliation-period',
      'use-service-account-credentials',
      'cloud-provider-x-lb-src-cidrs',
      'node-status-update-frequency',
      'leader-elect-resource-name',
    ])
      expect(out).toContain(`--${flag} `);
    expect(out).toMatch(/--node-status-update-frequency duration\s+.*\(default 5m0s\)/);
    expect(out).toContain('(default 130.211.0.0/22,209.85.152.0/22,209.85.204.0/22,35.191.0.0/16)');
    expect(out).toMatch(/--secure-port int\s+.*\(default 10258\)/);
    expect(out).toMatch(/--leader-elect-resource-name string\s+.*\(default "cloud-controller-manager"\)/);
    expect(out).toContain("orch's built-in provider is 'local'");
    expect(out).toContain('All controllers: cloud-node, cloud-node-lifecycle, route, service');
  });

  test('bad values, unknown controllers and a missing provider are errors naming the flag; --version', async () => {
    const [duration, cidrs, controllers, empty, unknown, version] = await Promise.all([
      ccm(['--cloud-provider=local', '--node-status-update-frequency=soon']),
      ccm(['--cloud-provider=local', '--cloud-provider-x-lb-src-cidrs=1.2.3.4']),
      ccm(['--cloud-provider=local', '--controllers=*,-route,nosuch']),
      ccm(['--secure-port=0']),
      ccm(['--cloud-provider=aws']),
      ccm(['--version']),
    ]);
    expect(duration.code).not.toBe(0);
    expect(duration.out).toContain('--node-status-update-frequency');
    expect(cidrs.code).not.toBe(0);
    expect(cidrs.out).toContain('--cloud-provider-x-lb-src-cidrs');
    expect(controllers.code).toBe(1);
    expect(controllers.out).toContain('--controllers: "nosuch" is not in the list of known controllers');
    expect(empty.code).toBe(1);
    expect(empty.out).toContain('--cloud-provider cannot be empty');
    expect(unknown.out).toContain('--cloud-provider: unknown cloud provider "aws"');
    expect(version).toEqual({ code: 0, out: expect.stringMatching(/^orch v1\.29/) });
  });
});

describe('orch-cloud-controller-manager against orch-apiserver', () => {
  let api: APIServerProcess;
  let daemon: DaemonProcess;
  let agent: DaemonProcess | undefined;
  let rest: RestClient;
  let nodes: TypedClient<Node>;
  let services: TypedClient<Service>;
  let configFile: string;
  let port: number;
  const backends: Server[] = [];
  const inventory = (...extra: string[]): string =>
    [
      'unlistedInstances: absent',
      'loadBalancerPool: 127.0.2.0/24',
      'zone: zone-a',
      'region: region-1',
      'instances:',
      '  - {name: orch-node-0, instanceType: local.medium, addresses: [{type: InternalIP, address: 127.0.0.1}]}',
      ...extra,
      '',
    ].join('\n');

  beforeAll(async () => {
    api = await startAPIServerProcess();
    configFile = join(api.dataDir, 'cloud.yaml');
    writeFileSync(configFile, inventory('  - {name: doomed}'));
    const kubeconfig = api.pki.kubeconfigs['cloud-controller-manager']!;
    port = await freePort();
    daemon = startDaemon(
      'orch-cloud-controller-manager',
      BIN,
      [
        ...loopbackDaemonArgs(kubeconfig, port, join(api.dataDir, 'pki', 'ccm')),
        `--client-ca-file=${api.pki.files.caCert}`,
        '--cloud-provider=local',
        `--cloud-config=${configFile}`,
        // every test below runs the controllers as their own service accounts, under their roles
        '--use-service-account-credentials',
        '--allocate-node-cidrs=true',
        '--cluster-cidr=10.244.0.0/16',
        '--route-reconciliation-period=300ms',
        '--node-monitor-period=300ms',
        '--leader-elect-retry-period=300ms',
      ],
      join(api.dataDir, 'logs'),
    );
    await waitHealthy(`https://127.0.0.1:${port}/healthz`, daemon);
    rest = new RestClient(restConfigFromKubeconfig(loadKubeconfigFile(api.kubeconfig)).config);
    nodes = clientFor(rest, NodeKind);
    services = clientFor(rest, ServiceKind);
  }, 60_000);

  afterAll(async () => {
    await agent?.stop();
    await daemon?.stop();
    for (const b of backends) b.close();
    rest?.close();
    await api?.destroy();
  });

  test('it leads through the endpoints lock orch-system/cloud-controller-manager and serves its endpoints', async () => {
    // Read as a stock client reads it: the record in the Endpoints' leader annotation.
    const lock = new AnnotationLock(rest, 'endpoints', {
      namespace: 'orch-system',
      name: 'cloud-controller-manager',
      identity: '',
    });
    const { record } = await eventually(() => lock.get(), 'the lock');
    expect(record.holderIdentity).toBeTruthy();
    // /metrics needs an authenticated, authorized user: the admin's client certificate (system:masters).
    const get = (path: string, cert?: { cert: string; key: string }): Promise<number> =>
      new Promise((resolve, reject) => {
        https
          .get(
            `https://127.0.0.1:${port}${path}`,
            { rejectUnauthorized: false, agent: false, ...cert },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          )
          .on('error', reject);
      });
    expect(await get('/metrics')).toBe(401);
    expect(await get('/metrics', api.pki.admin)).toBe(200);
    expect(await get('/readyz')).toBe(200);
    expect(await get('/livez')).toBe(200);
  });

  test('a node registered by the node agent with --cloud-provider=external is initialized', async () => {
    agent = startDaemon(
      'orch-node-agent',
      daemonBin('node-agent', 'orch-node-agent'),
      [`--kubeconfig=${api.pki.kubeconfigs['node-agent']}`, '--nodes=1', '--cloud-provider=external'],
      join(api.dataDir, 'logs'),
    );
    const node = await eventually(async () => {
      const n = await nodes.get('orch-node-0');
      const initialized = !!n.spec?.providerID && !(n.spec.taints ?? []).some((t) => t.key === UNINITIALIZED);
      return initialized && n;
    }, 'the node to be initialized');
    expect(node.spec?.providerID).toBe('local://orch-node-0');
    expect(node.metadata?.labels).toMatchObject({
      'node.kubernetes.io/instance-type': 'local.medium',
      'topology.kubernetes.io/zone': 'zone-a',
      'topology.kubernetes.io/region': 'region-1',
      'failure-domain.beta.kubernetes.io/zone': 'zone-a',
      'failure-domain.beta.kubernetes.io/region': 'region-1',
    });
    expect(node.status?.addresses).toContainEqual({ type: 'InternalIP', address: '127.0.0.1' });
    // Stock kubectl sees the same.
    const providerID = await kubectlOK(api.kubeconfig, [
      'get',
      'node',
      'orch-node-0',
      '-o',
      'jsonpath={.spec.providerID}',
    ]);
    expect(providerID).toBe('local://orch-node-0');
  });

  test('the node pod CIDR gets a route and NetworkUnavailable=False', async () => {
    const routesFile = join(api.dataDir, 'local-cloud-routes.json');
    const routes = await eventually(async () => {
      if (!existsSync(routesFile)) return undefined;
      const r = JSON.parse(readFileSync(routesFile, 'utf8')) as {
        targetNode: string;
        destinationCIDR: string;
        name: string;
      }[];
      return r.length > 0 && r;
    }, 'the route');
    expect(routes).toEqual([
      expect.objectContaining({ targetNode: 'orch-node-0', destinationCIDR: '10.244.0.0/24' }),
    ]);
    expect(routes[0]?.name.startsWith('orch-')).toBe(true);
    const condition = await eventually(async () => {
      const n = await nodes.get('orch-node-0');
      return n.status?.conditions?.find((c) => c.type === 'NetworkUnavailable');
    }, 'the condition');
    expect(condition).toMatchObject({
      status: 'False',
      reason: 'RouteCreated',
      message: 'RouteController created a route',
    });
  });

  test('a LoadBalancer service gets an ingress IP whose listener reaches the node port; deletion closes it', async () => {
    // the node's listener, on a node port this machine has free, held before the service names it
    const backend = await startNodePortEchoServer('node');
    backends.push(backend.server);
    await services.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        type: 'LoadBalancer',
        selector: { app: 'web' },
        ports: [{ port: 18090, targetPort: 8080, nodePort: backend.port }],
      },
    } as Service);

    const ip = await eventually(
      async () =>
        (await services.get('web', { namespace: 'default' })).status?.loadBalancer?.ingress?.[0]?.ip,
      'the ingress IP',
    );
    expect(ip).toMatch(/^127\.0\.2\.\d+$/);
    expect((await services.get('web', { namespace: 'default' })).metadata?.finalizers).toEqual([
      'service.kubernetes.io/load-balancer-cleanup',
    ]);
    expect(
      await kubectlOK(api.kubeconfig, [
        'get',
        'svc',
        'web',
        '-o',
        'jsonpath={.status.loadBalancer.ingress[0].ip}',
      ]),
    ).toBe(ip);
    await eventually(
      async () => (await tcpExchange(ip, 18090, 'hello')) === 'node:hello',
      'a proxied connection',
    );

    const events = await eventually(async () => {
      const out = await kubectlOK(api.kubeconfig, [
        'get',
        'events',
        '--field-selector',
        'involvedObject.name=web',
        '-o',
        'jsonpath={.items[*].reason}',
      ]);
      return out.includes('EnsuredLoadBalancer') && out;
    }, 'the events');
    expect(events).toContain('EnsuringLoadBalancer');

    await services.delete('web', { namespace: 'default' });
    await eventually(
      async () =>
        services.get('web', { namespace: 'default' }).then(
          () => false,
          (err) => isNotFound(err),
        ),
      'the service to be gone',
    );
    await expect(tcpExchange(ip, 18090, 'x')).rejects.toThrow(/ECONNREFUSED/);
  });

  test('a not-ready node whose instance leaves the inventory is deleted', async () => {
    await nodes.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'doomed' } } as Node);
    await new Promise((r) => setTimeout(r, 1000));
    expect((await nodes.get('doomed')).metadata?.name).toBe('doomed');
    writeFileSync(configFile, inventory());
    await eventually(
      async () =>
        nodes.get('doomed').then(
          () => false,
          (err) => isNotFound(err),
        ),
      'the node to be deleted',
    );
    // The agent's node is Ready and listed: kept.
    expect((await nodes.get('orch-node-0')).metadata?.name).toBe('orch-node-0');
  });

  test('the controllers acted as the service accounts Kubernetes names them, refused nothing', async () => {
    const accounts = await kubectlOK(api.kubeconfig, [
      'get',
      'serviceaccounts',
      '-n',
      'orch-system',
      '-o',
      'jsonpath={.items[*].metadata.name}',
    ]);
    expect(accounts.split(' ')).toEqual(
      expect.arrayContaining(['node-controller', 'route-controller', 'service-controller']),
    );
    expect(accounts).not.toContain('cloud-node');
    expect(readFileSync(daemon.log, 'utf8')).not.toMatch(/forbidden/i);
  });
});
