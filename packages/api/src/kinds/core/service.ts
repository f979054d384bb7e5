import type { Static } from '@sinclair/typebox';
import {
  bool,
  field,
  int32,
  int64,
  intOrString,
  list,
  oneOf,
  str,
  stringMap,
  struct,
  time,
  type FieldErrorLike,
  type StructSchema,
} from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { formatLabels } from '../../util/labels';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidIP,
  isValidPortNum,
  parseIPSloppy,
} from '../../util/names';
import {
  child,
  duplicate,
  forbidden,
  invalid,
  required,
  type FieldError,
} from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';
import { PROXY_VERBS } from './node';
import { validatePortNumOrName } from './probe';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;

/** Protocols of service, endpoint and container ports, in Kubernetes' sorted order. */
export const PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'] as const;

/** The port of the node agent, which a LoadBalancer service may not expose. */
const KUBELET_PORT = 10250;
/** Default ClientIP session affinity timeout (3 hours). */
export const DEFAULT_CLIENT_IP_AFFINITY_SECONDS = 10800;

/** Kubernetes' ValidateDNS1123Label applied to a field. */
export function validateDNS1123Label(value: string, path: string): FieldError[] {
  return isDNS1123Label(value).map((msg) => invalid(path, value, msg));
}

export const ServicePortSchema = struct(
  core('ServicePort'),
  {
    name: str({
      proto: 1,
      omitZero: true,
      description: 'Name of the port; required and unique when the service has several ports.',
    }),
    protocol: str({
      proto: 2,
      enum: PORT_PROTOCOLS,
      default: 'TCP',
      description: 'IP protocol: TCP, UDP or SCTP.',
    }),
    appProtocol: str({ proto: 6, description: 'Application protocol of the port (a qualified name).' }),
    port: int32({ proto: 3, description: 'Port exposed by the service.' }),
    targetPort: intOrString({
      proto: 4,
      description: "Number or name of the port on the selected pods; defaults to 'port'.",
    }),
    nodePort: int32({
      proto: 5,
      omitZero: true,
      description: 'Port on each node for NodePort and LoadBalancer services.',
    }),
  },
  {
    defaults: (sp) => {
      if (sp.targetPort === undefined || sp.targetPort === 0 || sp.targetPort === '') sp.targetPort = sp.port;
    },
    validate: (sp, path) => {
      const errors: FieldErrorLike[] = [];
      if (sp.name) errors.push(...validateDNS1123Label(sp.name, child(path, 'name')));
      errors.push(
        ...isValidPortNum(sp.port ?? 0).map((msg) => invalid(child(path, 'port'), sp.port ?? 0, msg)),
      );
      if (sp.targetPort !== undefined)
        errors.push(...validatePortNumOrName(sp.targetPort, child(path, 'targetPort')));
      if (sp.appProtocol !== undefined) {
        errors.push(
          ...isQualifiedName(sp.appProtocol).map((msg) =>
            invalid(child(path, 'appProtocol'), sp.appProtocol, msg),
          ),
        );
      }
      return errors;
    },
  },
);
export type ServicePort = Static<typeof ServicePortSchema>;

export const ClientIPConfigSchema = struct(core('ClientIPConfig'), {
  timeoutSeconds: int32({
    proto: 1,
    minimum: 1,
    maximum: 86400,
    description: 'Seconds of ClientIP session stickiness (1..86400, default 10800).',
  }),
});

export const SessionAffinityConfigSchema = struct(core('SessionAffinityConfig'), {
  clientIP: field(ClientIPConfigSchema, { proto: 1, description: 'Settings of ClientIP session affinity.' }),
});

