import type { Pod, Service, ServicePort } from '@orch/api';
import { endpointSubsets, findPort, MAX_ENDPOINT_ADDRESSES, truncateSubsets } from './endpointSubsets';

function service(spec: Partial<NonNullable<Service['spec']>> = {}): Service {
  return {
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      selector: { app: 'web' },
      clusterIP: '10.0.0.10',
      ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }],
      ...spec,
    },
  } as Service;
}

function pod(
  name: string,
  opts: {
    ip?: string;
    ips?: string[];
    ready?: boolean;
    phase?: string;
    deleting?: boolean;
    node?: string;
    ports?: { name?: string; containerPort: number; protocol?: string }[];
    hostname?: string;
    subdomain?: string;
  } = {},
): Pod {
  return {
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      labels: { app: 'web' },
      ...(opts.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: {
      nodeName: opts.node ?? 'node-1',
      hostname: opts.hostname,
      subdomain: opts.subdomain,
      containers: [
        { name: 'app', ports: opts.ports ?? [{ name: 'http', containerPort: 8080, protocol: 'TCP' }] },
      ],
    },
    status: {
      phase: opts.phase ?? 'Running',
      podIP: opts.ip === undefined ? '10.244.0.1' : opts.ip,
      ...(opts.ips ? { podIPs: opts.ips.map((ip) => ({ ip })) } : {}),
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }],
    },
  } as Pod;
}

const ref = (name: string) => ({ kind: 'Pod', namespace: 'default', name, uid: `uid-${name}` });

