import { networkInterfaces } from 'node:os';
import { startTestAPIServer, type TestAPIServer } from '../../testing/test-apiserver';
import { httpsRequest } from '../../testing/https-request';
import { SqliteStorage } from '../../storage/embedded/sqlite-storage';
import { ServiceIPAllocator } from './service-ip-allocator';

describe('services: cluster IPs and node ports', () => {
  let s: TestAPIServer;
  const req = (path: string, options: Parameters<typeof httpsRequest>[1] = {}) =>
    httpsRequest(s.url + path, { ca: s.ca, ...options });
  const svcs = '/api/v1/namespaces/default/services';
  const service = (name: string, spec: Record<string, unknown>) => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name },
    spec: { ports: [{ port: 80 }], ...spec },
  });

  beforeAll(async () => {
    s = await startTestAPIServer({
      admissionPlugins: [],
      serviceClusterIPRange: '10.96.0.0/28',
      serviceNodePortRange: '30000-30009',
    });
  });
  afterAll(() => s.close());

  it('bootstraps default/kubernetes on the first IP with its Endpoints', async () => {
    const svc = await req(`${svcs}/kubernetes`);
    expect(svc.status).toBe(200);
    expect(svc.json.metadata.labels).toEqual({ component: 'apiserver', provider: 'kubernetes' });
    expect(svc.json.spec).toMatchObject({
      type: 'ClusterIP',
      clusterIP: '10.96.0.1',
      clusterIPs: ['10.96.0.1'],
      ipFamilies: ['IPv4'],
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: s.server.port() }],
    });
    const ep = await req('/api/v1/namespaces/default/endpoints/kubernetes');
    // a loopback server is named by the host's first external IPv4 address (Endpoints refuse loopback)
    const hostIP = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && !a.internal && a.family === 'IPv4')?.address;
    if (hostIP) {
      expect(ep.json.subsets).toEqual([
        { addresses: [{ ip: hostIP }], ports: [{ name: 'https', port: s.server.port(), protocol: 'TCP' }] },
      ]);
    }
    // a second bootstrap (a restart, another apiserver) changes nothing
    await s.server.bootstrap();
    expect((await req(`${svcs}/kubernetes`)).json.spec.clusterIP).toBe('10.96.0.1');
  });

  it('allocates distinct IPs in the range, honours a free requested one and refuses the others', async () => {
    const a = await req(svcs, { method: 'POST', body: service('a', {}) });
    expect(a.status).toBe(201);
    const ip = a.json.spec.clusterIP as string;
    expect(ip).toMatch(/^10\.96\.0\.([2-9]|1[0-4])$/);
    expect(a.json.spec.clusterIPs).toEqual([ip]);
    expect(a.json.spec.ipFamilies).toEqual(['IPv4']);
    expect(a.json.spec.ipFamilyPolicy).toBe('SingleStack');
    expect(a.json.status).toEqual({ loadBalancer: {} });

    const taken = await req(svcs, { method: 'POST', body: service('b', { clusterIP: ip }) });
    expect(taken.status).toBe(422);
    expect(taken.json.reason).toBe('Invalid');
    expect(taken.json.message).toContain('provided IP is already allocated');
    expect(taken.json.details.causes[0].field).toBe('spec.clusterIPs');

    const outside = await req(svcs, { method: 'POST', body: service('c', { clusterIP: '10.97.0.5' }) });
    expect(outside.status).toBe(422);
    expect(outside.json.message).toContain('provided IP is not in the valid range');

    const free = ip === '10.96.0.14' ? '10.96.0.13' : '10.96.0.14';
    const chosen = await req(svcs, { method: 'POST', body: service('d', { clusterIP: free }) });
    expect(chosen.status).toBe(201);
    expect(chosen.json.spec.clusterIP).toBe(free);

    // deleting a service frees its IP for the next one asking for it
    expect((await req(`${svcs}/d`, { method: 'DELETE' })).status).toBe(200);
    const again = await req(svcs, { method: 'POST', body: service('e', { clusterIP: free }) });
    expect(again.status).toBe(201);
  });

  it('leaves headless and ExternalName services without an IP', async () => {
    const headless = await req(svcs, { method: 'POST', body: service('headless', { clusterIP: 'None' }) });
    expect(headless.status).toBe(201);
    expect(headless.json.spec.clusterIP).toBe('None');
    expect(headless.json.spec.clusterIPs).toEqual(['None']);
    const ext = await req(svcs, {
      method: 'POST',
      body: { metadata: { name: 'ext' }, spec: { type: 'ExternalName', externalName: 'example.com' } },
    });
    expect(ext.status).toBe(201);
    expect(ext.json.spec.clusterIP).toBeUndefined();
    expect(ext.json.spec.clusterIPs).toBeUndefined();
  });

  it('keeps clusterIP immutable and carries allocated values over a replace that omits them', async () => {
    const created = await req(svcs, { method: 'POST', body: service('imm', { type: 'NodePort' }) });
    expect(created.status).toBe(201);
    const { clusterIP } = created.json.spec;
    const nodePort = created.json.spec.ports[0].nodePort as number;
    expect(nodePort).toBeGreaterThanOrEqual(30000);
    expect(nodePort).toBeLessThanOrEqual(30009);

    const replaced = await req(`${svcs}/imm`, { method: 'PUT', body: service('imm', { type: 'NodePort' }) });
    expect(replaced.status).toBe(200);
    expect(replaced.json.spec.clusterIP).toBe(clusterIP);
    expect(replaced.json.spec.ports[0].nodePort).toBe(nodePort);

    // IPs are allocated at random: the change must name another one than the service holds
    const other = clusterIP === '10.96.0.12' ? '10.96.0.11' : '10.96.0.12';
    const changed = await req(`${svcs}/imm`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: { spec: { clusterIP: other, clusterIPs: [other] } },
    });
    expect(changed.status).toBe(422);
    expect(changed.json.message).toContain('field is immutable');

    const dup = await req(svcs, {
      method: 'POST',
      body: service('dup', { type: 'NodePort', ports: [{ port: 80, nodePort }] }),
    });
    expect(dup.status).toBe(422);
    expect(dup.json.message).toContain('provided port is already allocated');
    expect(dup.json.details.causes[0].field).toBe('spec.ports[0].nodePort');
    const out = await req(svcs, {
      method: 'POST',
      body: service('out', { type: 'NodePort', ports: [{ port: 80, nodePort: 31000 }] }),
    });
    expect(out.status).toBe(422);
    expect(out.json.message).toContain('provided port is not in the valid range');

    // back to ClusterIP: the node port is released and can be requested again
    const back = await req(`${svcs}/imm`, {
      method: 'PUT',
      body: service('imm', { type: 'ClusterIP', ports: [{ port: 80 }] }),
    });
    expect(back.status).toBe(200);
    const reuse = await req(svcs, {
      method: 'POST',
      body: service('reuse', { type: 'NodePort', ports: [{ port: 80, nodePort }] }),
    });
    expect(reuse.status).toBe(201);
  });

  it('gives a LoadBalancer with local traffic a health check node port and frees it on delete', async () => {
    const lb = await req(svcs, {
      method: 'POST',
      body: service('lb', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' }),
    });
    expect(lb.status).toBe(201);
    const { healthCheckNodePort, ports } = lb.json.spec;
    expect(healthCheckNodePort).toBeGreaterThanOrEqual(30000);
    expect(healthCheckNodePort).toBeLessThanOrEqual(30009);
    expect(healthCheckNodePort).not.toBe(ports[0].nodePort);
    const replaced = await req(`${svcs}/lb`, {
      method: 'PUT',
      body: service('lb', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' }),
    });
    expect(replaced.json.spec.healthCheckNodePort).toBe(healthCheckNodePort);
    expect((await req(`${svcs}/lb`, { method: 'DELETE' })).status).toBe(200);
    const reuse = await req(svcs, {
      method: 'POST',
      body: service('lb2', { type: 'NodePort', ports: [{ port: 80, nodePort: healthCheckNodePort }] }),
    });
    expect(reuse.status).toBe(201);
  });

  it('drops the values only the former type needed when an update changes the type and keeps them', async () => {
    const merge = (name: string, body: unknown) =>
      req(`${svcs}/${name}`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/merge-patch+json' },
        body,
      });
    const lb = await req(svcs, {
      method: 'POST',
      body: service('tc', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' }),
    });
    expect(lb.status).toBe(201);
    const { clusterIP, healthCheckNodePort } = lb.json.spec;
    const nodePort = lb.json.spec.ports[0].nodePort as number;
    expect(lb.json.spec.allocateLoadBalancerNodePorts).toBe(true);

    // what `kubectl apply` sends when only the type changes: the live values stay in the object
    const np = await merge('tc', { spec: { type: 'NodePort' } });
    expect(np.status).toBe(200);
    expect(np.json.spec).not.toHaveProperty('healthCheckNodePort');
    expect(np.json.spec).not.toHaveProperty('allocateLoadBalancerNodePorts');
    expect(np.json.spec.ports[0].nodePort).toBe(nodePort);
    expect(np.json.spec.externalTrafficPolicy).toBe('Local');

    // asking for a node port the service did not hold keeps it, and a ClusterIP may not have one
    const asked = await merge('tc', { spec: { type: 'ClusterIP', ports: [{ port: 80, nodePort: 30009 }] } });
    expect(asked.status).toBe(422);
    expect(asked.json.message).toContain('spec.ports[0].nodePort: Forbidden: may not be used when `type` is');

    const cip = await merge('tc', { spec: { type: 'ClusterIP' } });
    expect(cip.status).toBe(200);
    expect(cip.json.spec.ports[0]).not.toHaveProperty('nodePort');
    expect(cip.json.spec).not.toHaveProperty('externalTrafficPolicy');
    expect(cip.json.spec.clusterIP).toBe(clusterIP);
    // the node ports went back to the pool
    const reuse = await req(svcs, {
      method: 'POST',
      body: service('tc-reuse', {
        type: 'NodePort',
        ports: [
          { port: 80, nodePort, name: 'a' },
          { port: 81, nodePort: healthCheckNodePort, name: 'b' },
        ],
      }),
    });
    expect([reuse.status, reuse.json.message]).toEqual([201, undefined]);

    const ext = await merge('tc', { spec: { type: 'ExternalName', externalName: 'db.example.com' } });
    expect(ext.status).toBe(200);
    for (const field of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy'])
      expect(ext.json.spec).not.toHaveProperty(field);

    for (const name of ['tc', 'tc-reuse'])
      expect((await req(`${svcs}/${name}`, { method: 'DELETE' })).status).toBe(200);
  });

  it('never hands out one IP twice to concurrent creates, even from two allocators', async () => {
    const storage = new SqliteStorage(`${s.dir}/alloc.db`);
    try {
      const one = new ServiceIPAllocator(storage, '10.1.0.0/27');
      const two = new ServiceIPAllocator(storage, '10.1.0.0/27');
      const ips = await Promise.all(Array.from({ length: 29 }, (_, i) => (i % 2 ? one : two).allocateIP()));
      expect(new Set(ips).size).toBe(29);
      expect(ips).not.toContain('10.1.0.1');
      await expect(one.allocateIP()).rejects.toThrow('range is full');
      await one.releaseIP(ips[0]!);
      expect(await two.allocateIP()).toBe(ips[0]);
    } finally {
      await storage.close();
    }
  });
});