const serviceSpecFields = {
  ports: list(ServicePortSchema, {
    proto: 1,
    patchMergeKey: 'port',
    patchStrategy: 'merge',
    listType: 'map',
    listMapKeys: ['port', 'protocol'],
    description: 'Ports exposed by the service.',
  }),
  selector: stringMap({
    proto: 2,
    mapType: 'atomic',
    description: 'Labels of the pods traffic is routed to.',
  }),
  clusterIP: str({
    proto: 3,
    omitZero: true,
    description: "Virtual IP of the service, 'None' for a headless service; usually allocated.",
  }),
  clusterIPs: list(str(), {
    proto: 18,
    listType: 'atomic',
    description: 'Virtual IPs of the service, one per IP family; the first equals clusterIP.',
  }),
  type: oneOf(['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'], {
    proto: 4,
    default: 'ClusterIP',
    description: 'How the service is exposed: ClusterIP, NodePort, LoadBalancer or ExternalName.',
  }),
  externalIPs: list(str(), {
    proto: 5,
    description: 'Extra IPs on which nodes accept traffic for the service.',
  }),
  sessionAffinity: oneOf(['ClientIP', 'None'], {
    proto: 7,
    default: 'None',
    description: 'Session affinity: ClientIP or None.',
  }),
  loadBalancerIP: str({
    proto: 8,
    omitZero: true,
    description: 'Requested IP of the load balancer, where supported.',
  }),
  loadBalancerSourceRanges: list(str(), {
    proto: 9,
    description: 'Client CIDRs allowed through the load balancer.',
  }),
  externalName: str({
    proto: 10,
    omitZero: true,
    description: 'DNS name an ExternalName service aliases (CNAME).',
  }),
  externalTrafficPolicy: str({
    proto: 11,
    description: 'Routing of external traffic: Cluster or Local (node-local endpoints, client IP preserved).',
  }),
  healthCheckNodePort: int32({
    proto: 12,
    omitZero: true,
    description: 'Health-check node port of LoadBalancer services with Local policy.',
  }),
  publishNotReadyAddresses: bool({
    proto: 13,
    omitZero: true,
    description: 'Publish endpoints regardless of readiness.',
  }),
  sessionAffinityConfig: field(SessionAffinityConfigSchema, {
    proto: 14,
    description: 'Session affinity settings.',
  }),
  topologyKeys: list(str(), {
    proto: 16,
    description: 'Deprecated preference-ordered topology keys for routing.',
  }),
  ipFamilies: list(oneOf(['IPv4', 'IPv6']), {
    proto: 19,
    listType: 'atomic',
    description: 'IP families of the service (IPv4, IPv6), matching clusterIPs.',
  }),
  ipFamilyPolicy: oneOf(['SingleStack', 'PreferDualStack', 'RequireDualStack'], {
    proto: 17,
    description: 'Dual-stack-ness of the service: SingleStack, PreferDualStack or RequireDualStack.',
  }),
  allocateLoadBalancerNodePorts: bool({
    proto: 20,
    description: 'Whether LoadBalancer services get node ports.',
  }),
  loadBalancerClass: str({ proto: 21, description: 'Class of the load balancer implementation.' }),
  internalTrafficPolicy: str({
    proto: 22,
    description: 'Routing of cluster-internal traffic: Cluster or Local.',
  }),
};
type ServiceSpecValue = Static<StructSchema<typeof serviceSpecFields>>;

/** Kubernetes' SetDefaults_Service plus the cluster IP fields the service registry derives. */
function defaultServiceSpec(spec: ServiceSpecValue): void {
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (
    spec.sessionAffinity === 'ClientIP' &&
    spec.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined
  ) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_AFFINITY_SECONDS } };
  }
  if ((spec.type === 'NodePort' || spec.type === 'LoadBalancer') && !spec.externalTrafficPolicy) {
    spec.externalTrafficPolicy = 'Cluster';
  }
  if (spec.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
  if (spec.type === 'ExternalName') return;
  spec.internalTrafficPolicy ??= 'Cluster';
  if (spec.clusterIP && !spec.clusterIPs?.length) spec.clusterIPs = [spec.clusterIP];
  if (!spec.ipFamilies?.length && spec.clusterIPs?.length && spec.clusterIPs[0] !== 'None') {
    const families = spec.clusterIPs.map((ip) => parseIPSloppy(ip));
    if (families.every((f) => f !== undefined))
      spec.ipFamilies = families.map((f) => (f === 6 ? 'IPv6' : 'IPv4'));
  }
  spec.ipFamilyPolicy ??= 'SingleStack';
}

