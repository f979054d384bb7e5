import type { Static } from '@sinclair/typebox';
import { field, inlined, int32, list, str, struct } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import {
  isDNS1035Label,
  isDNS1123Subdomain,
  isValidIP,
  isValidPathSegmentName,
  isValidPortName,
  isValidPortNum,
  isWildcardDNS1123Subdomain,
  parseIPSloppy,
} from '../../util/names';
import {
  child,
  GoSyntax,
  invalid,
  notSupported,
  required,
  type FieldError,
} from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';
import { TypedLocalObjectReferenceSchema } from '../core/object-reference';
import { PORT_PROTOCOLS } from '../core/service';

const networking = (name: string): string => `io.k8s.api.networking.v1.${name}`;

/** How a path of an HTTP rule matches request paths. */
export const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'] as const;

/** The annotation that named an Ingress's class before spec.ingressClassName. */
export const INGRESS_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';

export const ServiceBackendPortSchema = struct(
  networking('ServiceBackendPort'),
  {
    name: str({ proto: 1, omitZero: true, description: 'Name of the port on the service; or number.' }),
    number: int32({ proto: 2, omitZero: true, description: 'Number of the port on the service; or name.' }),
  },
  { mapType: 'atomic' },
);

export const IngressServiceBackendSchema = struct(networking('IngressServiceBackend'), {
  name: str({ proto: 1, description: 'The service, in the namespace of the Ingress.' }),
  port: field(ServiceBackendPortSchema, { proto: 2, description: 'Port of the service, by name or number.' }),
});

export const IngressBackendSchema = struct(networking('IngressBackend'), {
  service: field(IngressServiceBackendSchema, {
    proto: 4,
    description: 'A service as the backend; or resource.',
  }),
  resource: field(TypedLocalObjectReferenceSchema, {
    proto: 3,
    description: 'An object in the namespace of the Ingress as the backend; or service.',
  }),
});
export type IngressBackend = Static<typeof IngressBackendSchema>;

export const HTTPIngressPathSchema = struct(networking('HTTPIngressPath'), {
  path: str({
    proto: 1,
    omitZero: true,
    description: 'Matched against the path of a request; absolute, required for Exact and Prefix.',
  }),
  pathType: str({
    proto: 3,
    description: 'How the path matches: Exact, Prefix (by path elements) or ImplementationSpecific.',
  }),
  backend: field(IngressBackendSchema, { proto: 2, description: 'Where matching requests go.' }),
});

export const HTTPIngressRuleValueSchema = struct(networking('HTTPIngressRuleValue'), {
  paths: list(HTTPIngressPathSchema, {
    proto: 1,
    listType: 'atomic',
    description: 'Paths mapped to backends.',
  }),
});

export const IngressRuleSchema = struct(networking('IngressRule'), {
  host: str({
    proto: 1,
    omitZero: true,
    description: 'A DNS name, or a wildcard (*.example.com); unset for every host.',
  }),
  ...inlined(
    { field: 'ingressRuleValue', proto: 2, message: 'k8s.io.api.networking.v1.IngressRuleValue' },
    {
      http: field(HTTPIngressRuleValueSchema, { proto: 1, description: 'HTTP paths of the host.' }),
    },
  ),
});
export type IngressRule = Static<typeof IngressRuleSchema>;

export const IngressTLSSchema = struct(networking('IngressTLS'), {
  hosts: list(str(), {
    proto: 1,
    listType: 'atomic',
    description: 'Hosts of the certificate.',
  }),
  secretName: str({
    proto: 2,
    omitZero: true,
    description: 'Secret holding the certificate and key that terminate TLS on port 443.',
  }),
});
export type IngressTLS = Static<typeof IngressTLSSchema>;

const invalidPathSequences = ['//', '/./', '/../', '%2f', '%2F'];
const invalidPathSuffixes = ['/..', '/.'];

/** Kubernetes' rule for a host of a rule or of TLS: a DNS subdomain, or a wildcard one. */
function validateHost(host: string, path: string): FieldError[] {
  const check = host.includes('*') ? isWildcardDNS1123Subdomain : isDNS1123Subdomain;
  return check(host).map((msg) => invalid(path, host, msg));
}

/** Kubernetes' rule for a typed reference to an object (a backend's resource, a class's parameters). */
export function validateTypedReference(
  ref: { apiGroup?: string; kind?: string; name?: string },
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  if (ref.apiGroup !== undefined) {
    for (const msg of isDNS1123Subdomain(ref.apiGroup))
      errs.push(invalid(child(path, 'apiGroup'), ref.apiGroup, msg));
  }
  for (const name of ['kind', 'name'] as const) {
    const value = ref[name] ?? '';
    if (value === '') errs.push(required(child(path, name), `${name} is required`));
    else for (const msg of isValidPathSegmentName(value)) errs.push(invalid(child(path, name), value, msg));
  }
  return errs;
}

