import type { Static } from '@sinclair/typebox';
import {
  bool,
  field,
  int32,
  list,
  oneOf,
  required,
  str,
  stringMap,
  struct,
  type StructSchema,
} from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  parseIPSloppy,
} from '../../util/names';
import {
  child,
  duplicate,
  invalid,
  notSupported,
  required as requiredError,
  tooMany,
  type FieldError,
} from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';
import { ObjectReferenceSchema } from '../core/object-reference';
import { PORT_PROTOCOLS } from '../core/service';

const discovery = (name: string): string => `io.k8s.api.discovery.v1beta1.${name}`;

export const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'] as const;
/** Limits of Kubernetes' EndpointSlice validation. */
export const ENDPOINT_SLICE_LIMITS = {
  endpoints: 1000,
  addresses: 100,
  ports: 20000,
  topologyLabels: 16,
} as const;

export const EndpointConditionsSchema = struct(discovery('EndpointConditions'), {
  ready: bool({
    proto: 1,
    description: 'Whether the endpoint is ready to receive traffic; unknown when unset.',
  }),
  serving: bool({ proto: 2, description: 'Like ready, but also set for terminating endpoints.' }),
  terminating: bool({ proto: 3, description: 'Whether the endpoint is terminating.' }),
});

export const ForZoneSchema = struct(discovery('ForZone'), {
  name: required(str({ proto: 1, description: 'Name of the zone.' })),
});

export const EndpointHintsSchema = struct(discovery('EndpointHints'), {
  forZones: list(ForZoneSchema, {
    proto: 1,
    listType: 'atomic',
    description: 'Zones that should consume this endpoint.',
  }),
});

export const EndpointSliceEndpointSchema = struct(discovery('Endpoint'), {
  addresses: required(
    list(str(), {
      proto: 1,
      listType: 'set',
      description: 'Addresses of the endpoint, of the slice addressType (1 to 100).',
    }),
  ),
  conditions: field(EndpointConditionsSchema, {
    proto: 2,
    description: 'Current conditions of the endpoint.',
  }),
  hostname: str({ proto: 3, description: 'Hostname of the endpoint (a DNS label).' }),
  targetRef: field(ObjectReferenceSchema, { proto: 4, description: 'The object backing the endpoint.' }),
  topology: stringMap({
    proto: 5,
    description: 'Topology of the endpoint as label pairs (deprecated, at most 16).',
  }),
  nodeName: str({ proto: 6, description: 'Node hosting the endpoint.' }),
  hints: field(EndpointHintsSchema, { proto: 7, description: 'How the endpoint should be consumed.' }),
});
export type EndpointSliceEndpoint = Static<typeof EndpointSliceEndpointSchema>;

export const EndpointSlicePortSchema = struct(
  discovery('EndpointPort'),
  {
    name: str({
      proto: 1,
      default: '',
      description: 'Name of the port, unique in the slice (empty or a DNS label).',
    }),
    protocol: str({ proto: 2, default: 'TCP', description: 'IP protocol: TCP (default), UDP or SCTP.' }),
    port: int32({ proto: 3, description: 'Port number; unset means all ports.' }),
    appProtocol: str({ proto: 4, description: 'Application protocol of the port (a qualified name).' }),
  },
  { mapType: 'atomic' },
);
export type EndpointSlicePort = Static<typeof EndpointSlicePortSchema>;

const endpointSliceFields = {
  ...typeMeta(),
  metadata: objectMeta(),
  addressType: required(
    oneOf(ADDRESS_TYPES, {
      proto: 4,
      immutable: true,
      description: 'Type of the addresses: IPv4, IPv6 or FQDN.',
    }),
  ),
  endpoints: list(EndpointSliceEndpointSchema, {
    proto: 2,
    listType: 'atomic',
    description: 'Endpoints of the slice (at most 1000).',
  }),
  ports: list(EndpointSlicePortSchema, {
    proto: 3,
    listType: 'atomic',
    description: 'Ports of every endpoint (unique names).',
  }),
};
type EndpointSliceValue = Static<StructSchema<typeof endpointSliceFields>>;

/** Kubernetes' IsFullyQualifiedDomainName. */
function validateFQDN(name: string, path: string): FieldError[] {
  if (name === '') return [requiredError(path, '')];
  const trimmed = name.endsWith('.') ? name.slice(0, -1) : name;
  const subdomain = isDNS1123Subdomain(trimmed);
  if (subdomain.length) return [invalid(path, trimmed, subdomain.join(','))];
  const labels = trimmed.split('.');
  if (labels.length < 2)
    return [invalid(path, trimmed, 'should be a domain with at least two segments separated by dots')];
  for (const label of labels) {
    const errs = isDNS1123Label(label);
    if (errs.length) return [invalid(path, label, errs.join(','))];
  }
  return [];
}

function validateAddress(address: string, type: string, path: string): FieldError[] {
  switch (type) {
    case 'IPv4':
      return parseIPSloppy(address) === 4 ? [] : [invalid(path, address, 'must be a valid IPv4 address')];
    case 'IPv6':
      return parseIPSloppy(address) === 6 ? [] : [invalid(path, address, 'must be a valid IPv6 address')];
    case 'FQDN':
      return validateFQDN(address, path);
    default:
      return [];
  }
}

