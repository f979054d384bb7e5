import { createServer, type Server } from 'node:net';
import type { Node, Service } from '@orch/api';
import { eventually, startNodePortEchoServer, tcpExchange } from '@orch/apiserver';
import { isNotFound } from '@orch/client';
import { newFeatureGates } from '@orch/component-base';
import { startCloudTestCluster, type CloudTestCluster } from '../../testing/startCloudTestCluster';
import {
  ALPHA_EXCLUDE_LB_LABEL,
  EXCLUDE_LB_LABEL,
  LOAD_BALANCER_CLEANUP_FINALIZER,
  loadBalancerHosts,
  wantsLoadBalancer,
} from './ServiceController';

let cluster: CloudTestCluster;
const backends: Server[] = [];
const POOL_IP = '127.0.3.1';

/** A node whose InternalIP is 127.0.0.1, where the backends listen. */
function addNode(name: string): Promise<Node> {
  return cluster.nodes.create({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name },
    status: { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }] },
  } as Node);
}

beforeAll(async () => {
  cluster = await startCloudTestCluster(['service'], 'loadBalancerPool: 127.0.3.0/24\n');
  await addNode('n1');
});
afterAll(async () => {
  await cluster?.close();
  for (const b of backends) b.close();
});

/**
 * A TCP server on 127.0.0.1 playing the node, on a free port of the node port range, and the service
 * with that node port (a port the apiserver picked could be taken on this machine, for example by a
 * backend of a service deleted before).
 */
async function createWithBackend(service: Service): Promise<void> {
  const backend = await startNodePortEchoServer('backend');
  backends.push(backend.server);
  const [port, ...rest] = service.spec?.ports ?? [];
  await cluster.services.create({
    ...service,
    spec: { ...service.spec, ports: [{ ...port!, nodePort: backend.port }, ...rest] },
  });
}

function lbService(name: string, port: number): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default' },
    spec: { type: 'LoadBalancer', selector: { app: name }, ports: [{ port, targetPort: 80 }] },
  } as Service;
}

const reasons = (name: string): string[] =>
  cluster.recorder.events.filter((e) => e.name === name).map((e) => e.reason);

test('a LoadBalancer service gets the finalizer, a working load balancer and its ingress; deletion cleans up', async () => {
  await createWithBackend(lbService('web', 18080));
  const svc = await eventually(async () => {
    const s = await cluster.services.get('web', { namespace: 'default' });
    return (s.status?.loadBalancer?.ingress?.length ?? 0) > 0 && s;
  }, 'the ingress');
  expect(svc.metadata?.finalizers).toEqual([LOAD_BALANCER_CLEANUP_FINALIZER]);
  const ip = svc.status?.loadBalancer?.ingress?.[0]?.ip ?? '';
  expect(ip).toMatch(/^127\.0\.3\.\d+$/);
  expect(reasons('web')).toEqual(['EnsuringLoadBalancer', 'EnsuredLoadBalancer']);
  expect(await tcpExchange(ip, 18080, 'hello')).toBe('backend:hello');

  await cluster.services.delete('web', { namespace: 'default' });
  await eventually(
    async () =>
      cluster.services.get('web', { namespace: 'default' }).then(
        () => false,
        (err) => isNotFound(err),
      ),
    'the service to be gone',
  );
  expect(reasons('web')).toEqual([
    'EnsuringLoadBalancer',
    'EnsuredLoadBalancer',
    'DeletingLoadBalancer',
    'DeletedLoadBalancer',
  ]);
  await expect(tcpExchange(ip, 18080, 'x')).rejects.toThrow(/ECONNREFUSED/);
});

test('changing the type away from LoadBalancer deletes the load balancer, clears status and the finalizer', async () => {
  await createWithBackend(lbService('flip', 18081));
  const ip = await eventually(async () => {
    const s = await cluster.services.get('flip', { namespace: 'default' });
    return s.status?.loadBalancer?.ingress?.[0]?.ip;
  }, 'the ingress');
  const current = await cluster.services.get('flip', { namespace: 'default' });
  await cluster.services.update({ ...current, spec: { ...current.spec, type: 'NodePort' } } as Service);
  const svc = await eventually(async () => {
    const s = await cluster.services.get('flip', { namespace: 'default' });
    return !(s.metadata?.finalizers ?? []).length && s;
  }, 'the finalizer to go');
  expect(svc.status?.loadBalancer?.ingress).toBeUndefined();
  await expect(tcpExchange(ip, 18081, 'x')).rejects.toThrow(/ECONNREFUSED/);
});

