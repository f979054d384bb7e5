import type { EndpointSlice, Node, Pod, Service } from '@orch/api';
import {
  CONTROLLER_NAME,
  endpointPorts,
  MANAGED_BY_LABEL,
  podToEndpoint,
  reconcileSlices,
  SERVICE_NAME_LABEL,
  serviceAddressTypes,
  type SlicePlan,
} from './sliceReconciler';

function service(spec: Partial<NonNullable<Service['spec']>> = {}, uid = 'svc-uid'): Service {
  return {
    metadata: { name: 'web', namespace: 'default', uid },
    spec: {
      selector: { app: 'web' },
      clusterIP: '10.0.0.10',
      ipFamilies: ['IPv4'],
      ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }],
      ...spec,
    },
  } as Service;
}

function pod(
  name: string,
  opts: {
    ips?: string[];
    ready?: boolean;
    phase?: string;
    deleting?: boolean;
    node?: string;
    containerPort?: number;
    hostname?: string;
    subdomain?: string;
  } = {},
): Pod {
  const ips = opts.ips ?? [`10.1.0.${Number(name.replace(/\D/g, '') || 0)}`];
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
        { name: 'app', image: 'nginx', ports: [{ name: 'http', containerPort: opts.containerPort ?? 8080 }] },
      ],
    },
    status: {
      phase: opts.phase ?? 'Running',
      podIP: ips[0],
      podIPs: ips.map((ip) => ({ ip })),
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }],
    },
  } as Pod;
}

const pods = (n: number, from = 1): Pod[] => Array.from({ length: n }, (_, i) => pod(`p${from + i}`));

const nodes: Record<string, Node> = {
  'node-1': {
    metadata: {
      name: 'node-1',
      labels: { 'topology.kubernetes.io/zone': 'z1', 'topology.kubernetes.io/region': 'r1', other: 'x' },
    },
  } as Node,
};

const opts = (max = 100) => ({ maxEndpointsPerSlice: max, node: (name: string) => nodes[name] });

/** The stored slices after applying a plan, names given to created ones. */
function apply(existing: EndpointSlice[], plan: SlicePlan): EndpointSlice[] {
  let n = existing.length;
  const byName = new Map(existing.map((s) => [s.metadata!.name!, s]));
  for (const s of plan.delete) byName.delete(s.metadata!.name!);
  for (const s of plan.update) byName.set(s.metadata!.name!, s);
  for (const s of plan.create) {
    const name = `web-${++n}`;
    byName.set(name, { ...s, metadata: { ...s.metadata, name, uid: `slice-${name}` } });
  }
  return [...byName.values()];
}

const addresses = (slices: EndpointSlice[]): string[] =>
  slices.flatMap((s) => (s.endpoints ?? []).flatMap((e) => e.addresses)).sort();
const sizes = (slices: EndpointSlice[]): number[] =>
  slices.map((s) => (s.endpoints ?? []).length).sort((a, b) => a - b);