function isHeadless(spec: ServiceSpecValue): boolean {
  const first = spec.clusterIPs?.[0] ?? spec.clusterIP;
  return (spec.type ?? 'ClusterIP') === 'ClusterIP' && first === 'None';
}

/** Kubernetes' ValidateService rules on the spec (messages as Kubernetes reports them). */
function validateServiceSpec(spec: ServiceSpecValue, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const ports = spec.ports ?? [];
  const portsPath = child(path, 'ports');
  const headless = isHeadless(spec);
  if (ports.length === 0 && !headless && spec.type !== 'ExternalName') errors.push(required(portsPath, ''));

  switch (spec.type) {
    case 'LoadBalancer':
      ports.forEach((p, i) => {
        if (p.port === KUBELET_PORT) {
          errors.push(
            invalid(
              child(portsPath, i),
              p.port,
              `may not expose port ${KUBELET_PORT} externally since it is used by kubelet`,
            ),
          );
        }
      });
      if (spec.clusterIPs?.[0] === 'None' || spec.clusterIP === 'None') {
        errors.push(
          invalid(
            child(child(path, 'clusterIPs'), 0),
            'None',
            "may not be set to 'None' for LoadBalancer services",
          ),
        );
      }
      break;
    case 'NodePort':
      if (spec.clusterIPs?.[0] === 'None' || spec.clusterIP === 'None') {
        errors.push(
          invalid(
            child(child(path, 'clusterIPs'), 0),
            'None',
            "may not be set to 'None' for NodePort services",
          ),
        );
      }
      break;
    case 'ExternalName': {
      if (spec.clusterIPs?.length)
        errors.push(forbidden(child(path, 'clusterIPs'), 'may not be set for ExternalName services'));
      if (spec.ipFamilies?.length)
        errors.push(forbidden(child(path, 'ipFamilies'), 'may not be set for ExternalName services'));
      if (spec.ipFamilyPolicy !== undefined) {
        errors.push(forbidden(child(path, 'ipFamilyPolicy'), 'may not be set for ExternalName services'));
      }
      const cname = (spec.externalName ?? '').replace(/\.$/, '');
      if (cname)
        errors.push(
          ...isDNS1123Subdomain(cname).map((msg) => invalid(child(path, 'externalName'), cname, msg)),
        );
      else errors.push(required(child(path, 'externalName'), ''));
      break;
    }
  }

  // Port names: required when there are several, unique.
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const namePath = child(child(portsPath, i), 'name');
    if (ports.length > 1 && !p.name) errors.push(required(namePath, ''));
    else if (p.name) {
      if (names.has(p.name)) errors.push(duplicate(namePath, p.name));
      names.add(p.name);
    }
  });
  // (protocol, port) pairs are unique.
  const pairs = new Set<string>();
  ports.forEach((p, i) => {
    const id = `${p.protocol ?? ''}/${p.port ?? 0}`;
    if (pairs.has(id))
      errors.push(duplicate(child(portsPath, i), { port: p.port ?? 0, protocol: p.protocol ?? '' }));
    pairs.add(id);
  });
  if ((spec.type ?? 'ClusterIP') === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (p.nodePort) {
        errors.push(
          forbidden(child(child(portsPath, i), 'nodePort'), "may not be used when `type` is 'ClusterIP'"),
        );
      }
    });
  }

  (spec.clusterIPs ?? []).forEach((ip, i) => {
    const ipPath = child(child(path, 'clusterIPs'), i);
    if (i === 0 && ip === 'None') {
      if ((spec.clusterIPs ?? []).length > 1)
        errors.push(invalid(ipPath, 'None', "'None' must be the first and only value"));
      return;
    }
    errors.push(...isValidIP(ip).map((msg) => invalid(ipPath, ip, msg)));
  });
  (spec.externalIPs ?? []).forEach((ip, i) => {
    errors.push(...isValidIP(ip).map((msg) => invalid(child(child(path, 'externalIPs'), i), ip, msg)));
  });

  const policy = spec.externalTrafficPolicy;
  const policyPath = child(path, 'externalTrafficPolicy');
  if (policy && policy !== 'Cluster' && policy !== 'Local') {
    errors.push(invalid(policyPath, policy, 'ExternalTrafficPolicy must be empty, Cluster or Local'));
  }
  const hcPath = child(path, 'healthCheckNodePort');
  if ((spec.healthCheckNodePort ?? 0) < 0) {
    errors.push(invalid(hcPath, spec.healthCheckNodePort, 'HealthCheckNodePort must be not less than 0'));
  }
  if (policy && spec.type !== 'LoadBalancer' && spec.type !== 'NodePort') {
    errors.push(
      invalid(
        policyPath,
        policy,
        'ExternalTrafficPolicy can only be set on NodePort and LoadBalancer service',
      ),
    );
  }
  const needsHealthCheck = spec.type === 'LoadBalancer' && policy === 'Local';
  if (!needsHealthCheck && (spec.healthCheckNodePort ?? 0) !== 0) {
    errors.push(
      invalid(
        hcPath,
        spec.healthCheckNodePort,
        'HealthCheckNodePort can only be set on LoadBalancer service with ExternalTrafficPolicy=Local',
      ),
    );
  }
  return errors;
}

