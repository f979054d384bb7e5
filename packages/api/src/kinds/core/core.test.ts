import type { Static, TSchema } from '@sinclair/typebox';
import { OrchKeyword, structHooks, type FieldErrorLike } from '../../schema/fields';
import type { KindDeclaration } from '../../schema/kind';
import { errorMessage, type FieldError } from '../../validation/field-error';
import {
  accessModesString,
  BindingKind,
  BindingSchema,
  coreKinds,
  EndpointAddressSchema,
  EndpointPortSchema,
  EndpointsKind,
  EndpointsSchema,
  EndpointSubsetSchema,
  EventKind,
  EventSchema,
  LimitRangeItemSchema,
  LimitRangeKind,
  LimitRangeSpecSchema,
  NamespaceKind,
  NamespaceSchema,
  NamespaceSpecSchema,
  NodeKind,
  NodeSchema,
  NodeSpecSchema,
  NodeStatusSchema,
  PersistentVolumeClaimKind,
  PersistentVolumeClaimSchema,
  PersistentVolumeClaimSpecSchema,
  PersistentVolumeKind,
  PersistentVolumeSchema,
  PersistentVolumeSpecSchema,
  ResourceQuotaKind,
  ResourceQuotaSpecSchema,
  SecretKind,
  SecretSchema,
  ServiceAccountKind,
  ServiceAccountSchema,
  ServiceKind,
  ServicePortSchema,
  ServiceSchema,
  ServiceSpecSchema,
  ServiceStatusSchema,
  TaintSchema,
  type Endpoints,
  type Event,
  type Namespace,
  type Node,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type ResourceQuota,
  type Secret,
  type Service,
} from './index';

const PROTO_EMBEDDED_KEYWORD = OrchKeyword.protoEmbedded;

type Node_ = Record<string, unknown> & { properties?: Record<string, TSchema>; items?: TSchema };

const meta = (s: TSchema): Node_ => s as unknown as Node_;
const prop = (s: { properties: Record<string, TSchema> }, name: string): Node_ => meta(s.properties[name]!);
const protos = (s: { properties: Record<string, TSchema> }): Record<string, unknown> =>
  Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, meta(v)[OrchKeyword.proto]]));
const msgs = (errors: readonly FieldErrorLike[]): string[] => (errors as FieldError[]).map(errorMessage);
const run = (schema: TSchema, value: unknown, path = ''): string[] =>
  ((structHooks(schema)?.validate?.(value, path, { root: value }) ?? []) as FieldError[]).map(errorMessage);

/**
 * Defaulting as the registry performs it: constant defaults of absent fields, then the struct's own hook,
 * then the structs nested in present fields (lists included).
 */
function applyDefaults<T>(schema: TSchema, value: T): T {
  const node = meta(schema);
  if (node.properties && value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const [k, p] of Object.entries(node.properties)) {
      const d = meta(p).default;
      if (obj[k] === undefined && d !== undefined) obj[k] = structuredClone(d);
    }
    structHooks(schema)?.defaults?.(obj);
    for (const [k, p] of Object.entries(node.properties)) {
      const v = obj[k];
      if (v === undefined) continue;
      if (meta(p).properties) applyDefaults(p, v);
      else if (meta(p).items && Array.isArray(v))
        for (const item of v) applyDefaults(meta(p).items as TSchema, item);
    }
  }
  return value;
}

const now = new Date('2021-01-10T00:00:00Z');
const created = '2021-01-08T00:00:00Z';
const cells = <T>(kind: KindDeclaration<any>, obj: T): Record<string, unknown> =>
  Object.fromEntries(kind.columns!.map((c) => [c.name, c.cell(obj, now)]));

describe('core/v1 kinds', () => {
  it('lists every core kind once, with the Pod family', () => {
    const names = coreKinds.map((k) => k.kind);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([
        'ConfigMap',
        'Pod',
        'PodTemplate',
        'ReplicationController',
        'Namespace',
        'Node',
        'Service',
        'Endpoints',
        'Secret',
        'ServiceAccount',
        'Event',
        'Binding',
        'ResourceQuota',
        'LimitRange',
        'PersistentVolume',
        'PersistentVolumeClaim',
      ]),
    );
    expect(
      Object.fromEntries(
        coreKinds.map((k) => [k.kind, [k.plural, k.namespaced, (k.shortNames ?? []).join(',')]]),
      ),
    ).toMatchObject({
      Namespace: ['namespaces', false, 'ns'],
      Node: ['nodes', false, 'no'],
      Service: ['services', true, 'svc'],
      Endpoints: ['endpoints', true, 'ep'],
      Secret: ['secrets', true, ''],
      ServiceAccount: ['serviceaccounts', true, 'sa'],
      Event: ['events', true, 'ev'],
      Binding: ['bindings', true, ''],
      ResourceQuota: ['resourcequotas', true, 'quota'],
      LimitRange: ['limitranges', true, 'limits'],
      PersistentVolume: ['persistentvolumes', false, 'pv'],
      PersistentVolumeClaim: ['persistentvolumeclaims', true, 'pvc'],
    });
  });

  it('declares subresources as Kubernetes serves them', () => {
    expect(NamespaceKind.subresources).toEqual({ status: true, finalize: { verbs: ['update'] } });
    expect(NodeKind.subresources?.proxy).toMatchObject({ kind: 'NodeProxyOptions' });
    expect(ServiceKind.subresources).toMatchObject({ status: true, proxy: { kind: 'ServiceProxyOptions' } });
    expect(ServiceAccountKind.subresources?.token).toEqual({
      kind: 'TokenRequest',
      group: 'authentication.k8s.io',
      version: 'v1',
      verbs: ['create'],
    });
    expect(BindingKind).toMatchObject({ plural: 'bindings', verbs: ['create'], virtual: true });
    expect(ResourceQuotaKind.subresources).toEqual({ status: true });
  });
});

