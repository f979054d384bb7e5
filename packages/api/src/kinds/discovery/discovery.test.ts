import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword, structHooks } from '../../schema/fields';
import { errorMessage, type FieldError } from '../../validation/field-error';
import {
  discoveryKinds,
  EndpointConditionsSchema,
  EndpointSliceEndpointSchema,
  EndpointSliceKind,
  EndpointSlicePortSchema,
  EndpointSliceSchema,
  type EndpointSlice,
} from './index';

type Node = Record<string, unknown>;
const node = (s: TSchema): Node => s as unknown as Node;
const protos = (s: { properties: Record<string, TSchema> }): Record<string, unknown> =>
  Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, node(v)[OrchKeyword.proto]]));
const run = (value: unknown): string[] =>
  (structHooks(EndpointSliceSchema)!.validate!(value, '', { root: value }) as FieldError[]).map(errorMessage);

describe('discovery.k8s.io/v1beta1 EndpointSlice', () => {
  it('is declared as Kubernetes serves it', () => {
    expect(discoveryKinds).toEqual([EndpointSliceKind]);
    expect(EndpointSliceKind).toMatchObject({
      group: 'discovery.k8s.io',
      versions: ['v1beta1'],
      plural: 'endpointslices',
      namespaced: true,
    });
  });

  it('has Kubernetes protobuf numbers, list types and defaults', () => {
    expect(protos(EndpointSliceSchema)).toEqual({
      apiVersion: undefined,
      kind: undefined,
      metadata: 1,
      addressType: 4,
      endpoints: 2,
      ports: 3,
    });
    expect(protos(EndpointSliceEndpointSchema)).toEqual({
      addresses: 1,
      conditions: 2,
      hostname: 3,
      targetRef: 4,
      topology: 5,
      nodeName: 6,
      hints: 7,
    });
    expect(protos(EndpointConditionsSchema)).toEqual({ ready: 1, serving: 2, terminating: 3 });
    expect(protos(EndpointSlicePortSchema)).toEqual({ name: 1, protocol: 2, port: 3, appProtocol: 4 });
    expect(EndpointSliceSchema.required).toEqual(['addressType']);
    expect(node(EndpointSliceSchema.properties.addressType)).toMatchObject({
      enum: ['FQDN', 'IPv4', 'IPv6'],
      [OrchKeyword.immutable]: true,
    });
    expect(node(EndpointSliceSchema.properties.endpoints)['x-kubernetes-list-type']).toBe('atomic');
    expect(node(EndpointSliceSchema.properties.ports)['x-kubernetes-list-type']).toBe('atomic');
    expect(node(EndpointSliceEndpointSchema.properties.addresses)['x-kubernetes-list-type']).toBe('set');
    expect(node(EndpointSlicePortSchema.properties.protocol).default).toBe('TCP');
    expect(node(EndpointSlicePortSchema.properties.name).default).toBe('');
  });

  it('validates with Kubernetes messages', () => {
    const ok: EndpointSlice = {
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.1.0.1'], conditions: { ready: true }, hostname: 'web-0' }],
      ports: [{ name: 'http', protocol: 'TCP', port: 80 }],
    };
    expect(run(ok)).toEqual([]);
    expect(
      run({
        addressType: 'IPv4',
        endpoints: [{ addresses: [] }, { addresses: ['fd00::1'], hostname: 'Web' }],
        ports: [
          { name: 'http', protocol: 'TCP', port: 80 },
          { name: 'http', protocol: 'ICMP', port: 81 },
        ],
      }),
    ).toEqual([
      'endpoints[0].addresses: Required value: must contain at least 1 address',
      'endpoints[1].addresses[0]: Invalid value: "fd00::1": must be a valid IPv4 address',
      expect.stringMatching(/^endpoints\[1\]\.hostname: Invalid value: "Web": a lowercase RFC 1123 label/),
      'ports[1].name: Duplicate value: "http"',
      'ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
    ]);
    expect(
      run({ addressType: 'FQDN', endpoints: [{ addresses: ['localhost', 'db.example.com.'] }] }),
    ).toEqual([
      'endpoints[0].addresses[0]: Invalid value: "localhost": should be a domain with at least two segments separated by dots',
    ]);
    const many = {
      addressType: 'IPv6',
      endpoints: [{ addresses: Array.from({ length: 101 }, (_, i) => `fd00::${i + 1}`) }],
    };
    expect(run(many)).toEqual(['endpoints[0].addresses: Too many: 101: must have at most 100 items']);
  });

  it('prints ADDRESSTYPE PORTS ENDPOINTS with "+ N more..."', () => {
    const slice: EndpointSlice = {
      metadata: { name: 'web-abc', creationTimestamp: '2021-01-08T00:00:00Z' },
      addressType: 'IPv4',
      endpoints: [
        { addresses: ['10.1.0.1', '10.1.0.2'] },
        { addresses: ['10.1.0.3'] },
        { addresses: ['10.1.0.4', '10.1.0.5'] },
      ],
      ports: [{ name: 'http', port: 80 }, { name: 'all' }],
    };
    const now = new Date('2021-01-10T00:00:00Z');
    expect(Object.fromEntries(EndpointSliceKind.columns!.map((c) => [c.name, c.cell(slice, now)]))).toEqual({
      Name: 'web-abc',
      AddressType: 'IPv4',
      Ports: '80,all',
      Endpoints: '10.1.0.1,10.1.0.2,10.1.0.3 + 2 more...',
      Age: '2d',
    });
    const empty = Object.fromEntries(
      EndpointSliceKind.columns!.map((c) => [c.name, c.cell({ addressType: 'IPv6', ports: [{}] }, now)]),
    );
    expect(empty).toMatchObject({ Ports: '*', Endpoints: '<unset>' });
  });
});
