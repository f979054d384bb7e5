import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Node, Service } from '@orch/api';
import { freePort, startEchoServer, tcpExchange } from '@orch/apiserver';
import { InstanceNotFoundError } from '../../cloudprovider/CloudProvider';
import { LocalCloud } from './LocalCloud';

const node = (name: string, extra: Partial<Node> = {}): Node => ({ metadata: { name }, ...extra }) as Node;

function service(uid: string, ports: { port: number; nodePort: number; protocol?: string }[]): Service {
  return {
    metadata: { name: 'web', namespace: 'default', uid },
    spec: { type: 'LoadBalancer', ports },
  } as Service;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'orch-local-cloud-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('instances', () => {
  test('without a config every node is a running instance keeping its own addresses', async () => {
    const cloud = new LocalCloud('');
    const instances = cloud.instances();
    const reported = node('a', {
      status: { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }] },
    } as Partial<Node>);
    expect(await instances.instanceExists(reported)).toBe(true);
    expect(await instances.instanceShutdown(reported)).toBe(false);
    expect(await instances.instanceMetadata(reported)).toEqual({
      providerID: 'local://a',
      instanceType: 'local',
      nodeAddresses: [{ type: 'InternalIP', address: '10.0.0.1' }],
      zone: 'local',
      region: 'local',
    });
    expect((await instances.instanceMetadata(node('b'))).nodeAddresses).toEqual([
      { type: 'InternalIP', address: '127.0.0.1' },
      { type: 'Hostname', address: 'b' },
    ]);
    // A provider ID of another provider is not a local instance.
    expect(await instances.instanceExists(node('c', { spec: { providerID: 'aws:///i-1' } }))).toBe(false);
    await cloud.close();
  });

  test('the inventory file is re-read when it changes', async () => {
    const file = join(dir, 'cloud.yaml');
    writeFileSync(file, 'unlistedInstances: absent\ninstances: [{name: a, zone: z1}]\n');
    const cloud = new LocalCloud(file);
    const instances = cloud.instances();
    expect(await instances.instanceExists(node('a'))).toBe(true);
    expect(await instances.instanceExists(node('b'))).toBe(false);
    await expect(instances.instanceMetadata(node('b'))).rejects.toThrow(InstanceNotFoundError);
    expect(await cloud.zones().getZoneByNodeName('a')).toEqual({ failureDomain: 'z1', region: 'local' });

    writeFileSync(file, 'unlistedInstances: absent\ninstances: [{name: a, state: shutdown}, {name: b}]\n');
    expect(await instances.instanceShutdown(node('a'))).toBe(true);
    expect(await instances.instanceExists(node('b'))).toBe(true);

    writeFileSync(file, 'unlistedInstances: absent\ninstances: []\n');
    expect(await instances.instanceExists(node('a'))).toBe(false);
    // A broken edit keeps the last good inventory.
    writeFileSync(file, 'instances: [{name: a, state: bogus}]\n');
    expect(await instances.instanceExists(node('a'))).toBe(false);
    await cloud.close();
  });

  test('a bad config file fails naming the file and field', () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'instances: [{name: a, state: off}]\n');
    expect(() => new LocalCloud(file)).toThrow(`${file}: instances[0].state: must be running or shutdown`);
    expect(() => new LocalCloud(join(dir, 'missing.yaml'))).toThrow('reading the cloud config');
  });
});