test('a load balancer that cannot be made reports SyncLoadBalancerFailed and is retried', async () => {
  const blocker = createServer();
  // The next free pool address is taken on the port the service wants.
  const ip = POOL_IP;
  await new Promise<void>((resolve) => blocker.listen(18082, ip, resolve));
  try {
    await createWithBackend(lbService('busy', 18082));
    await eventually(() => reasons('busy').includes('SyncLoadBalancerFailed'), 'the failure event');
    const failure = cluster.recorder.events.find(
      (e) => e.name === 'busy' && e.reason === 'SyncLoadBalancerFailed',
    );
    expect(failure?.type).toBe('Warning');
    expect(failure?.message).toContain(
      `Error syncing load balancer: failed to ensure load balancer: listening on ${ip}:18082`,
    );
  } finally {
    await new Promise((r) => blocker.close(r));
  }
  // Retried with backoff until the port is free.
  await eventually(async () => {
    const s = await cluster.services.get('busy', { namespace: 'default' });
    return s.status?.loadBalancer?.ingress?.[0]?.ip === ip;
  }, 'the retried load balancer');
});

test('node changes re-point load balancers at the new hosts', async () => {
  await createWithBackend(lbService('hosts', 18083));
  await eventually(async () => {
    const s = await cluster.services.get('hosts', { namespace: 'default' });
    return s.status?.loadBalancer?.ingress?.[0]?.ip;
  }, 'the ingress');
  await addNode('n2');
  await eventually(() => reasons('hosts').includes('UpdatedLoadBalancer'), 'the update event');
  expect(
    cluster.recorder.events.find((e) => e.name === 'hosts' && e.reason === 'UpdatedLoadBalancer')?.message,
  ).toBe('Updated load balancer with new hosts');
});

test("only LoadBalancer services without a loadBalancerClass are this controller's", () => {
  expect(wantsLoadBalancer({ spec: { type: 'LoadBalancer' } } as Service)).toBe(true);
  expect(wantsLoadBalancer({ spec: { type: 'NodePort' } } as Service)).toBe(false);
  expect(
    wantsLoadBalancer({ spec: { type: 'LoadBalancer', loadBalancerClass: 'example.com/lb' } } as Service),
  ).toBe(false);
});

describe('load balancer hosts', () => {
  const nodes = [
    { metadata: { name: 'b' } },
    { metadata: { name: 'a' } },
    { metadata: { name: 'excluded', labels: { [EXCLUDE_LB_LABEL]: '' } } },
    { metadata: { name: 'excluded-alpha', labels: { [ALPHA_EXCLUDE_LB_LABEL]: 'true' } } },
    { metadata: { name: 'leaving', deletionTimestamp: '2026-01-01T00:00:00Z' } },
    { metadata: { name: 'master', labels: { 'node-role.kubernetes.io/master': '' } } },
  ] as Node[];
  const names = (serviceNodeExclusion: boolean, legacyNodeRoleBehavior: boolean) =>
    loadBalancerHosts(nodes, { serviceNodeExclusion, legacyNodeRoleBehavior }).map((n) => n.metadata?.name);

  test('leave out deleted nodes and, with ServiceNodeExclusion on, excluded ones', () => {
    expect(names(true, false)).toEqual(['a', 'b', 'master']);
  });

  test('keep labelled nodes with ServiceNodeExclusion off', () => {
    expect(names(false, false)).toEqual(['a', 'b', 'excluded', 'excluded-alpha', 'master']);
  });

  test('leave out nodes labelled as masters with LegacyNodeRoleBehavior on (its default)', () => {
    expect(names(false, true)).toEqual(['a', 'b', 'excluded', 'excluded-alpha']);
    expect(names(true, true)).toEqual(['a', 'b']);
  });
});

describe('with ServiceLoadBalancerFinalizer off', () => {
  let plain: CloudTestCluster;
  beforeAll(async () => {
    plain = await startCloudTestCluster(
      ['service'],
      'loadBalancerPool: 127.0.4.0/24\n',
      {},
      newFeatureGates({ ServiceLoadBalancerFinalizer: false }),
    );
    await plain.nodes.create({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1' },
      status: { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }] },
    } as Node);
  });
  afterAll(async () => {
    await plain?.close();
  });

  test('a LoadBalancer service gets its load balancer without the finalizer; deletion still cleans up', async () => {
    const backend = await startNodePortEchoServer('plain');
    backends.push(backend.server);
    const svc = lbService('plain', 18090);
    await plain.services.create({
      ...svc,
      spec: { ...svc.spec, ports: [{ ...svc.spec!.ports![0]!, nodePort: backend.port }] },
    });
    const ip = await eventually(async () => {
      const s = await plain.services.get('plain', { namespace: 'default' });
      return s.status?.loadBalancer?.ingress?.[0]?.ip;
    }, 'the ingress');
    const created = await plain.services.get('plain', { namespace: 'default' });
    expect(created.metadata?.finalizers ?? []).toEqual([]);
    expect(await tcpExchange(ip, 18090, 'hi')).toBe('plain:hi');

    await plain.services.delete('plain', { namespace: 'default' });
    await eventually(
      () =>
        tcpExchange(ip, 18090, 'x').then(
          () => false,
          (err: Error) => /ECONNREFUSED/.test(err.message),
        ),
      'the load balancer to be deleted',
    );
  });
});