function validateBackend(backend: IngressBackend, path: string): FieldError[] {
  const { service, resource } = backend;
  if (service && resource) return [invalid(path, '', 'cannot set both resource and service backends')];
  if (resource) return validateTypedReference(resource, child(path, 'resource'));
  if (!service) return [invalid(path, '', 'resource or service backend is required')];
  const at = child(path, 'service');
  const errs: FieldError[] = [];
  const name = service.name ?? '';
  if (name === '') errs.push(required(child(at, 'name')));
  else for (const msg of isDNS1035Label(name)) errs.push(invalid(child(at, 'name'), name, msg));
  const portName = service.port?.name ?? '';
  const portNumber = service.port?.number ?? 0;
  const port = child(at, 'port');
  if (portName && portNumber) errs.push(invalid(path, '', 'cannot set both port name & port number'));
  else if (portName)
    for (const msg of isValidPortName(portName)) errs.push(invalid(child(port, 'name'), portName, msg));
  else if (portNumber)
    for (const msg of isValidPortNum(portNumber)) errs.push(invalid(child(port, 'number'), portNumber, msg));
  else errs.push(required(path, 'port name or number is required'));
  return errs;
}

function validatePath(p: Static<typeof HTTPIngressPathSchema>, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const path = p.path ?? '';
  const pathAt = child(at, 'path');
  if (p.pathType === undefined) return [required(child(at, 'pathType'), 'pathType must be specified')];
  switch (p.pathType) {
    case 'Exact':
    case 'Prefix':
      if (!path.startsWith('/')) errs.push(invalid(pathAt, path, 'must be an absolute path'));
      for (const seq of invalidPathSequences)
        if (path.includes(seq)) errs.push(invalid(pathAt, path, `must not contain '${seq}'`));
      for (const suffix of invalidPathSuffixes)
        if (path.endsWith(suffix)) errs.push(invalid(pathAt, path, `cannot end with '${suffix}'`));
      break;
    case 'ImplementationSpecific':
      if (path !== '' && !path.startsWith('/')) errs.push(invalid(pathAt, path, 'must be an absolute path'));
      break;
    default:
      errs.push(notSupported(child(at, 'pathType'), p.pathType, PATH_TYPES));
  }
  return [...errs, ...validateBackend(p.backend ?? {}, child(at, 'backend'))];
}

function validateRule(rule: IngressRule, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const host = rule.host ?? '';
  if (host !== '') {
    if (parseIPSloppy(host) !== undefined)
      errs.push(invalid(child(at, 'host'), host, 'must be a DNS name, not an IP address'));
    errs.push(...validateHost(host, child(at, 'host')));
  }
  if (rule.http) {
    const http = child(at, 'http');
    const paths = rule.http.paths ?? [];
    if (!paths.length) errs.push(required(child(http, 'paths')));
    paths.forEach((p, i) => errs.push(...validatePath(p, child(child(http, 'paths'), i))));
  }
  return errs;
}

const ingressSpecFields = {
  ingressClassName: str({
    proto: 4,
    description: 'The IngressClass whose controller serves this Ingress.',
  }),
  defaultBackend: field(IngressBackendSchema, {
    proto: 1,
    description: 'Where requests matching no rule go; required when there are no rules.',
  }),
  tls: list(IngressTLSSchema, {
    proto: 2,
    listType: 'atomic',
    description: 'TLS configurations, all on port 443.',
  }),
  rules: list(IngressRuleSchema, {
    proto: 3,
    listType: 'atomic',
    description: 'Host rules; requests matching none go to the default backend.',
  }),
};

export const IngressSpecSchema = struct(networking('IngressSpec'), ingressSpecFields, {
  validate: (spec, path): FieldError[] => {
    const errs: FieldError[] = [];
    const rules = spec.rules ?? [];
    if (!rules.length && !spec.defaultBackend)
      errs.push(
        invalid(
          path,
          // Go's %#v of the rules: a nil or an empty slice
          new GoSyntax(spec.rules ? '[]networking.IngressRule{}' : '[]networking.IngressRule(nil)'),
          'either `defaultBackend` or `rules` must be specified',
        ),
      );
    if (spec.defaultBackend)
      errs.push(...validateBackend(spec.defaultBackend, child(path, 'defaultBackend')));
    rules.forEach((rule, i) => errs.push(...validateRule(rule, child(child(path, 'rules'), i))));
    (spec.tls ?? []).forEach((tls, i) => {
      const at = child(child(path, 'tls'), i);
      (tls.hosts ?? []).forEach((host, j) => errs.push(...validateHost(host, child(child(at, 'hosts'), j))));
      const secret = tls.secretName ?? '';
      if (secret !== '')
        for (const msg of isDNS1123Subdomain(secret))
          errs.push(invalid(child(at, 'secretName'), secret, msg));
    });
    const className = spec.ingressClassName ?? '';
    if (className !== '')
      for (const msg of isDNS1123Subdomain(className))
        errs.push(invalid(child(path, 'ingressClassName'), className, msg));
    return errs;
  },
});

export const IngressPortStatusSchema = struct(networking('IngressPortStatus'), {
  port: int32({ proto: 1, description: 'Port number of the ingress port.' }),
  protocol: str({ proto: 2, enum: PORT_PROTOCOLS, description: 'Protocol of the ingress port.' }),
  error: str({ proto: 3, description: 'Error of the port in CamelCase, empty when the port works.' }),
});