describe('load balancers', () => {
  test('listen on a pool address, proxy to the nodes at the node port, close on delete', async () => {
    const cloud = new LocalCloud('');
    const lb = cloud.loadBalancer();
    const backend = await startEchoServer('node');
    const port = await freePort();
    const svc = service('1234-abcd', [
      { port, nodePort: backend.port },
      { port: port, nodePort: backend.port, protocol: 'UDP' },
    ]);
    const nodes = [
      node('down', {
        status: { addresses: [{ type: 'InternalIP', address: '127.0.0.2' }] },
      } as Partial<Node>),
      node('up', { status: { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }] } } as Partial<Node>),
    ];
    try {
      const status = await lb.ensureLoadBalancer('orch', svc, nodes);
      expect(status).toEqual({ ingress: [{ ip: '127.0.1.1' }] });
      expect(lb.getLoadBalancerName('orch', svc)).toBe('a1234abcd');
      expect(await lb.getLoadBalancer('orch', svc)).toEqual(status);
      // 127.0.0.2 refuses, so connections end up at the live node either way.
      expect(await tcpExchange('127.0.1.1', port, 'hi')).toBe('node:hi');
      expect(await tcpExchange('127.0.1.1', port, 'again')).toBe('node:again');

      // A second service gets the next address; the first keeps its own on re-ensure.
      const other = service('5678', [{ port, nodePort: backend.port }]);
      expect(await lb.ensureLoadBalancer('orch', other, nodes)).toEqual({ ingress: [{ ip: '127.0.1.2' }] });
      expect(await lb.ensureLoadBalancer('orch', svc, nodes)).toEqual(status);

      await lb.ensureLoadBalancerDeleted('orch', svc);
      expect(await lb.getLoadBalancer('orch', svc)).toBeUndefined();
      await expect(tcpExchange('127.0.1.1', port, 'x')).rejects.toThrow(/ECONNREFUSED/);
      await lb.ensureLoadBalancerDeleted('orch', svc);
    } finally {
      await cloud.close();
      backend.server.close();
    }
  });

  test('updated hosts take effect; a taken port is an error naming the address', async () => {
    const cloud = new LocalCloud('');
    const lb = cloud.loadBalancer();
    const backend = await startEchoServer('b');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.1.1', resolve));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const svc = service('u1', [{ port: taken, nodePort: backend.port }]);
      await expect(lb.ensureLoadBalancer('orch', svc, [])).rejects.toThrow(`listening on 127.0.1.1:${taken}`);
      blocker.close();
      const port = await freePort();
      const svc2 = service('u2', [{ port, nodePort: backend.port }]);
      const { ingress } = await lb.ensureLoadBalancer('orch', svc2, []);
      const ip = ingress[0]?.ip ?? '';
      // No hosts: the connection is closed without data.
      expect(await tcpExchange(ip, port, 'x')).toBe('');
      await lb.updateLoadBalancer('orch', svc2, [
        node('n', { status: { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }] } } as Partial<Node>),
      ]);
      expect(await tcpExchange(ip, port, 'y')).toBe('b:y');
    } finally {
      await cloud.close();
      backend.server.close();
    }
  });
});

describe('routes', () => {
  test('routes are listed per cluster and kept in a file next to the config', async () => {
    const file = join(dir, 'cloud.yaml');
    writeFileSync(file, '{}\n');
    const cloud = new LocalCloud(file);
    const routes = cloud.routes();
    await routes.createRoute('orch', 'uid-1', { targetNode: 'a', destinationCIDR: '10.244.0.0/24' });
    await routes.createRoute('other', 'uid-2', { targetNode: 'b', destinationCIDR: '10.245.0.0/24' });
    const listed = await routes.listRoutes('orch');
    expect(listed).toEqual([
      { name: 'orch-uid-1-10-244-0-0-24', targetNode: 'a', destinationCIDR: '10.244.0.0/24' },
    ]);
    const saved = JSON.parse(readFileSync(join(dir, 'local-cloud-routes.json'), 'utf8'));
    expect(saved).toHaveLength(2);
    // A new provider over the same config finds the table.
    const again = new LocalCloud(file);
    expect(await again.routes().listRoutes('orch')).toEqual(listed);
    await again.routes().deleteRoute('orch', listed[0]!);
    expect(await new LocalCloud(file).routes().listRoutes('orch')).toEqual([]);
    expect(await new LocalCloud(file).routes().listRoutes('other')).toHaveLength(1);
  });
});