export const ServiceSpecSchema = struct(core('ServiceSpec'), serviceSpecFields, {
  defaults: defaultServiceSpec,
  validate: (spec, path) => validateServiceSpec(spec, path),
});
export type ServiceSpec = Static<typeof ServiceSpecSchema>;

export const PortStatusSchema = struct(core('PortStatus'), {
  port: int32({ proto: 1, description: 'Port number of the service port.' }),
  protocol: str({ proto: 2, enum: PORT_PROTOCOLS, description: 'Protocol of the service port.' }),
  error: str({ proto: 3, description: 'Error of the port in CamelCase, empty when the port works.' }),
});

export const LoadBalancerIngressSchema = struct(core('LoadBalancerIngress'), {
  ip: str({ proto: 1, description: 'IP of an IP-based load-balancer ingress point.' }),
  hostname: str({ proto: 2, description: 'Hostname of a DNS-based load-balancer ingress point.' }),
  ports: list(PortStatusSchema, {
    proto: 4,
    listType: 'atomic',
    description: 'Status of the service ports.',
  }),
});

export const LoadBalancerStatusSchema = struct(core('LoadBalancerStatus'), {
  ingress: list(LoadBalancerIngressSchema, { proto: 1, description: 'Ingress points of the load balancer.' }),
});

/** meta/v1 Condition: the standard condition of newer APIs. */
export const ConditionSchema = struct('io.k8s.apimachinery.pkg.apis.meta.v1.Condition', {
  type: str({ proto: 1, description: 'Type of the condition in CamelCase.' }),
  status: str({ proto: 2, enum: ['True', 'False', 'Unknown'], description: 'Status of the condition.' }),
  observedGeneration: int64({ proto: 3, description: 'Generation the condition was set for.' }),
  lastTransitionTime: time({ proto: 4, description: 'Last time the condition changed status.' }),
  reason: str({ proto: 5, description: 'Machine-readable reason in CamelCase.' }),
  message: str({ proto: 6, description: 'Human-readable details.' }),
});

