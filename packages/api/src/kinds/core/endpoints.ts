import { BlockList } from 'node:net';
import type { Static } from '@sinclair/typebox';
import { field, int32, list, str, struct } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import {
  isDNS1123Subdomain,
  isQualifiedName,
  isValidIP,
  isValidPortNum,
  parseIPSloppy,
} from '../../util/names';
import { child, invalid, required, type FieldError } from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';
import { ObjectReferenceSchema } from './object-reference';
import { PORT_PROTOCOLS, validateDNS1123Label } from './service';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;

function blockList(v4: readonly string[], v6: readonly string[]): BlockList {
  const list = new BlockList();
  for (const cidr of v4) list.addSubnet(cidr.split('/')[0]!, Number(cidr.split('/')[1]), 'ipv4');
  for (const cidr of v6) list.addSubnet(cidr.split('/')[0]!, Number(cidr.split('/')[1]), 'ipv6');
  return list;
}

/** Ranges endpoint addresses may not be in, with Kubernetes' messages (validateNonSpecialIP). */
const specialRanges: readonly [BlockList, string][] = [
  [blockList(['0.0.0.0/32'], ['::/128']), 'may not be unspecified (0.0.0.0)'],
  [blockList(['127.0.0.0/8'], ['::1/128']), 'may not be in the loopback range (127.0.0.0/8)'],
  [blockList(['169.254.0.0/16'], ['fe80::/10']), 'may not be in the link-local range (169.254.0.0/16)'],
  [blockList(['224.0.0.0/24'], ['ff02::/16']), 'may not be in the link-local multicast range (224.0.0.0/24)'],
];

/** Kubernetes' validateNonSpecialIP: endpoints may not be unspecified, loopback or link-local. */
export function validateNonSpecialIP(ip: string, path: string): FieldError[] {
  const family = parseIPSloppy(ip);
  if (family === undefined) return [invalid(path, ip, 'must be a valid IP address')];
  let address = family === 4 ? ip.split('.').map(Number).join('.') : ip;
  let type: 'ipv4' | 'ipv6' = family === 4 ? 'ipv4' : 'ipv6';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) {
    address = mapped[1]!;
    type = 'ipv4';
  }
  return specialRanges.filter(([list]) => list.check(address, type)).map(([, msg]) => invalid(path, ip, msg));
}

export const EndpointAddressSchema = struct(
  core('EndpointAddress'),
  {
    ip: str({ proto: 1, description: 'IP of the endpoint (not loopback or link-local).' }),
    hostname: str({ proto: 3, description: 'Hostname of the endpoint.' }),
    nodeName: str({ proto: 4, description: 'Node hosting the endpoint.' }),
    targetRef: field(ObjectReferenceSchema, { proto: 2, description: 'Object providing the endpoint.' }),
  },
  {
    mapType: 'atomic',
    validate: (addr, path) => {
      const ip = addr.ip ?? '';
      const ipPath = child(path, 'ip');
      const errors: FieldError[] = isValidIP(ip).map((msg) => invalid(ipPath, ip, msg));
      if (addr.hostname) errors.push(...validateDNS1123Label(addr.hostname, child(path, 'hostname')));
      if (addr.nodeName !== undefined) {
        errors.push(
          ...isDNS1123Subdomain(addr.nodeName).map((msg) =>
            invalid(child(path, 'nodeName'), addr.nodeName, msg),
          ),
        );
      }
      errors.push(...validateNonSpecialIP(ip, ipPath));
      return errors;
    },
  },
);
export type EndpointAddress = Static<typeof EndpointAddressSchema>;

export const EndpointPortSchema = struct(
  core('EndpointPort'),
  {
    name: str({ proto: 1, description: "Name of the port, matching the service port's name." }),
    port: int32({ proto: 2, description: 'Port number of the endpoint.' }),
    protocol: str({
      proto: 3,
      enum: PORT_PROTOCOLS,
      default: 'TCP',
      description: 'IP protocol: TCP, UDP or SCTP.',
    }),
    appProtocol: str({ proto: 4, description: 'Application protocol of the port (a qualified name).' }),
  },
  {
    mapType: 'atomic',
    validate: (port, path) => {
      const errors: FieldError[] = [];
      if (port.name) errors.push(...validateDNS1123Label(port.name, child(path, 'name')));
      errors.push(
        ...isValidPortNum(port.port ?? 0).map((msg) => invalid(child(path, 'port'), port.port ?? 0, msg)),
      );
      if (port.appProtocol !== undefined) {
        errors.push(
          ...isQualifiedName(port.appProtocol).map((msg) =>
            invalid(child(path, 'appProtocol'), port.appProtocol, msg),
          ),
        );
      }
      return errors;
    },
  },
);
export type EndpointPort = Static<typeof EndpointPortSchema>;

export const EndpointSubsetSchema = struct(
  core('EndpointSubset'),
  {
    addresses: list(EndpointAddressSchema, { proto: 1, description: 'Ready addresses offering the ports.' }),
    notReadyAddresses: list(EndpointAddressSchema, {
      proto: 2,
      description: 'Addresses offering the ports that are not ready yet.',
    }),
    ports: list(EndpointPortSchema, { proto: 3, description: 'Ports available on the addresses.' }),
  },
  {
    validate: (ss, path) => {
      const errors: FieldError[] = [];
      if (!ss.addresses?.length && !ss.notReadyAddresses?.length) {
        errors.push(required(path, 'must specify `addresses` or `notReadyAddresses`'));
      }
      const ports = ss.ports ?? [];
      ports.forEach((p, i) => {
        if (ports.length > 1 && !p.name)
          errors.push(required(child(child(child(path, 'ports'), i), 'name'), ''));
      });
      return errors;
    },
  },
);
export type EndpointSubset = Static<typeof EndpointSubsetSchema>;

export const EndpointsSchema = struct(
  core('Endpoints'),
  {
    ...typeMeta(),
    metadata: objectMeta(),
    subsets: list(EndpointSubsetSchema, {
      proto: 2,
      description: 'Sets of addresses and ports of the service.',
    }),
  },
  { description: 'The network addresses and ports that implement a service.' },
);
export type Endpoints = Static<typeof EndpointsSchema>;

/** host:port as Go's net.JoinHostPort writes it (IPv6 hosts in brackets). */
function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

const MAX_SHOWN = 3;

/** Kubernetes' formatEndpoints: up to three "ip:port" entries, then " + N more...". */
export function formatEndpoints(ep: Endpoints): string {
  const subsets = ep.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const shown: string[] = [];
  let count = 0;
  for (const ss of subsets) {
    const addresses = ss.addresses ?? [];
    const entries = ss.ports?.length
      ? ss.ports.flatMap((p) => addresses.map((a) => joinHostPort(a.ip ?? '', p.port ?? 0)))
      : addresses.map((a) => a.ip ?? '');
    for (const e of entries) {
      if (shown.length < MAX_SHOWN) shown.push(e);
      count++;
    }
  }
  const joined = shown.join(',');
  return count > MAX_SHOWN ? `${joined} + ${count - MAX_SHOWN} more...` : joined;
}

export const EndpointsKind = defineKind({
  group: '',
  versions: ['v1'],
  kind: 'Endpoints',
  plural: 'endpoints',
  singular: 'endpoints',
  shortNames: ['ep'],
  namespaced: true,
  schema: EndpointsSchema,
  columns: [
    nameColumn(),
    {
      name: 'Endpoints',
      type: 'string',
      description: 'Addresses and ports of the endpoints.',
      cell: formatEndpoints,
    },
    ageColumn(),
  ],
});