function validateEndpoints(slice: EndpointSliceValue): FieldError[] {
  const endpoints = slice.endpoints ?? [];
  if (endpoints.length > ENDPOINT_SLICE_LIMITS.endpoints)
    return [tooMany('endpoints', endpoints.length, ENDPOINT_SLICE_LIMITS.endpoints)];
  const errors: FieldError[] = [];
  endpoints.forEach((ep, i) => {
    const path = child('endpoints', i);
    const addressPath = child(path, 'addresses');
    const addresses = ep.addresses ?? [];
    if (addresses.length === 0) errors.push(requiredError(addressPath, 'must contain at least 1 address'));
    else if (addresses.length > ENDPOINT_SLICE_LIMITS.addresses) {
      errors.push(tooMany(addressPath, addresses.length, ENDPOINT_SLICE_LIMITS.addresses));
    }
    addresses.forEach((a, j) => errors.push(...validateAddress(a, slice.addressType, child(addressPath, j))));
    if (ep.nodeName !== undefined) {
      errors.push(
        ...isDNS1123Subdomain(ep.nodeName).map((msg) => invalid(child(path, 'nodeName'), ep.nodeName, msg)),
      );
    }
    const topologyPath = child(path, 'topology');
    const topology = ep.topology ?? {};
    if (Object.keys(topology).length > ENDPOINT_SLICE_LIMITS.topologyLabels) {
      errors.push(tooMany(topologyPath, Object.keys(topology).length, ENDPOINT_SLICE_LIMITS.topologyLabels));
    }
    for (const [k, v] of Object.entries(topology)) {
      errors.push(...isQualifiedName(k).map((msg) => invalid(topologyPath, k, msg)));
      errors.push(...isValidLabelValue(v).map((msg) => invalid(topologyPath, v, msg)));
    }
    if (ep.hostname !== undefined) {
      errors.push(
        ...isDNS1123Label(ep.hostname).map((msg) => invalid(child(path, 'hostname'), ep.hostname, msg)),
      );
    }
  });
  return errors;
}

function validatePorts(ports: readonly EndpointSlicePort[]): FieldError[] {
  if (ports.length > ENDPOINT_SLICE_LIMITS.ports)
    return [tooMany('ports', ports.length, ENDPOINT_SLICE_LIMITS.ports)];
  const errors: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const path = child('ports', i);
    const name = p.name ?? '';
    if (name) errors.push(...isDNS1123Label(name).map((msg) => invalid(child(path, 'name'), name, msg)));
    if (names.has(name)) errors.push(duplicate(child(path, 'name'), name));
    names.add(name);
    if (p.protocol === undefined) errors.push(requiredError(child(path, 'protocol'), ''));
    else if (!(PORT_PROTOCOLS as readonly string[]).includes(p.protocol)) {
      errors.push(notSupported(child(path, 'protocol'), p.protocol, PORT_PROTOCOLS));
    }
    if (p.appProtocol !== undefined) {
      errors.push(
        ...isQualifiedName(p.appProtocol).map((msg) =>
          invalid(child(path, 'appProtocol'), p.appProtocol, msg),
        ),
      );
    }
  });
  return errors;
}

export const EndpointSliceSchema = struct(discovery('EndpointSlice'), endpointSliceFields, {
  description:
    "A subset of the network endpoints of a service; together a service's slices hold all of them.",
  validate: (slice): FieldError[] => [...validateEndpoints(slice), ...validatePorts(slice.ports ?? [])],
});
export type EndpointSlice = Static<typeof EndpointSliceSchema>;

const MAX_SHOWN = 3;

/** Kubernetes' listWithMoreString: up to three items, then " + N more...", "<unset>" when empty. */
function listWithMore(items: readonly string[]): string {
  const shown = items.slice(0, MAX_SHOWN).join(',');
  if (items.length > MAX_SHOWN) return `${shown} + ${items.length - MAX_SHOWN} more...`;
  return shown === '' ? '<unset>' : shown;
}

/** The PORTS cell: port numbers, the port name when the number is unset, "*" for all ports. */
export function formatSlicePorts(ports: readonly EndpointSlicePort[] | undefined): string {
  return listWithMore(
    (ports ?? []).map((p) => (p.port !== undefined ? String(p.port) : p.name !== undefined ? p.name : '*')),
  );
}

/** The ENDPOINTS cell: addresses of all endpoints. */
export function formatSliceEndpoints(endpoints: readonly EndpointSliceEndpoint[] | undefined): string {
  return listWithMore((endpoints ?? []).flatMap((e) => e.addresses ?? []));
}

export const EndpointSliceKind = defineKind({
  group: 'discovery.k8s.io',
  versions: ['v1beta1'],
  kind: 'EndpointSlice',
  plural: 'endpointslices',
  singular: 'endpointslice',
  namespaced: true,
  schema: EndpointSliceSchema,
  columns: [
    nameColumn(),
    {
      name: 'AddressType',
      type: 'string',
      description: 'Type of the addresses.',
      cell: (s) => s.addressType ?? '',
    },
    {
      name: 'Ports',
      type: 'string',
      description: 'Ports of the endpoints.',
      cell: (s) => formatSlicePorts(s.ports),
    },
    {
      name: 'Endpoints',
      type: 'string',
      description: 'Addresses of the endpoints.',
      cell: (s) => formatSliceEndpoints(s.endpoints),
    },
    ageColumn(),
  ],
});