describe('Namespace', () => {
  it('has Kubernetes protobuf numbers and merge keys', () => {
    expect(protos(NamespaceSchema)).toEqual({
      apiVersion: undefined,
      kind: undefined,
      metadata: 1,
      spec: 2,
      status: 3,
    });
    expect(prop(NamespaceSpecSchema, 'finalizers')[OrchKeyword.proto]).toBe(1);
  });

  it('is Active by default and keeps the finalizers it is given', () => {
    const ns = applyDefaults<Namespace>(NamespaceSchema, { metadata: { name: 'team-a' } });
    expect(ns.status).toEqual({ phase: 'Active' });
    const custom = applyDefaults<Namespace>(NamespaceSchema, {
      metadata: { name: 'b' },
      spec: { finalizers: ['example.com/x'] },
    });
    expect(custom.spec?.finalizers).toEqual(['example.com/x']);
    // The namespace controller removes the finalizer from a stored namespace: defaulting never adds it back.
    const finalized = applyDefaults<Namespace>(NamespaceSchema, {
      metadata: { name: 'team-a', uid: 'u1', resourceVersion: '7' },
      spec: {},
      status: { phase: 'Terminating' },
    });
    expect(finalized.spec).toEqual({});
    expect(finalized.status?.phase).toBe('Terminating');
  });

  it('validates finalizer names', () => {
    expect(
      run(NamespaceSpecSchema, { finalizers: ['kubernetes', 'example.com/x', 'custom'] }, 'spec'),
    ).toEqual([
      'spec.finalizers[2]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });

  it('prints NAME STATUS AGE and selects on status.phase', () => {
    const ns: Namespace = {
      metadata: { name: 'default', creationTimestamp: created },
      status: { phase: 'Active' },
    };
    expect(cells(NamespaceKind, ns)).toEqual({ Name: 'default', Status: 'Active', Age: '2d' });
    expect(NamespaceKind.selectableFields!['status.phase']!(ns)).toBe('Active');
    expect(NamespaceKind.selectableFields!.name!(ns)).toBe('default');
  });
});

describe('Node', () => {
  it('has Kubernetes protobuf numbers and merge keys', () => {
    expect(protos(NodeSpecSchema)).toEqual({
      podCIDR: 1,
      podCIDRs: 7,
      providerID: 3,
      unschedulable: 4,
      taints: 5,
      configSource: 6,
      externalID: 2,
    });
    expect(protos(NodeStatusSchema)).toEqual({
      capacity: 1,
      allocatable: 2,
      phase: 3,
      conditions: 4,
      addresses: 5,
      daemonEndpoints: 6,
      nodeInfo: 7,
      images: 8,
      volumesInUse: 9,
      volumesAttached: 10,
      config: 11,
    });
    expect(protos(TaintSchema)).toEqual({ key: 1, value: 2, effect: 3, timeAdded: 4 });
    for (const name of ['conditions', 'addresses']) {
      expect(prop(NodeStatusSchema, name)['x-kubernetes-patch-merge-key']).toBe('type');
      expect(prop(NodeStatusSchema, name)['x-kubernetes-patch-strategy']).toBe('merge');
    }
    expect(prop(NodeSpecSchema, 'podCIDRs')['x-kubernetes-patch-strategy']).toBe('merge');
  });

  it('defaults allocatable to capacity', () => {
    const status = applyDefaults<Static<typeof NodeStatusSchema>>(NodeStatusSchema, {
      capacity: { cpu: '4', memory: '8Gi' },
    });
    expect(status.allocatable).toEqual({ cpu: '4', memory: '8Gi' });
    expect(
      applyDefaults(NodeStatusSchema, { capacity: { cpu: '4' }, allocatable: { cpu: '3' } }).allocatable,
    ).toEqual({
      cpu: '3',
    });
  });

  it('validates taints with Kubernetes messages', () => {
    const errors = run(
      NodeSpecSchema,
      {
        taints: [
          { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
          { key: 'dedicated', value: 'other', effect: 'NoSchedule' },
        ],
      },
      'spec',
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^spec\.taints\[1\]: Duplicate value: .*: taints must be unique by key and effect pair$/,
    );
    expect(run(TaintSchema, { key: 'a b', value: 'x', effect: 'NoSchedule' }, 'spec.taints[0]')[0]).toMatch(
      /^spec\.taints\[0\]\.key: Invalid value: "a b": name part must consist of alphanumeric characters/,
    );
    expect(meta(TaintSchema.properties.effect).enum).toEqual(['NoSchedule', 'PreferNoSchedule', 'NoExecute']);
  });

  it('mirrors podCIDR and podCIDRs and validates them', () => {
    expect(applyDefaults<Record<string, unknown>>(NodeSpecSchema, { podCIDR: '10.244.1.0/24' })).toEqual({
      podCIDR: '10.244.1.0/24',
      podCIDRs: ['10.244.1.0/24'],
    });
    expect(
      applyDefaults<Record<string, unknown>>(NodeSpecSchema, { podCIDRs: ['fd00::/64', '10.0.0.0/24'] })
        .podCIDR,
    ).toBe('fd00::/64');
    expect(run(NodeSpecSchema, { podCIDRs: ['10.244.1.0/24', 'fd00::/64'] }, 'spec')).toEqual([]);
    expect(run(NodeSpecSchema, { podCIDRs: ['10.244.1.0/33', '10.0.0.0/24'] }, 'spec')).toEqual([
      'spec.podCIDRs[0]: Invalid value: []string{"10.244.1.0/33", "10.0.0.0/24"}: must be valid CIDR',
      'spec.podCIDRs: Invalid value: []string{"10.244.1.0/33", "10.0.0.0/24"}: may specify no more than one CIDR for each IP family',
    ]);
  });

  it('keeps podCIDRs and providerID once set', () => {
    const old: Node = { spec: { podCIDRs: ['10.244.1.0/24'], providerID: 'aws:///i-1' } };
    expect(
      msgs(
        NodeKind.validateUpdate!({ spec: { podCIDRs: ['10.244.2.0/24'], providerID: 'aws:///i-2' } }, old),
      ),
    ).toEqual([
      'spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid',
      'spec.providerID: Forbidden: node updates may not change providerID except from "" to valid',
    ]);
    expect(
      msgs(
        NodeKind.validateUpdate!({ spec: { podCIDRs: ['10.244.1.0/24'], providerID: 'x' } }, { spec: {} }),
      ),
    ).toEqual([]);
  });

  const node = (over: Partial<Node> = {}): Node => ({
    metadata: {
      name: 'n1',
      creationTimestamp: created,
      labels: {
        'node-role.kubernetes.io/master': '',
        'node-role.kubernetes.io/control-plane': '',
        'kubernetes.io/role': 'edge',
      },
    },
    spec: { unschedulable: true },
    status: {
      conditions: [
        { type: 'MemoryPressure', status: 'False' },
        { type: 'Ready', status: 'True' },
      ],
      addresses: [
        { type: 'Hostname', address: 'n1' },
        { type: 'InternalIP', address: '10.0.0.5' },
      ],
      nodeInfo: {
        kubeletVersion: 'v1.20.0',
        osImage: 'Debian GNU/Linux 11',
        kernelVersion: '5.10.0',
        containerRuntimeVersion: '',
      },
    },
    ...over,
  });

  it('prints STATUS, ROLES and the wide columns as Kubernetes does', () => {
    expect(cells(NodeKind, node())).toEqual({
      Name: 'n1',
      Status: 'Ready,SchedulingDisabled',
      Roles: 'control-plane,edge,master',
      Age: '2d',
      Version: 'v1.20.0',
      'Internal-IP': '10.0.0.5',
      'External-IP': '<none>',
      'OS-Image': 'Debian GNU/Linux 11',
      'Kernel-Version': '5.10.0',
      'Container-Runtime': '<unknown>',
    });
    const plain = node({
      metadata: { name: 'n2' },
      spec: {},
      status: { conditions: [{ type: 'Ready', status: 'Unknown' }] },
    });
    expect(cells(NodeKind, plain)).toMatchObject({ Status: 'NotReady', Roles: '<none>' });
    expect(cells(NodeKind, { metadata: { name: 'n3' } })).toMatchObject({
      Status: 'Unknown',
      Age: '<unknown>',
    });
    expect(NodeKind.columns!.filter((c) => c.priority === 1).map((c) => c.name)).toEqual([
      'Internal-IP',
      'External-IP',
      'OS-Image',
      'Kernel-Version',
      'Container-Runtime',
    ]);
  });

  it('selects on spec.unschedulable', () => {
    expect(NodeKind.selectableFields!['spec.unschedulable']!(node())).toBe('true');
    expect(NodeKind.selectableFields!['spec.unschedulable']!({ metadata: { name: 'x' } })).toBe('false');
  });

  it('keeps the Port field name of DaemonEndpoint', () => {
    const daemon = prop(NodeStatusSchema as never, 'daemonEndpoints');
    const kubelet = meta((daemon.properties as Record<string, TSchema>).kubeletEndpoint!);
    expect(Object.keys(kubelet.properties!)).toEqual(['Port']);
    expect(NodeSchema.properties.status).toBeDefined();
  });
});

describe('Service', () => {
  it('has Kubernetes protobuf numbers and merge metadata', () => {
    expect(protos(ServicePortSchema)).toEqual({
      name: 1,
      protocol: 2,
      appProtocol: 6,
      port: 3,
      targetPort: 4,
      nodePort: 5,
    });
    expect(protos(ServiceSpecSchema)).toMatchObject({
      ports: 1,
      selector: 2,
      clusterIP: 3,
      clusterIPs: 18,
      type: 4,
      externalIPs: 5,
      sessionAffinity: 7,
      loadBalancerIP: 8,
      loadBalancerSourceRanges: 9,
      externalName: 10,
      externalTrafficPolicy: 11,
      healthCheckNodePort: 12,
      publishNotReadyAddresses: 13,
      sessionAffinityConfig: 14,
      topologyKeys: 16,
      ipFamilyPolicy: 17,
      ipFamilies: 19,
      allocateLoadBalancerNodePorts: 20,
    });
    const ports = prop(ServiceSpecSchema, 'ports');
    expect(ports['x-kubernetes-patch-merge-key']).toBe('port');
    expect(ports['x-kubernetes-patch-strategy']).toBe('merge');
    expect(ports['x-kubernetes-list-type']).toBe('map');
    expect(ports['x-kubernetes-list-map-keys']).toEqual(['port', 'protocol']);
    expect(prop(ServiceSpecSchema, 'selector')['x-kubernetes-map-type']).toBe('atomic');
    expect(prop(ServiceStatusSchema, 'conditions')['x-kubernetes-list-map-keys']).toEqual(['type']);
  });

  it('defaults as Kubernetes 1.29 does', () => {
    const svc = applyDefaults<Service>(ServiceSchema, {
      metadata: { name: 'web' },
      spec: {
        clusterIP: '10.96.0.10',
        ports: [{ port: 80 }, { port: 53, protocol: 'UDP', targetPort: 'dns' }],
      },
    });
    expect(svc.spec).toEqual({
      type: 'ClusterIP',
      sessionAffinity: 'None',
      clusterIP: '10.96.0.10',
      clusterIPs: ['10.96.0.10'],
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
      ports: [
        { port: 80, protocol: 'TCP', targetPort: 80 },
        { port: 53, protocol: 'UDP', targetPort: 'dns' },
      ],
    });
    expect(svc.status).toEqual({ loadBalancer: {} });
    const np = applyDefaults<Service>(ServiceSchema, {
      spec: { type: 'NodePort', sessionAffinity: 'ClientIP', ports: [{ port: 80, targetPort: 0 }] },
    });
    expect(np.spec).toMatchObject({
      externalTrafficPolicy: 'Cluster',
      internalTrafficPolicy: 'Cluster',
      sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
      ports: [{ port: 80, targetPort: 80, protocol: 'TCP' }],
    });
    const ext = applyDefaults<Service>(ServiceSchema, {
      spec: { type: 'ExternalName', externalName: 'db.example.com' },
    });
    expect(ext.spec?.ipFamilyPolicy).toBeUndefined();
    expect(ext.spec?.clusterIPs).toBeUndefined();
    expect(ext.spec?.internalTrafficPolicy).toBeUndefined();
    expect(np.spec?.allocateLoadBalancerNodePorts).toBeUndefined();
    const lb = applyDefaults<Service>(ServiceSchema, {
      spec: { type: 'LoadBalancer', ports: [{ port: 80 }] },
    });
    expect(lb.spec).toMatchObject({ allocateLoadBalancerNodePorts: true, internalTrafficPolicy: 'Cluster' });
    const kept = applyDefaults<Service>(ServiceSchema, {
      spec: {
        type: 'LoadBalancer',
        allocateLoadBalancerNodePorts: false,
        internalTrafficPolicy: 'Local',
        ports: [{ port: 80 }],
      },
    });
    expect(kept.spec).toMatchObject({ allocateLoadBalancerNodePorts: false, internalTrafficPolicy: 'Local' });
  });

  it('validates with Kubernetes messages', () => {
    expect(run(ServiceSpecSchema, { type: 'ClusterIP', ports: [] }, 'spec')).toEqual([
      'spec.ports: Required value',
    ]);
    expect(
      run(ServiceSpecSchema, { type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None'] }, 'spec'),
    ).toEqual([]);
    expect(
      run(ServicePortSchema, { port: 70000, protocol: 'TCP', targetPort: 70000 }, 'spec.ports[0]'),
    ).toEqual([
      'spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
    ]);
    expect(
      run(
        ServiceSpecSchema,
        {
          type: 'ClusterIP',
          ports: [
            { name: 'http', port: 80, protocol: 'TCP', nodePort: 30080 },
            { name: 'http', port: 80, protocol: 'TCP' },
            { port: 81, protocol: 'TCP' },
          ],
        },
        'spec',
      ),
    ).toEqual([
      'spec.ports[1].name: Duplicate value: "http"',
      'spec.ports[2].name: Required value',
      'spec.ports[1]: Duplicate value: {"port":80,"protocol":"TCP"}',
      "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
    ]);
    expect(run(ServiceSpecSchema, { type: 'ExternalName', externalName: '' }, 'spec')).toEqual([
      'spec.externalName: Required value',
    ]);
    expect(
      run(
        ServiceSpecSchema,
        { type: 'ClusterIP', ports: [{ port: 80, protocol: 'TCP' }], externalTrafficPolicy: 'Local' },
        'spec',
      ),
    ).toEqual([
      'spec.externalTrafficPolicy: Invalid value: "Local": ExternalTrafficPolicy can only be set on NodePort and LoadBalancer service',
    ]);
    expect(
      run(ServiceSpecSchema, { type: 'LoadBalancer', ports: [{ port: 10250, protocol: 'TCP' }] }, 'spec'),
    ).toEqual([
      'spec.ports[0]: Invalid value: 10250: may not expose port 10250 externally since it is used by kubelet',
    ]);
    expect(
      run(
        ServiceSpecSchema,
        { type: 'ClusterIP', ports: [{ port: 80 }], clusterIPs: ['10.0.0.300'] },
        'spec',
      ),
    ).toEqual([
      'spec.clusterIPs[0]: Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
  });

  it('keeps the cluster IP unless the service becomes an ExternalName service', () => {
    const old: Service = { spec: { type: 'ClusterIP', clusterIP: '10.96.0.10' } };
    expect(
      msgs(ServiceKind.validateUpdate!({ spec: { type: 'ClusterIP', clusterIP: '10.96.0.11' } }, old)),
    ).toEqual(['spec.clusterIP: Invalid value: "10.96.0.11": field is immutable']);
    expect(
      msgs(
        ServiceKind.validateUpdate!({ spec: { type: 'ExternalName', externalName: 'a.example.com' } }, old),
      ),
    ).toEqual([]);
    expect(
      msgs(ServiceKind.validateUpdate!({ spec: { type: 'NodePort', clusterIP: '10.96.0.10' } }, old)),
    ).toEqual([]);
  });

  it('prints TYPE CLUSTER-IP EXTERNAL-IP PORT(S) and the selector', () => {
    const svc: Service = {
      metadata: { name: 'web', creationTimestamp: created },
      spec: {
        type: 'NodePort',
        clusterIP: '10.96.0.10',
        clusterIPs: ['10.96.0.10'],
        selector: { tier: 'web', app: 'shop' },
        ports: [
          { port: 80, protocol: 'TCP' },
          { port: 443, nodePort: 30443, protocol: 'TCP' },
        ],
      },
    };
    expect(cells(ServiceKind, svc)).toEqual({
      Name: 'web',
      Type: 'NodePort',
      'Cluster-IP': '10.96.0.10',
      'External-IP': '<none>',
      'Port(s)': '80/TCP,443:30443/TCP',
      Age: '2d',
      Selector: 'app=shop,tier=web',
    });
    const lb: Service = {
      spec: {
        type: 'LoadBalancer',
        clusterIP: '10.0.0.1',
        clusterIPs: ['10.0.0.1'],
        externalIPs: ['1.2.3.4'],
      },
      status: { loadBalancer: { ingress: [{ ip: '5.6.7.8' }, { hostname: 'lb.example.com' }] } },
    };
    expect(cells(ServiceKind, lb)).toMatchObject({
      'Cluster-IP': '10.0.0.1',
      'External-IP': '5.6.7.8,lb.example.com,1.2.3.4',
      'Port(s)': '<none>',
      Selector: '<none>',
    });
    expect(cells(ServiceKind, { spec: { type: 'LoadBalancer' } })['External-IP']).toBe('<pending>');
    expect(
      cells(ServiceKind, { spec: { type: 'ExternalName', externalName: 'db.example.com' } }),
    ).toMatchObject({
      'Cluster-IP': '<none>',
      'External-IP': 'db.example.com',
    });
  });
});

describe('Endpoints', () => {
  it('has Kubernetes protobuf numbers, atomic structs and the TCP default', () => {
    expect(protos(EndpointAddressSchema)).toEqual({ ip: 1, hostname: 3, nodeName: 4, targetRef: 2 });
    expect(protos(EndpointPortSchema)).toEqual({ name: 1, port: 2, protocol: 3, appProtocol: 4 });
    expect(protos(EndpointSubsetSchema)).toEqual({ addresses: 1, notReadyAddresses: 2, ports: 3 });
    expect(meta(EndpointAddressSchema)['x-kubernetes-map-type']).toBe('atomic');
    const ep = applyDefaults<Endpoints>(EndpointsSchema, {
      subsets: [{ addresses: [{ ip: '10.1.0.1' }], ports: [{ port: 80 }] }],
    });
    expect(ep.subsets?.[0]?.ports?.[0]?.protocol).toBe('TCP');
  });

  it('validates subsets and addresses with Kubernetes messages', () => {
    expect(run(EndpointSubsetSchema, { ports: [{ port: 80 }] }, 'subsets[0]')).toEqual([
      'subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`',
    ]);
    expect(run(EndpointAddressSchema, { ip: '127.0.0.1' }, 'subsets[0].addresses[0]')).toEqual([
      'subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8)',
    ]);
    expect(run(EndpointAddressSchema, { ip: '169.254.1.1' }, 'a')).toEqual([
      'a.ip: Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16)',
    ]);
    expect(run(EndpointAddressSchema, { ip: '::1' }, 'a')).toEqual([
      'a.ip: Invalid value: "::1": may not be in the loopback range (127.0.0.0/8)',
    ]);
    expect(run(EndpointAddressSchema, { ip: '10.1.0.1', hostname: 'Web' }, 'a')[0]).toMatch(
      /^a\.hostname: Invalid value: "Web": a lowercase RFC 1123 label must consist of/,
    );
    expect(run(EndpointAddressSchema, { ip: '10.1.0.1' }, 'a')).toEqual([]);
    expect(run(EndpointPortSchema, { port: 0, protocol: 'TCP' }, 'p')).toEqual([
      'p.port: Invalid value: 0: must be between 1 and 65535, inclusive',
    ]);
  });

  it('prints up to three ip:port entries, then "+ N more..."', () => {
    const ep: Endpoints = {
      metadata: { name: 'web', creationTimestamp: created },
      subsets: [
        {
          addresses: [{ ip: '10.1.0.1' }, { ip: '10.1.0.2' }],
          ports: [
            { name: 'http', port: 80 },
            { name: 'https', port: 443 },
          ],
        },
        { addresses: [{ ip: 'fd00::1' }] },
      ],
    };
    expect(cells(EndpointsKind, ep)).toEqual({
      Name: 'web',
      Endpoints: '10.1.0.1:80,10.1.0.2:80,10.1.0.1:443 + 2 more...',
      Age: '2d',
    });
    expect(
      cells(EndpointsKind, { subsets: [{ addresses: [{ ip: 'fd00::1' }], ports: [{ port: 80 }] }] })
        .Endpoints,
    ).toBe('[fd00::1]:80');
    expect(cells(EndpointsKind, { metadata: { name: 'x' } }).Endpoints).toBe('<none>');
  });
});

describe('Secret', () => {
  it('has Kubernetes protobuf numbers', () => {
    expect(protos(SecretSchema)).toEqual({
      apiVersion: undefined,
      kind: undefined,
      metadata: 1,
      immutable: 5,
      data: 2,
      stringData: 4,
      type: 3,
    });
    expect(prop(SecretSchema, 'type')[OrchKeyword.immutable]).toBe(true);
  });

  it('defaults the type and merges stringData into data', () => {
    const s = applyDefaults<Secret>(SecretSchema, {
      metadata: { name: 's' },
      data: { user: Buffer.from('old').toString('base64'), keep: 'AA==' },
      stringData: { user: 'admin', pass: 'p@ss' },
    });
    expect(s).toEqual({
      metadata: { name: 's' },
      type: 'Opaque',
      data: { user: 'YWRtaW4=', keep: 'AA==', pass: 'cEBzcw==' },
    });
  });

  it('validates keys and type-specific data with Kubernetes messages', () => {
    expect(run(SecretSchema, { type: 'Opaque', data: { 'bad key': 'AA==', '..x': 'AA==' } })).toEqual([
      "data[bad key]: Invalid value: \"bad key\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
      'data[..x]: Invalid value: "..x": must not start with \'..\'',
    ]);
    expect(run(SecretSchema, { type: 'kubernetes.io/tls', data: { 'tls.crt': 'AA==' } })).toEqual([
      'data[tls.key]: Required value',
    ]);
    expect(run(SecretSchema, { type: 'kubernetes.io/basic-auth', data: {} })).toEqual([
      'data[%s][username]: Required value',
      'data[%s][password]: Required value',
    ]);
    expect(run(SecretSchema, { metadata: {}, type: 'kubernetes.io/service-account-token' })).toEqual([
      'metadata.annotations[kubernetes.io/service-account.name]: Required value',
    ]);
    expect(
      run(SecretSchema, {
        type: 'kubernetes.io/dockerconfigjson',
        data: { '.dockerconfigjson': Buffer.from('[]').toString('base64') },
      }),
    ).toEqual([
      'data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}',
    ]);
    const big = Buffer.alloc(1024 * 1024 + 1).toString('base64');
    expect(run(SecretSchema, { type: 'Opaque', data: { big } })).toEqual([
      'data: Too long: must have at most 1048576 bytes',
    ]);
  });

  it('keeps immutable secrets unchanged', () => {
    const old: Secret = { metadata: { name: 's' }, immutable: true, data: { a: 'AA==' } };
    expect(msgs(SecretKind.validateUpdate!({ ...old, data: { a: 'AQ==' } }, old))).toEqual([
      'data: Forbidden: field is immutable when `immutable` is set',
    ]);
    expect(msgs(SecretKind.validateUpdate!({ ...old, immutable: false }, old))).toEqual([
      'immutable: Forbidden: field is immutable when `immutable` is set',
    ]);
    expect(
      msgs(SecretKind.validateUpdate!({ ...old, metadata: { name: 's', labels: { a: 'b' } } }, old)),
    ).toEqual([]);
  });

  it('prints NAME TYPE DATA AGE and selects on type', () => {
    const s: Secret = {
      metadata: { name: 'tls', creationTimestamp: created },
      type: 'kubernetes.io/tls',
      data: { a: '', b: '' },
    };
    expect(cells(SecretKind, s)).toEqual({ Name: 'tls', Type: 'kubernetes.io/tls', Data: 2, Age: '2d' });
    expect(SecretKind.selectableFields!.type!(s)).toBe('kubernetes.io/tls');
  });
});

describe('ServiceAccount', () => {
  it('merges secrets by name and prints the secret count', () => {
    expect(protos(ServiceAccountSchema)).toMatchObject({
      secrets: 2,
      imagePullSecrets: 3,
      automountServiceAccountToken: 4,
    });
    expect(prop(ServiceAccountSchema, 'secrets')['x-kubernetes-patch-merge-key']).toBe('name');
    expect(prop(ServiceAccountSchema, 'secrets')['x-kubernetes-patch-strategy']).toBe('merge');
    expect(
      cells(ServiceAccountKind, {
        metadata: { name: 'default', creationTimestamp: created },
        secrets: [{ name: 'default-token-x' }],
      }),
    ).toEqual({ Name: 'default', Secrets: 1, Age: '2d' });
  });
});

describe('core/v1 Event', () => {
  it('has Kubernetes protobuf numbers', () => {
    expect(protos(EventSchema)).toEqual({
      apiVersion: undefined,
      kind: undefined,
      metadata: 1,
      involvedObject: 2,
      reason: 3,
      message: 4,
      source: 5,
      firstTimestamp: 6,
      lastTimestamp: 7,
      count: 8,
      type: 9,
      eventTime: 10,
      series: 11,
      action: 12,
      related: 13,
      reportingComponent: 14,
      reportingInstance: 15,
    });
    expect(meta(EventSchema.properties.eventTime)[OrchKeyword.special]).toBe('microTime');
  });

  const ev: Event = {
    metadata: { name: 'web-1.164', namespace: 'default' },
    involvedObject: {
      kind: 'Pod',
      name: 'web-1',
      namespace: 'default',
      fieldPath: 'spec.containers{web}',
      uid: 'u1',
    },
    reason: 'Pulled',
    message: '  Container image pulled \n',
    source: { component: 'kubelet', host: 'n1' },
    firstTimestamp: '2021-01-09T23:00:00Z',
    lastTimestamp: '2021-01-09T23:59:00Z',
    count: 3,
    type: 'Normal',
  };

  it('prints the event table of Kubernetes 1.20', () => {
    expect(cells(EventKind, ev)).toEqual({
      'Last Seen': '60s',
      Type: 'Normal',
      Reason: 'Pulled',
      Object: 'pod/web-1',
      Subobject: 'spec.containers{web}',
      Source: 'kubelet, n1',
      Message: 'Container image pulled',
      'First Seen': '60m',
      Count: 3,
      Name: 'web-1.164',
    });
    const series: Event = {
      metadata: { name: 'e' },
      involvedObject: { kind: 'Node' },
      eventTime: '2021-01-09T23:50:00.000000Z',
      series: { count: 7, lastObservedTime: '2021-01-09T23:58:00.000000Z' },
      reportingComponent: 'kubelet',
    };
    expect(cells(EventKind, series)).toMatchObject({
      'Last Seen': '2m',
      'First Seen': '10m',
      Count: 7,
      Object: 'node',
      // no source: the reporting controller (and instance) stand in for component (and host)
      Source: 'kubelet',
    });
    expect(cells(EventKind, { ...series, reportingInstance: 'kubelet-n1' })).toMatchObject({
      Source: 'kubelet, kubelet-n1',
    });
    expect(
      cells(EventKind, { ...series, source: { component: 'scheduler' }, reportingInstance: 'kubelet-n1' }),
    ).toMatchObject({ Source: 'scheduler, kubelet-n1' });
    expect(
      cells(EventKind, { metadata: { name: 'e' }, eventTime: '2021-01-09T23:50:00.000000Z' }),
    ).toMatchObject({
      'Last Seen': '10m',
      Count: 1,
    });
    expect(EventKind.columns!.filter((c) => !c.priority).map((c) => c.name)).toEqual([
      'Last Seen',
      'Type',
      'Reason',
      'Object',
      'Message',
    ]);
  });

  it('offers the event field selectors', () => {
    const fields = EventKind.selectableFields!;
    expect(Object.fromEntries(Object.keys(fields).map((k) => [k, fields[k]!(ev)]))).toEqual({
      'involvedObject.kind': 'Pod',
      'involvedObject.namespace': 'default',
      'involvedObject.name': 'web-1',
      'involvedObject.uid': 'u1',
      'involvedObject.apiVersion': '',
      'involvedObject.resourceVersion': '',
      'involvedObject.fieldPath': 'spec.containers{web}',
      reason: 'Pulled',
      reportingComponent: '',
      source: 'kubelet',
      type: 'Normal',
    });
  });

  it('validates namespaces and new-style fields as Kubernetes legacy validation does', () => {
    expect(run(EventSchema, ev)).toEqual([]);
    expect(run(EventSchema, { ...ev, metadata: { namespace: 'other' } })).toEqual([
      'involvedObject.namespace: Invalid value: "default": does not match event.namespace',
    ]);
    expect(
      run(EventSchema, {
        metadata: { namespace: 'default' },
        eventTime: '2021-01-09T23:50:00.000000Z',
        involvedObject: {},
      }),
    ).toEqual([
      'reportingController: Required value',
      expect.stringMatching(/^reportingController: Invalid value: "": name part must be non-empty/),
      expect.stringMatching(/^reportingController: Invalid value: "": name part must consist of/),
      'reportingInstance: Required value',
      'action: Required value',
      'reason: Required value',
    ]);
  });
});

describe('Binding', () => {
  it('requires a node target', () => {
    expect(protos(BindingSchema)).toMatchObject({ metadata: 1, target: 2 });
    expect(BindingSchema.required).toContain('target');
    expect(run(BindingSchema, { target: { kind: 'Pod' } })).toEqual([
      'target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>"',
      'target.name: Required value',
    ]);
    expect(run(BindingSchema, { target: { name: 'n1' } })).toEqual([]);
  });
});

describe('ResourceQuota', () => {
  it('validates scopes and quantities', () => {
    expect(protos(ResourceQuotaSpecSchema)).toEqual({ hard: 1, scopes: 2, scopeSelector: 3 });
    expect(
      run(
        ResourceQuotaSpecSchema,
        { hard: { pods: '-1' }, scopes: ['BestEffort', 'NotBestEffort', 'Forever'] },
        'spec',
      ),
    ).toEqual([
      'spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0',
      'spec.scopes: Invalid value: []string{"BestEffort", "NotBestEffort", "Forever"}: unsupported scope',
      'spec.scopes: Invalid value: []string{"BestEffort", "NotBestEffort", "Forever"}: conflicting scopes',
    ]);
  });

  it('prints REQUEST and LIMIT as used/hard per resource', () => {
    const q: ResourceQuota = {
      metadata: { name: 'compute', creationTimestamp: created },
      status: {
        hard: { 'requests.cpu': '2', pods: '10', 'limits.memory': '4Gi', 'limits.cpu': '4' },
        used: { 'requests.cpu': '500m', pods: '3', 'limits.cpu': '1' },
      },
    };
    expect(cells(ResourceQuotaKind, q)).toEqual({
      Name: 'compute',
      Age: '2d',
      Request: 'pods: 3/10, requests.cpu: 500m/2',
      Limit: 'limits.cpu: 1/4, limits.memory: 0/4Gi',
    });
  });
});

describe('LimitRange', () => {
  it('defaults container limits from max and requests from default and min', () => {
    const item = applyDefaults<Static<typeof LimitRangeItemSchema>>(LimitRangeItemSchema, {
      type: 'Container' as const,
      max: { cpu: '2', memory: '1Gi' },
      min: { cpu: '100m', 'ephemeral-storage': '1Gi' },
      default: { memory: '512Mi' },
    });
    expect(item.default).toEqual({ memory: '512Mi', cpu: '2' });
    expect(item.defaultRequest).toEqual({ memory: '512Mi', cpu: '2', 'ephemeral-storage': '1Gi' });
    const pod = applyDefaults<Static<typeof LimitRangeItemSchema>>(LimitRangeItemSchema, {
      type: 'Pod' as const,
      max: { cpu: '2' },
    });
    expect(pod.default).toBeUndefined();
  });

  it('validates with Kubernetes messages', () => {
    expect(run(LimitRangeItemSchema, { type: 'Pod', default: { cpu: '1' } }, 'spec.limits[0]')).toEqual([
      "spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'",
    ]);
    expect(
      run(
        LimitRangeItemSchema,
        { type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } },
        'spec.limits[0]',
      ),
    ).toEqual(['spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1']);
    expect(
      run(LimitRangeItemSchema, { type: 'PersistentVolumeClaim', max: { cpu: '1' } }, 'spec.limits[0]'),
    ).toEqual([
      'spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided',
    ]);
    expect(run(LimitRangeSpecSchema, { limits: [{ type: 'Pod' }, { type: 'Pod' }] }, 'spec')).toEqual([
      'spec.limits[1].type: Duplicate value: "Pod"',
    ]);
  });

  it('prints NAME CREATED AT', () => {
    expect(
      cells(LimitRangeKind, { metadata: { name: 'limits', creationTimestamp: '2021-01-08T10:20:30Z' } }),
    ).toEqual({
      Name: 'limits',
      'Created At': '2021-01-08T10:20:30Z',
    });
  });
});

describe('PersistentVolume', () => {
  it('inlines the volume source as message PersistentVolumeSource (protobuf field 2)', () => {
    const nfs = prop(PersistentVolumeSpecSchema, 'nfs');
    expect(nfs[OrchKeyword.proto]).toBe(5);
    expect(nfs[PROTO_EMBEDDED_KEYWORD]).toEqual({
      field: 'persistentVolumeSource',
      proto: 2,
      message: 'k8s.io.api.core.v1.PersistentVolumeSource',
    });
    expect(protos(PersistentVolumeSpecSchema)).toMatchObject({
      capacity: 1,
      accessModes: 3,
      claimRef: 4,
      persistentVolumeReclaimPolicy: 5,
      storageClassName: 6,
      mountOptions: 7,
      volumeMode: 8,
      nodeAffinity: 9,
      gcePersistentDisk: 1,
      hostPath: 3,
      local: 20,
      csi: 22,
    });
    expect(prop(PersistentVolumeSpecSchema, 'capacity')[PROTO_EMBEDDED_KEYWORD]).toBeUndefined();
  });

  it('defaults the reclaim policy, volume mode and phase', () => {
    const pv = applyDefaults<PersistentVolume>(PersistentVolumeSchema, {
      metadata: { name: 'pv1' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } },
    });
    expect(pv.spec).toMatchObject({
      persistentVolumeReclaimPolicy: 'Retain',
      volumeMode: 'Filesystem',
      hostPath: { path: '/data' },
    });
    expect(pv.status).toEqual({ phase: 'Pending' });
  });

  it('validates with Kubernetes messages', () => {
    expect(
      run(
        PersistentVolumeSpecSchema,
        { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] },
        'spec',
      ),
    ).toEqual(['spec: Required value: must specify a volume type']);
    expect(
      run(
        PersistentVolumeSpecSchema,
        {
          capacity: { cpu: '1' },
          accessModes: ['ReadWriteAll'],
          hostPath: { path: '/a' },
          nfs: { server: 's', path: '/' },
        },
        'spec',
      ),
    ).toEqual([
      'spec.accessModes: Unsupported value: "ReadWriteAll": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce"',
      'spec.capacity: Unsupported value: {"cpu":"1"}: supported values: "storage"',
      'spec.nfs: Forbidden: may not specify more than 1 volume type',
    ]);
    const old: PersistentVolume = { spec: { hostPath: { path: '/a' }, volumeMode: 'Filesystem' } };
    expect(
      msgs(
        PersistentVolumeKind.validateUpdate!(
          { spec: { hostPath: { path: '/b' }, volumeMode: 'Block' } },
          old,
        ),
      ),
    ).toEqual([
      'spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation',
      'volumeMode: Invalid value: "Block": field is immutable',
    ]);
  });

  it('prints the PV table with access mode abbreviations', () => {
    const pv: PersistentVolume = {
      metadata: { name: 'pv1', creationTimestamp: created },
      spec: {
        capacity: { storage: '10Gi' },
        accessModes: ['ReadWriteMany', 'ReadWriteOnce', 'ReadOnlyMany'],
        persistentVolumeReclaimPolicy: 'Retain',
        claimRef: { namespace: 'default', name: 'data' },
        storageClassName: 'standard',
        volumeMode: 'Filesystem',
      },
      status: { phase: 'Bound' },
    };
    expect(cells(PersistentVolumeKind, pv)).toEqual({
      Name: 'pv1',
      Capacity: '10Gi',
      'Access Modes': 'RWO,ROX,RWX',
      'Reclaim Policy': 'Retain',
      Status: 'Bound',
      Claim: 'default/data',
      StorageClass: 'standard',
      VolumeAttributesClass: '<unset>',
      Reason: '',
      Age: '2d',
      VolumeMode: 'Filesystem',
    });
    // Kubernetes 1.29's column order, VOLUMEATTRIBUTESCLASS after STORAGECLASS
    expect(PersistentVolumeKind.columns!.map((c) => c.name)).toEqual([
      'Name',
      'Capacity',
      'Access Modes',
      'Reclaim Policy',
      'Status',
      'Claim',
      'StorageClass',
      'VolumeAttributesClass',
      'Reason',
      'Age',
      'VolumeMode',
    ]);
    expect(accessModesString(['ReadWriteOncePod', 'ReadOnlyMany', 'ReadWriteOncePod'])).toBe('ROX,RWOP');
    expect(
      cells(PersistentVolumeKind, {
        metadata: {
          deletionTimestamp: created,
          annotations: { 'volume.beta.kubernetes.io/storage-class': 'old' },
        },
        status: { phase: 'Bound' },
      }),
    ).toMatchObject({
      Status: 'Terminating',
      StorageClass: 'old',
      Capacity: '0',
      VolumeMode: '<unset>',
      Claim: '',
    });
  });
});

describe('PersistentVolumeClaim', () => {
  it('has Kubernetes protobuf numbers and defaults', () => {
    expect(protos(PersistentVolumeClaimSpecSchema)).toEqual({
      accessModes: 1,
      selector: 4,
      resources: 2,
      volumeName: 3,
      storageClassName: 5,
      volumeMode: 6,
      dataSource: 7,
    });
    const pvc = applyDefaults<PersistentVolumeClaim>(PersistentVolumeClaimSchema, {
      metadata: { name: 'data' },
    });
    expect(pvc.spec).toEqual({ volumeMode: 'Filesystem' });
    expect(pvc.status).toEqual({ phase: 'Pending' });
  });

  it('validates with Kubernetes messages', () => {
    expect(run(PersistentVolumeClaimSpecSchema, {}, 'spec')).toEqual([
      'spec.accessModes: Required value: at least 1 access mode is required',
      'spec.resources[storage]: Required value',
    ]);
    expect(
      run(
        PersistentVolumeClaimSpecSchema,
        { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '0' } } },
        'spec',
      ),
    ).toEqual(['spec.resources[storage]: Invalid value: "0": must be greater than zero']);
    const old: PersistentVolumeClaim = {
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      status: { phase: 'Bound' },
    };
    const grown: PersistentVolumeClaim = {
      ...old,
      spec: { ...old.spec, volumeName: 'pv1', resources: { requests: { storage: '2Gi' } } },
    };
    expect(msgs(PersistentVolumeClaimKind.validateUpdate!(grown, old))).toEqual([]);
    // an update leaving an unbound claim's spec alone (a label, an owner) passes
    const unbound: PersistentVolumeClaim = { spec: { ...old.spec }, status: { phase: 'Pending' } };
    const labelled: PersistentVolumeClaim = { ...unbound, metadata: { labels: { app: 'db' } } };
    expect(msgs(PersistentVolumeClaimKind.validateUpdate!(labelled, unbound))).toEqual([]);
    const changed: PersistentVolumeClaim = { ...old, spec: { ...old.spec, accessModes: ['ReadWriteMany'] } };
    expect(msgs(PersistentVolumeClaimKind.validateUpdate!(changed, old))).toEqual([
      'spec: Forbidden: is immutable after creation except resources.requests for bound claims',
    ]);
    const shrunk: PersistentVolumeClaim = {
      ...old,
      spec: { ...old.spec, resources: { requests: { storage: '1Mi' } } },
    };
    expect(msgs(PersistentVolumeClaimKind.validateUpdate!(shrunk, old))).toEqual([
      'spec.resources.requests.storage: Forbidden: field can not be less than previous value',
    ]);
    // with ExpandPersistentVolumes off the storage request is as fixed as the rest of the spec
    const gatesOff = (gate: string) => gate !== 'ExpandPersistentVolumes';
    expect(msgs(PersistentVolumeClaimKind.validateUpdate!(grown, old, gatesOff))).toEqual([
      'spec: Forbidden: field is immutable after creation',
    ]);
    expect(msgs(PersistentVolumeClaimKind.validateUpdate!(labelled, unbound, gatesOff))).toEqual([]);
  });

  it('prints capacity and access modes of bound claims only', () => {
    const bound: PersistentVolumeClaim = {
      metadata: { name: 'data', creationTimestamp: created },
      spec: {
        volumeName: 'pv1',
        storageClassName: 'standard',
        volumeMode: 'Filesystem',
        resources: { requests: { storage: '1Gi' } },
      },
      status: { phase: 'Bound', capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOnce'] },
    };
    expect(cells(PersistentVolumeClaimKind, bound)).toEqual({
      Name: 'data',
      Status: 'Bound',
      Volume: 'pv1',
      Capacity: '10Gi',
      'Access Modes': 'RWO',
      StorageClass: 'standard',
      VolumeAttributesClass: '<unset>',
      Age: '2d',
      VolumeMode: 'Filesystem',
    });
    expect(PersistentVolumeClaimKind.columns!.map((c) => c.name)).toEqual([
      'Name',
      'Status',
      'Volume',
      'Capacity',
      'Access Modes',
      'StorageClass',
      'VolumeAttributesClass',
      'Age',
      'VolumeMode',
    ]);
    expect(cells(PersistentVolumeClaimKind, { spec: {}, status: { phase: 'Pending' } })).toMatchObject({
      Status: 'Pending',
      Capacity: '',
      'Access Modes': '',
    });
    expect(PersistentVolumeClaimKind.selectableFields!.name!(bound)).toBe('data');
  });
});