describe('endpointSubsets', () => {
  test('ready pods are addresses, not ready ones notReadyAddresses, with the target port', () => {
    const subsets = endpointSubsets(service(), [
      pod('b', { ip: '10.244.0.2' }),
      pod('a', { ip: '10.244.0.1' }),
      pod('c', { ip: '10.244.0.3', ready: false }),
    ]);
    expect(subsets).toEqual([
      {
        addresses: [
          { ip: '10.244.0.1', nodeName: 'node-1', targetRef: ref('a') },
          { ip: '10.244.0.2', nodeName: 'node-1', targetRef: ref('b') },
        ],
        notReadyAddresses: [{ ip: '10.244.0.3', nodeName: 'node-1', targetRef: ref('c') }],
        ports: [{ port: 8080, protocol: 'TCP' }],
      },
    ]);
  });

  test('finished pods, pods without an IP and pods being deleted are left out', () => {
    const subsets = endpointSubsets(service(), [
      pod('done', { phase: 'Succeeded' }),
      pod('failed', { phase: 'Failed' }),
      pod('noip', { ip: '' }),
      pod('leaving', { deleting: true }),
      pod('ok', { ip: '10.244.0.9' }),
    ]);
    expect(subsets).toHaveLength(1);
    expect(subsets[0]!.addresses!.map((a) => a.targetRef!.name)).toEqual(['ok']);
    expect(endpointSubsets(service(), [pod('noip', { ip: '' })])).toEqual([]);
  });

  test('publishNotReadyAddresses: not ready and terminating pods are published as ready', () => {
    const subsets = endpointSubsets(service({ publishNotReadyAddresses: true }), [
      pod('a', { ip: '10.244.0.1', ready: false }),
      pod('b', { ip: '10.244.0.2', deleting: true }),
    ]);
    expect(subsets[0]!.addresses!.map((a) => a.ip)).toEqual(['10.244.0.1', '10.244.0.2']);
    expect(subsets[0]!.notReadyAddresses).toBeUndefined();
  });

  test('a named target port is looked up per pod; pods without it are not endpoints of that port', () => {
    const svc = service({
      ports: [
        { name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' },
        { name: 'metrics', port: 9090, targetPort: 'metrics', protocol: 'TCP' },
      ],
    });
    const subsets = endpointSubsets(svc, [
      pod('a', {
        ip: '10.244.0.1',
        ports: [
          { name: 'http', containerPort: 8080 },
          { name: 'metrics', containerPort: 9100 },
        ],
      }),
      pod('b', { ip: '10.244.0.2', ports: [{ name: 'http', containerPort: 8081 }] }),
    ]);
    // a offers both ports, b only http on another number: three address-port groups repacked into
    // subsets by the set of addresses offering them
    expect(subsets).toEqual([
      {
        addresses: [{ ip: '10.244.0.1', nodeName: 'node-1', targetRef: ref('a') }],
        ports: [
          { name: 'http', port: 8080, protocol: 'TCP' },
          { name: 'metrics', port: 9100, protocol: 'TCP' },
        ],
      },
      {
        addresses: [{ ip: '10.244.0.2', nodeName: 'node-1', targetRef: ref('b') }],
        ports: [{ name: 'http', port: 8081, protocol: 'TCP' }],
      },
    ]);
  });

  test('findPort: numbers as they are, names only with the same protocol', () => {
    const p = pod('a', { ports: [{ name: 'dns', containerPort: 53, protocol: 'UDP' }] });
    const sp = (targetPort: number | string, protocol = 'TCP'): ServicePort => ({
      port: 1,
      targetPort,
      protocol,
    });
    expect(findPort(p, sp(8443))).toBe(8443);
    expect(findPort(p, sp('dns', 'UDP'))).toBe(53);
    expect(findPort(p, sp('dns', 'TCP'))).toBeUndefined();
    expect(findPort(p, sp('nope'))).toBeUndefined();
  });

  test('headless without ports: addresses alone; a service with an IP and no ports: nothing', () => {
    const pods = [pod('a', { ip: '10.244.0.1' })];
    expect(endpointSubsets(service({ clusterIP: 'None', ports: [] }), pods)).toEqual([
      { addresses: [{ ip: '10.244.0.1', nodeName: 'node-1', targetRef: ref('a') }] },
    ]);
    expect(endpointSubsets(service({ ports: [] }), pods)).toEqual([]);
  });

  test('a pod naming the service as its subdomain gets its hostname', () => {
    const subsets = endpointSubsets(service({ clusterIP: 'None' }), [
      pod('a', { ip: '10.244.0.1', hostname: 'db-0', subdomain: 'web' }),
      pod('b', { ip: '10.244.0.2', hostname: 'db-1', subdomain: 'other' }),
    ]);
    expect(subsets[0]!.addresses!.map((a) => a.hostname)).toEqual(['db-0', undefined]);
  });

  test('the pod IP of the service’s IP family', () => {
    const dual = pod('a', { ip: '10.244.0.1', ips: ['10.244.0.1', 'fd00::1'] });
    expect(endpointSubsets(service({ ipFamilies: ['IPv6'] }), [dual])[0]!.addresses![0]!.ip).toBe('fd00::1');
    expect(endpointSubsets(service({ ipFamilies: ['IPv4'] }), [dual])[0]!.addresses![0]!.ip).toBe(
      '10.244.0.1',
    );
    expect(endpointSubsets(service({ ipFamilies: ['IPv6'] }), [pod('v4only')])).toEqual([]);
  });

  test('the same pods in another order give the same subsets', () => {
    const pods = Array.from({ length: 20 }, (_, i) =>
      pod(`p${i}`, { ip: `10.244.1.${i}`, ready: i % 3 !== 0 }),
    );
    expect(endpointSubsets(service(), [...pods].reverse())).toEqual(endpointSubsets(service(), pods));
  });
});

describe('truncateSubsets', () => {
  const addresses = (n: number, prefix: string) =>
    Array.from({ length: n }, (_, i) => ({ ip: `10.${prefix}.${Math.floor(i / 250)}.${i % 250}` }));

  test('within capacity nothing changes', () => {
    const subsets = [{ addresses: addresses(10, '1'), notReadyAddresses: addresses(5, '2') }];
    expect(truncateSubsets(subsets)).toEqual({ subsets, truncated: false });
  });

  test('not ready addresses are cut first, ready ones kept', () => {
    const { subsets, truncated } = truncateSubsets([
      { addresses: addresses(900, '1'), notReadyAddresses: addresses(300, '2') },
    ]);
    expect(truncated).toBe(true);
    expect(subsets[0]!.addresses).toHaveLength(900);
    expect(subsets[0]!.notReadyAddresses).toHaveLength(MAX_ENDPOINT_ADDRESSES - 900);
  });

  test('too many ready addresses: only ready ones stay, shared among the subsets by their size', () => {
    const { subsets } = truncateSubsets([
      { addresses: addresses(1200, '1'), notReadyAddresses: addresses(10, '2'), ports: [{ port: 1 }] },
      { addresses: addresses(300, '3'), ports: [{ port: 2 }] },
    ]);
    expect(subsets[0]!.addresses).toHaveLength(800);
    expect(subsets[0]!.notReadyAddresses).toBeUndefined();
    expect(subsets[1]!.addresses).toHaveLength(200);
    expect(subsets[0]!.ports).toEqual([{ port: 1 }]);
  });
});