export const ServiceStatusSchema = struct(core('ServiceStatus'), {
  loadBalancer: field(LoadBalancerStatusSchema, {
    default: {},
    proto: 1,
    description: 'Status of the load balancer, if any.',
  }),
  conditions: list(ConditionSchema, {
    proto: 2,
    patchMergeKey: 'type',
    patchStrategy: 'merge',
    listType: 'map',
    listMapKeys: ['type'],
    description: 'Current service state.',
  }),
});

export const ServiceSchema = struct(
  core('Service'),
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(ServiceSpecSchema, { proto: 2, default: {}, description: 'Behaviour of the service.' }),
    status: field(ServiceStatusSchema, {
      default: {},
      proto: 3,
      description: 'Most recently observed status of the service.',
    }),
  },
  { description: 'A stable name and address for a set of pods chosen by a selector, and how to reach them.' },
);
export type Service = Static<typeof ServiceSchema>;

/** Kubernetes' makePortString: "80/TCP,443:30443/TCP". */
export function servicePortsString(ports: readonly ServicePort[] | undefined): string {
  return (ports ?? [])
    .map((p) =>
      p.nodePort && p.nodePort > 0
        ? `${p.port ?? 0}:${p.nodePort}/${p.protocol ?? ''}`
        : `${p.port ?? 0}/${p.protocol ?? ''}`,
    )
    .join(',');
}

/** Kubernetes' getServiceExternalIP (server tables are wide: no truncation of load-balancer addresses). */
export function serviceExternalIP(svc: Service): string {
  const spec = svc.spec ?? {};
  const external = spec.externalIPs ?? [];
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return external.length ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const ingress = new Set<string>();
      for (const i of svc.status?.loadBalancer?.ingress ?? []) {
        if (i.ip) ingress.add(i.ip);
        else if (i.hostname) ingress.add(i.hostname);
      }
      const lb = [...ingress].sort();
      if (external.length) return [...lb, ...external].join(',');
      return lb.length ? lb.join(',') : '<pending>';
    }
    case 'ExternalName':
      return spec.externalName ?? '';
  }
  return '<unknown>';
}

export const ServiceKind = defineKind({
  group: '',
  versions: ['v1'],
  kind: 'Service',
  plural: 'services',
  singular: 'service',
  shortNames: ['svc'],
  categories: ['all'],
  namespaced: true,
  generation: false,
  schema: ServiceSchema,
  subresources: { status: true, proxy: { kind: 'ServiceProxyOptions', verbs: PROXY_VERBS } },
  // The cluster IP of a service that has one cannot change, except by turning the service into an
  // ExternalName service (ValidateServiceUpdate).
  validateUpdate: (svc, old) => {
    const type = svc.spec?.type ?? 'ClusterIP';
    const oldType = old.spec?.type ?? 'ClusterIP';
    const oldIP = old.spec?.clusterIP ?? '';
    const ip = svc.spec?.clusterIP ?? '';
    if (type === 'ExternalName' || oldType === 'ExternalName' || oldIP === '' || ip === oldIP) return [];
    return [invalid('spec.clusterIP', ip, 'field is immutable')];
  },
  columns: [
    nameColumn(),
    {
      name: 'Type',
      type: 'string',
      description: 'How the service is exposed.',
      cell: (svc) => svc.spec?.type ?? '',
    },
    {
      name: 'Cluster-IP',
      type: 'string',
      description: 'Virtual IP of the service.',
      cell: (svc) => svc.spec?.clusterIPs?.[0] ?? '<none>',
    },
    {
      name: 'External-IP',
      type: 'string',
      description: 'External addresses of the service.',
      cell: serviceExternalIP,
    },
    {
      name: 'Port(s)',
      type: 'string',
      description: 'Ports exposed by the service.',
      cell: (svc) => servicePortsString(svc.spec?.ports) || '<none>',
    },
    ageColumn(),
    {
      name: 'Selector',
      type: 'string',
      priority: 1,
      description: 'Labels of the pods traffic is routed to.',
      cell: (svc) => formatLabels(svc.spec?.selector),
    },
  ],
});