describe('reconcileSlices', () => {
  test('a new service gets one slice with its endpoints, labelled, owned and named after it', () => {
    const plan = reconcileSlices(service(), pods(2), [], opts());
    expect(plan.update).toEqual([]);
    expect(plan.delete).toEqual([]);
    expect(plan.create).toHaveLength(1);
    const slice = plan.create[0]!;
    expect(slice.metadata).toEqual({
      namespace: 'default',
      generateName: 'web-',
      labels: { [SERVICE_NAME_LABEL]: 'web', [MANAGED_BY_LABEL]: CONTROLLER_NAME },
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'Service',
          name: 'web',
          uid: 'svc-uid',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    });
    expect(slice.addressType).toBe('IPv4');
    expect(slice.ports).toEqual([{ name: 'http', protocol: 'TCP', port: 8080 }]);
    expect(slice.endpoints).toEqual([
      {
        addresses: ['10.1.0.1'],
        conditions: { ready: true },
        targetRef: { kind: 'Pod', namespace: 'default', name: 'p1', uid: 'uid-p1' },
        topology: {
          'kubernetes.io/hostname': 'node-1',
          'topology.kubernetes.io/zone': 'z1',
          'topology.kubernetes.io/region': 'r1',
        },
      },
      expect.objectContaining({ addresses: ['10.1.0.2'] }),
    ]);
  });

  test('endpoints are split over slices of at most maxEndpointsPerSlice', () => {
    const plan = reconcileSlices(service(), pods(7), [], opts(3));
    expect(sizes(plan.create)).toEqual([1, 3, 3]);
    expect(addresses(plan.create)).toHaveLength(7);
  });

  test('an unchanged state writes nothing', () => {
    const stored = apply([], reconcileSlices(service(), pods(7), [], opts(3)));
    expect(reconcileSlices(service(), pods(7), stored, opts(3))).toEqual({
      create: [],
      update: [],
      delete: [],
    });
  });

  test('a new endpoint goes into the existing slice it fills best; more than a slice holds gets a new one', () => {
    let stored = apply([], reconcileSlices(service(), pods(4), [], opts(3)));
    expect(sizes(stored)).toEqual([1, 3]);
    const plan = reconcileSlices(service(), pods(6), stored, opts(3));
    // two new endpoints: the slice holding one has room for both
    expect(plan.create).toEqual([]);
    expect(plan.update).toHaveLength(1);
    expect(plan.update[0]!.metadata?.name).toBe(
      stored.find((s) => s.endpoints!.length === 1)!.metadata?.name,
    );
    stored = apply(stored, plan);
    expect(sizes(stored)).toEqual([3, 3]);
    const more = reconcileSlices(service(), pods(7), stored, opts(3));
    expect(more.update).toEqual([]);
    expect(sizes(more.create)).toEqual([1]);
  });

  test('a removed endpoint updates its slice in place, which then takes new endpoints first', () => {
    const stored = apply([], reconcileSlices(service(), pods(6), [], opts(3)));
    const withP1 = stored.find((s) => s.endpoints!.some((e) => e.addresses[0] === '10.1.0.1'))!;
    // p1 goes, p7 and p8 come: the updated slice takes one, the rest goes to a new slice
    const plan = reconcileSlices(service(), [...pods(5, 2), ...pods(2, 7)], stored, opts(3));
    expect(plan.update).toHaveLength(1);
    expect(plan.update[0]!.metadata?.name).toBe(withP1.metadata?.name);
    expect(plan.update[0]!.metadata?.resourceVersion).toBe(withP1.metadata?.resourceVersion);
    expect(plan.update[0]!.endpoints).toHaveLength(3);
    expect(sizes(plan.create)).toEqual([1]);
    expect(addresses(apply(stored, plan))).toEqual(
      ['10.1.0.2', '10.1.0.3', '10.1.0.4', '10.1.0.5', '10.1.0.6', '10.1.0.7', '10.1.0.8'].sort(),
    );
  });

  test('a slice left without endpoints is deleted; the last one stays as an empty placeholder', () => {
    const stored = apply([], reconcileSlices(service(), pods(4), [], opts(2)));
    expect(stored).toHaveLength(2);
    const plan = reconcileSlices(service(), pods(2, 3), stored, opts(2));
    expect(plan.delete).toHaveLength(1);
    expect(plan.create).toEqual([]);
    const afterShrink = apply(stored, plan);
    expect(addresses(afterShrink)).toEqual(['10.1.0.3', '10.1.0.4']);

    // no pods: the remaining slice becomes the empty placeholder (written over, not recreated)
    const empty = reconcileSlices(service(), [], afterShrink, opts(2));
    expect(empty.create).toEqual([]);
    expect(empty.delete).toEqual([]);
    expect(empty.update).toHaveLength(1);
    expect(empty.update[0]!.metadata?.name).toBe(afterShrink[0]!.metadata?.name);
    expect(empty.update[0]!.endpoints).toEqual([]);
    expect(empty.update[0]!.ports).toEqual([]);
    const placeholder = apply(afterShrink, empty);
    expect(reconcileSlices(service(), [], placeholder, opts(2))).toEqual({
      create: [],
      update: [],
      delete: [],
    });
  });

  test('a service without matching pods gets one empty slice', () => {
    const plan = reconcileSlices(service(), [], [], opts());
    expect(plan.create).toHaveLength(1);
    expect(plan.create[0]).toMatchObject({ addressType: 'IPv4', ports: [], endpoints: [] });
  });

  test('readiness: not ready pods are endpoints with ready false, unless the service publishes them', () => {
    const notReady = pod('p1', { ready: false });
    const [slice] = reconcileSlices(service(), [notReady], [], opts()).create;
    expect(slice!.endpoints![0]!.conditions).toEqual({ ready: false });
    const [published] = reconcileSlices(
      service({ publishNotReadyAddresses: true }),
      [notReady],
      [],
      opts(),
    ).create;
    expect(published!.endpoints![0]!.conditions).toEqual({ ready: true });

    const stored = apply([], reconcileSlices(service(), [pod('p1')], [], opts()));
    const plan = reconcileSlices(service(), [notReady], stored, opts());
    expect(plan.update[0]!.endpoints![0]!.conditions).toEqual({ ready: false });
  });

  test('finished pods, pods without IPs and terminating pods are no endpoints', () => {
    const plan = reconcileSlices(
      service(),
      [pod('p1', { phase: 'Succeeded' }), pod('p2', { ips: [] }), pod('p3', { deleting: true }), pod('p4')],
      [],
      opts(),
    );
    expect(addresses(plan.create)).toEqual(['10.1.0.4']);
  });

  test('pods offering different ports get slices of their own', () => {
    const plan = reconcileSlices(
      service(),
      [pod('p1'), pod('p2', { containerPort: 9090 }), pod('p3')],
      [],
      opts(),
    );
    expect(plan.create.map((s) => [s.ports!.map((p) => p.port), addresses([s])]).sort()).toEqual([
      [[8080], ['10.1.0.1', '10.1.0.3']],
      [[9090], ['10.1.0.2']],
    ]);
    // when p2 comes back on 8080 its slice goes (written over by nothing: nothing to create)
    const stored = apply([], plan);
    const next = reconcileSlices(service(), [pod('p1'), pod('p2'), pod('p3')], stored, opts());
    expect(next.delete.map((s) => s.ports![0]!.port)).toEqual([9090]);
    expect(addresses(apply(stored, next))).toEqual(['10.1.0.1', '10.1.0.2', '10.1.0.3']);
  });

  test('address types follow the service families; each endpoint takes the pod IPs of its type', () => {
    const dual = pod('p1', { ips: ['10.1.0.1', 'fd00::1'] });
    const v6 = reconcileSlices(service({ ipFamilies: ['IPv6'], clusterIP: 'fd00::a' }), [dual], [], opts());
    expect(v6.create.map((s) => [s.addressType, addresses([s])])).toEqual([['IPv6', ['fd00::1']]]);
    const both = reconcileSlices(service({ ipFamilies: ['IPv4', 'IPv6'] }), [dual], [], opts());
    expect(both.create.map((s) => [s.addressType, addresses([s])])).toEqual([
      ['IPv4', ['10.1.0.1']],
      ['IPv6', ['fd00::1']],
    ]);
    // a slice of a type the service no longer has goes, and is not written over with another type
    const stored = apply([], both);
    const v4only = reconcileSlices(service(), [dual], stored, opts());
    expect(v4only.delete.map((s) => s.addressType)).toEqual(['IPv6']);
    expect(v4only.create).toEqual([]);
    expect(v4only.update).toEqual([]);
  });

  test('serviceAddressTypes falls back to the cluster IP family, then IPv4', () => {
    expect(serviceAddressTypes(service({ ipFamilies: undefined, clusterIP: 'fd00::a' }))).toEqual(['IPv6']);
    expect(serviceAddressTypes(service({ ipFamilies: undefined, clusterIP: 'None' }))).toEqual(['IPv4']);
  });

  test('slices of an earlier service of the same name go, and new ones are made', () => {
    const stored = apply([], reconcileSlices(service({}, 'old-uid'), pods(2), [], opts()));
    const plan = reconcileSlices(service({}, 'new-uid'), pods(2), stored, opts());
    expect(plan.update).toEqual([]);
    expect(plan.delete.map((s) => s.metadata?.name)).toEqual([stored[0]!.metadata?.name]);
    expect(plan.create).toHaveLength(1);
    expect(plan.create[0]!.metadata?.ownerReferences?.[0]?.uid).toBe('new-uid');
    expect(addresses(plan.create)).toEqual(['10.1.0.1', '10.1.0.2']);
  });
});