export const IngressLoadBalancerIngressSchema = struct(networking('IngressLoadBalancerIngress'), {
  ip: str({ proto: 1, omitZero: true, description: 'IP of an IP-based load-balancer ingress point.' }),
  hostname: str({
    proto: 2,
    omitZero: true,
    description: 'Hostname of a DNS-based load-balancer ingress point.',
  }),
  ports: list(IngressPortStatusSchema, {
    proto: 4,
    listType: 'atomic',
    description: 'Status of the ports of the load balancer.',
  }),
});

export const IngressLoadBalancerStatusSchema = struct(networking('IngressLoadBalancerStatus'), {
  ingress: list(IngressLoadBalancerIngressSchema, {
    proto: 1,
    listType: 'atomic',
    description: 'Ingress points of the load balancer.',
  }),
});

export const IngressStatusSchema = struct(
  networking('IngressStatus'),
  {
    loadBalancer: field(IngressLoadBalancerStatusSchema, {
      proto: 1,
      description: 'Status of the load balancer.',
    }),
  },
  {
    validate: (status, path): FieldError[] => {
      const errs: FieldError[] = [];
      (status.loadBalancer?.ingress ?? []).forEach((point, i) => {
        const at = child(child(child(path, 'loadBalancer'), 'ingress'), i);
        const ip = point.ip ?? '';
        if (ip !== '') for (const msg of isValidIP(ip)) errs.push(invalid(child(at, 'ip'), ip, msg));
        const hostname = point.hostname ?? '';
        if (hostname !== '') {
          for (const msg of isDNS1123Subdomain(hostname))
            errs.push(invalid(child(at, 'hostname'), hostname, msg));
          if (parseIPSloppy(hostname) !== undefined)
            errs.push(invalid(child(at, 'hostname'), hostname, 'must be a DNS name, not an IP address'));
        }
      });
      return errs;
    },
  },
);

export const IngressSchema = struct(
  networking('Ingress'),
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(IngressSpecSchema, { proto: 2, description: 'Desired state of the Ingress.' }),
    status: field(IngressStatusSchema, { proto: 3, description: 'Current state of the Ingress.' }),
  },
  {
    description:
      'Rules that route HTTP and HTTPS traffic from outside the cluster to services, by host and path.',
    // on create only, as Kubernetes' ValidateIngressCreate: objects stored before keep their pair
    validate: (ingress, _path, context): FieldError[] => {
      const annotation = ingress.metadata?.annotations?.[INGRESS_CLASS_ANNOTATION];
      const className = ingress.spec?.ingressClassName;
      if (context.old !== undefined || annotation === undefined || className === undefined) return [];
      if (annotation === className) return [];
      return [
        invalid(
          `annotations.${INGRESS_CLASS_ANNOTATION}`,
          annotation,
          'must match `ingressClassName` when both are specified',
        ),
      ];
    },
  },
);
export type Ingress = Static<typeof IngressSchema>;

/** Kubernetes' formatHosts: the first three hosts of the rules, "*" when none has one. */
export function ingressHosts(rules: readonly IngressRule[] | undefined): string {
  const max = 3;
  const hosts: string[] = [];
  let more = false;
  for (const rule of rules ?? []) {
    if (hosts.length === max) more = true;
    if (!more && rule.host) hosts.push(rule.host);
  }
  if (!hosts.length) return '*';
  const shown = hosts.join(',');
  return more ? `${shown} + ${(rules?.length ?? 0) - max} more...` : shown;
}

/** The load balancer's addresses, sorted and joined (server tables are wide: nothing is cut). */
export function ingressAddress(ingress: Ingress): string {
  const addresses = new Set<string>();
  for (const point of ingress.status?.loadBalancer?.ingress ?? []) {
    if (point.ip) addresses.add(point.ip);
    else if (point.hostname) addresses.add(point.hostname);
  }
  return [...addresses].sort().join(',');
}

export const IngressKind = defineKind({
  group: 'networking.k8s.io',
  versions: ['v1'],
  kind: 'Ingress',
  plural: 'ingresses',
  singular: 'ingress',
  shortNames: ['ing'],
  namespaced: true,
  schema: IngressSchema,
  subresources: { status: true },
  columns: [
    nameColumn(),
    {
      name: 'Class',
      type: 'string',
      description: 'The IngressClass whose controller serves the Ingress.',
      cell: (ing) => ing.spec?.ingressClassName ?? '<none>',
    },
    {
      name: 'Hosts',
      type: 'string',
      description: 'Hosts that requests are matched against.',
      cell: (ing) => ingressHosts(ing.spec?.rules),
    },
    {
      name: 'Address',
      type: 'string',
      description: 'Ingress points of the load balancer.',
      cell: (ing) => ingressAddress(ing),
    },
    {
      name: 'Ports',
      type: 'string',
      description: 'Ports the Ingress opens: 80, and 443 with TLS.',
      cell: (ing) => (ing.spec?.tls?.length ? '80, 443' : '80'),
    },
    ageColumn(),
  ],
});