describe('endpoint details', () => {
  test('ports: named target ports resolve per pod, appProtocol kept, missing ports left out', () => {
    const svc = service({
      ports: [
        { name: 'http', port: 80, targetPort: 'http', protocol: 'TCP', appProtocol: 'http' },
        { name: 'metrics', port: 9100, targetPort: 'metrics', protocol: 'TCP' },
        { port: 53, targetPort: 5353, protocol: 'UDP' },
      ],
    });
    expect(endpointPorts(svc, pod('p1', { containerPort: 8081 }))).toEqual([
      { name: 'http', protocol: 'TCP', port: 8081, appProtocol: 'http' },
      { name: '', protocol: 'UDP', port: 5353 },
    ]);
    expect(endpointPorts(service({ clusterIP: 'None', ports: [] }), pod('p1'))).toEqual([]);
  });

  test('hostname when the pod names the service as its subdomain; topology without a known node', () => {
    const svc = service();
    const named = podToEndpoint(
      svc,
      pod('p1', { hostname: 'h1', subdomain: 'web', node: 'gone' }),
      undefined,
      'IPv4',
    );
    expect(named.hostname).toBe('h1');
    expect(named.topology).toEqual({ 'kubernetes.io/hostname': 'gone' });
    const other = podToEndpoint(svc, pod('p1', { hostname: 'h1', subdomain: 'db' }), undefined, 'IPv4');
    expect(other.hostname).toBeUndefined();
  });
});
