import type { Static } from '@sinclair/typebox';
import {
  bool,
  field,
  int32,
  int64,
  list,
  map,
  quantity,
  required,
  str,
  stringMap,
  struct,
} from '../../schema/fields';
import type { FieldErrorLike, StructSchema, ValidationContext } from '../../schema/fields';
import { LabelSelectorSchema, objectMeta } from '../../meta/object-meta';
import { inclusiveRangeError, isQualifiedName, isValidIP } from '../../util/names';
import { validateAnnotations, validateLabels } from '../../validation/object-meta';
import {
  child,
  duplicate,
  forbidden,
  invalid,
  notFound,
  notSupported,
  required as requiredError,
} from '../../validation/field-error';
import type { FieldError } from '../../validation/field-error';
import { AffinitySchema } from './affinity';
import { ContainerSchema, EphemeralContainerSchema } from './container';
import type { Container } from './container';
import { LocalObjectReferenceSchema } from './object-reference';
import { PodSecurityContextSchema } from './security-context';
import { TolerationSchema } from './toleration';
import { VolumeSchema } from './volume';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;
const MAX_INT32 = 2147483647;
const MAX_DNS_NAMESERVERS = 3;
const MAX_DNS_SEARCH_PATHS = 6;

export const PodDNSConfigOptionSchema = struct(core('PodDNSConfigOption'), {
  name: required(str({ proto: 1, description: 'Name of the resolver option.' })),
  value: str({ proto: 2, description: 'Value of the resolver option.' }),
});

export const PodDNSConfigSchema = struct(core('PodDNSConfig'), {
  nameservers: list(str(), {
    proto: 1,
    description: 'DNS name server IP addresses added to those of the DNS policy.',
  }),
  searches: list(str(), { proto: 2, description: 'DNS search domains added to those of the DNS policy.' }),
  options: list(PodDNSConfigOptionSchema, {
    proto: 3,
    description: 'DNS resolver options merged with those of the DNS policy.',
  }),
});
export type PodDNSConfig = Static<typeof PodDNSConfigSchema>;

export const PodReadinessGateSchema = struct(core('PodReadinessGate'), {
  conditionType: required(
    str({ proto: 1, format: 'qualified-name', description: 'Type of a pod condition that must be True.' }),
  ),
});
export type PodReadinessGate = Static<typeof PodReadinessGateSchema>;

export const PodOSSchema = struct(
  core('PodOS'),
  { name: required(str({ proto: 1, description: 'Name of the operating system: linux or windows.' })) },
  {
    validate: (os, path) => {
      const at = child(path, 'name');
      if (!os.name) return [requiredError(at)];
      return os.name === 'linux' || os.name === 'windows'
        ? []
        : [notSupported(at, os.name, ['linux', 'windows'])];
    },
  },
);
export type PodOS = Static<typeof PodOSSchema>;

export const PodSchedulingGateSchema = struct(
  core('PodSchedulingGate'),
  { name: required(str({ proto: 1, description: 'Name of the gate; a qualified name.' })) },
  {
    validate: (gate, path) =>
      isQualifiedName(gate.name).map((msg) => invalid(child(path, 'name'), gate.name, msg)),
  },
);
export type PodSchedulingGate = Static<typeof PodSchedulingGateSchema>;

export const HostAliasSchema = struct(core('HostAlias'), {
  ip: str({ proto: 1, format: 'ip', description: 'IP address of the hosts file entry.' }),
  hostnames: list(str(), { proto: 2, description: 'Host names of that IP address.' }),
});
export type HostAlias = Static<typeof HostAliasSchema>;

/** How a topology spread constraint treats node affinity and taints when counting skew. */
const nodeInclusionPolicies = ['Honor', 'Ignore'];

export const TopologySpreadConstraintSchema = struct(
  core('TopologySpreadConstraint'),
  {
    maxSkew: required(
      int32({ proto: 1, description: 'Maximum permitted skew of matching pods between topology domains.' }),
    ),
    topologyKey: required(str({ proto: 2, description: 'Node label key defining the topology domains.' })),
    whenUnsatisfiable: required(str({ proto: 3, description: 'DoNotSchedule or ScheduleAnyway.' })),
    labelSelector: field(LabelSelectorSchema, { proto: 4, description: 'Pods counted in each domain.' }),
    minDomains: int32({
      proto: 5,
      description:
        'Fewest eligible domains; with fewer, the global minimum counts as 0 (DoNotSchedule only).',
    }),
    nodeAffinityPolicy: str({
      proto: 6,
      enum: nodeInclusionPolicies,
      description: "Honor (by default) or Ignore the pod's node affinity and selector when counting skew.",
    }),
    nodeTaintsPolicy: str({
      proto: 7,
      enum: nodeInclusionPolicies,
      description: 'Honor or Ignore (by default) node taints when counting skew.',
    }),
    matchLabelKeys: list(str(), {
      proto: 8,
      listType: 'atomic',
      description: "Keys of the pod's own labels whose values are added to the label selector.",
    }),
  },
  {
    validate: (c, path) => {
      const errs: FieldErrorLike[] = [];
      if (c.maxSkew <= 0) errs.push(invalid(child(path, 'maxSkew'), c.maxSkew, 'must be greater than zero'));
      if (!c.topologyKey) errs.push(requiredError(child(path, 'topologyKey'), 'can not be empty'));
      if (c.whenUnsatisfiable !== 'DoNotSchedule' && c.whenUnsatisfiable !== 'ScheduleAnyway') {
        errs.push(
          notSupported(child(path, 'whenUnsatisfiable'), c.whenUnsatisfiable, [
            'DoNotSchedule',
            'ScheduleAnyway',
          ]),
        );
      }
      if (c.minDomains !== undefined) {
        const at = child(path, 'minDomains');
        if (c.minDomains <= 0) errs.push(invalid(at, c.minDomains, 'must be greater than zero'));
        if (c.whenUnsatisfiable !== 'DoNotSchedule') {
          errs.push(
            invalid(
              at,
              c.minDomains,
              `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${c.whenUnsatisfiable}`,
            ),
          );
        }
      }
      return errs;
    },
  },
);
export type TopologySpreadConstraint = Static<typeof TopologySpreadConstraintSchema>;

const podSpecFields = {
  volumes: list(VolumeSchema, {
    proto: 1,
    patchMergeKey: 'name',
    patchStrategy: 'merge,retainKeys',
    description: "Volumes the pod's containers can mount.",
  }),
  initContainers: list(ContainerSchema, {
    proto: 20,
    patchMergeKey: 'name',
    patchStrategy: 'merge',
    description: 'Containers run in order, each to completion, before the app containers start.',
  }),
  containers: required(
    list(ContainerSchema, {
      proto: 2,
      patchMergeKey: 'name',
      patchStrategy: 'merge',
      description: 'Containers of the pod; at least one.',
    }),
  ),
  ephemeralContainers: list(EphemeralContainerSchema, {
    proto: 34,
    featureGate: 'EphemeralContainers',
    patchMergeKey: 'name',
    patchStrategy: 'merge',
    description: 'Ephemeral containers run in this pod, added through the ephemeralcontainers subresource.',
  }),
  restartPolicy: str({
    proto: 3,
    default: 'Always',
    description: 'Always, OnFailure or Never; Always by default.',
  }),
  terminationGracePeriodSeconds: int64({
    proto: 4,
    default: 30,
    description: 'Seconds the pod gets to terminate gracefully; 30 by default.',
  }),
  activeDeadlineSeconds: int64({
    proto: 5,
    description: 'Seconds the pod may be active on its node before it is failed.',
  }),
  dnsPolicy: str({
    proto: 6,
    default: 'ClusterFirst',
    description: 'ClusterFirstWithHostNet, ClusterFirst, Default or None; ClusterFirst by default.',
  }),
  nodeSelector: stringMap({
    proto: 7,
    mapType: 'atomic',
    description: 'Labels a node must have to run the pod.',
  }),
  serviceAccountName: str({
    proto: 8,
    omitZero: true,
    format: 'dns1123-subdomain',
    description: 'ServiceAccount the pod runs as.',
  }),
  serviceAccount: str({ proto: 9, omitZero: true, description: 'Deprecated alias of serviceAccountName.' }),
  automountServiceAccountToken: bool({
    proto: 21,
    description: 'Whether a service account token is mounted automatically.',
  }),
  nodeName: str({
    proto: 10,
    omitZero: true,
    format: 'dns1123-subdomain',
    description: 'Node the pod is bound to.',
  }),
  hostNetwork: bool({ proto: 11, omitZero: true, description: "Use the host's network namespace." }),
  hostPID: bool({ proto: 12, omitZero: true, description: "Use the host's pid namespace." }),
  hostIPC: bool({ proto: 13, omitZero: true, description: "Use the host's ipc namespace." }),
  shareProcessNamespace: bool({
    proto: 27,
    featureGate: 'PodShareProcessNamespace',
    description: 'Share one process namespace between all containers.',
  }),
  securityContext: field(PodSecurityContextSchema, {
    proto: 14,
    default: {},
    description: 'Pod-level security attributes and common container settings.',
  }),
  imagePullSecrets: list(LocalObjectReferenceSchema, {
    proto: 15,
    patchMergeKey: 'name',
    patchStrategy: 'merge',
    description: 'Secrets used to pull the images.',
  }),
  hostname: str({
    proto: 16,
    omitZero: true,
    format: 'dns1123-label',
    description: 'Host name of the pod; system-defined by default.',
  }),
  subdomain: str({
    proto: 17,
    omitZero: true,
    format: 'dns1123-label',
    description: 'Subdomain giving the pod a fully qualified name.',
  }),
  affinity: field(AffinitySchema, { proto: 18, description: 'Scheduling constraints.' }),
  schedulerName: str({
    proto: 19,
    default: 'default-scheduler',
    description: 'Scheduler dispatching the pod.',
  }),
  tolerations: list(TolerationSchema, {
    proto: 22,
    listType: 'atomic',
    description: 'Taints the pod tolerates.',
  }),
  hostAliases: list(HostAliasSchema, {
    proto: 23,
    patchMergeKey: 'ip',
    patchStrategy: 'merge',
    description: "Entries added to the pod's hosts file.",
  }),
  priorityClassName: str({
    proto: 24,
    omitZero: true,
    format: 'dns1123-subdomain',
    description: 'PriorityClass of the pod.',
  }),
  priority: int32({ proto: 25, description: 'Priority value, resolved from priorityClassName.' }),
  dnsConfig: field(PodDNSConfigSchema, {
    proto: 26,
    description: 'DNS parameters merged with those of the DNS policy.',
  }),
  readinessGates: list(PodReadinessGateSchema, {
    proto: 28,
    description: 'Extra conditions required for readiness.',
  }),
  runtimeClassName: str({
    proto: 29,
    featureGate: 'RuntimeClass',
    description: 'RuntimeClass used to run the pod.',
  }),
  enableServiceLinks: bool({
    proto: 30,
    description: 'Inject service information as environment variables; true on pods.',
  }),
  preemptionPolicy: str({
    proto: 31,
    featureGate: 'NonPreemptingPriority',
    enum: ['Never', 'PreemptLowerPriority'],
    description: 'Never or PreemptLowerPriority.',
  }),
  overhead: map(quantity(), {
    proto: 32,
    featureGate: 'PodOverhead',
    description: 'Resource overhead of the pod sandbox.',
  }),
  topologySpreadConstraints: list(TopologySpreadConstraintSchema, {
    proto: 33,
    featureGate: 'EvenPodsSpread',
    patchMergeKey: 'topologyKey',
    patchStrategy: 'merge',
    listType: 'map',
    listMapKeys: ['topologyKey', 'whenUnsatisfiable'],
    description: 'How matching pods are spread across topology domains.',
  }),
  setHostnameAsFQDN: bool({ proto: 35, description: "Use the pod's FQDN as its host name." }),
  os: field(PodOSSchema, {
    proto: 36,
    description: 'Operating system the containers are built for: linux or windows.',
  }),
  hostUsers: bool({
    proto: 37,
    description:
      "Use the host's user namespace (true by default); false gives the pod a user namespace of its own.",
  }),
  schedulingGates: list(PodSchedulingGateSchema, {
    proto: 38,
    patchMergeKey: 'name',
    patchStrategy: 'merge',
    listType: 'map',
    listMapKeys: ['name'],
    description: 'The pod is not scheduled while any gate is listed; gates can only be removed.',
  }),
};

type PodSpecValue = Static<StructSchema<typeof podSpecFields>>;

/** Kubernetes' defaultHostNetworkPorts: with hostNetwork, a port's hostPort defaults to its containerPort. */
function defaultHostNetworkPorts(containers: readonly Container[] | undefined): void {
  for (const c of containers ?? []) {
    for (const p of c.ports ?? []) if (!p.hostPort) p.hostPort = p.containerPort;
  }
}

function defaultPodSpec(spec: PodSpecValue): void {
  if (!spec.dnsPolicy) spec.dnsPolicy = 'ClusterFirst';
  if (!spec.restartPolicy) spec.restartPolicy = 'Always';
  if (!spec.schedulerName) spec.schedulerName = 'default-scheduler';
  // serviceAccount is the deprecated alias of serviceAccountName: read when the new field is empty,
  // and always written back as a copy of it (Kubernetes' v1 PodSpec conversion).
  if (!spec.serviceAccountName && spec.serviceAccount) spec.serviceAccountName = spec.serviceAccount;
  if (spec.serviceAccountName) spec.serviceAccount = spec.serviceAccountName;
  if (spec.hostNetwork) {
    defaultHostNetworkPorts(spec.containers);
    defaultHostNetworkPorts(spec.initContainers);
  }
}

const restartPolicies = ['Always', 'OnFailure', 'Never'];
const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];

/** Kubernetes' validateRestartPolicy / validateDNSPolicy (valid values listed in Kubernetes' order). */
function validatePolicy(value: string | undefined, valid: readonly string[], path: string): FieldErrorLike[] {
  if (!value) return [requiredError(path)];
  return valid.includes(value) ? [] : [notSupported(path, value, valid)];
}

const initContainerForbidden = ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'] as const;

/**
 * The volumes a controller adds to the pods it makes from a template: one per claim template of the
 * object's spec.volumeClaimTemplates (a StatefulSet's), which the template's containers may mount.
 */
function claimTemplateVolumes(context: ValidationContext | undefined): string[] {
  const templates = (context?.root as { spec?: { volumeClaimTemplates?: unknown } } | undefined)?.spec
    ?.volumeClaimTemplates;
  if (!Array.isArray(templates)) return [];
  return templates
    .map((t: { metadata?: { name?: unknown } } | null) => t?.metadata?.name)
    .filter((n): n is string => typeof n === 'string');
}

/** Cross-field rules of Kubernetes' ValidatePodSpec (the per-struct rules live on each struct). */
function validatePodSpec(spec: PodSpecValue, path: string, context?: ValidationContext): FieldErrorLike[] {
  const errs: FieldErrorLike[] = [
    ...validatePolicy(spec.restartPolicy, restartPolicies, child(path, 'restartPolicy')),
    ...validatePolicy(spec.dnsPolicy, dnsPolicies, child(path, 'dnsPolicy')),
  ];
  const volumeNames = new Set<string>();
  (spec.volumes ?? []).forEach((v, i) => {
    if (!v.name) return;
    if (volumeNames.has(v.name))
      errs.push(duplicate(child(child(child(path, 'volumes'), i), 'name'), v.name));
    volumeNames.add(v.name);
  });
  const mountable = new Set([...volumeNames, ...claimTemplateVolumes(context)]);

  const containersPath = child(path, 'containers');
  const containers = spec.containers ?? [];
  if (containers.length === 0) errs.push(requiredError(containersPath));
  const names = new Set<string>();
  const checkContainers = (list: readonly Container[], listPath: string, init: boolean): void => {
    list.forEach((c, i) => {
      const at = child(listPath, i);
      if (c.name) {
        if (names.has(c.name)) errs.push(duplicate(child(at, 'name'), c.name));
        else names.add(c.name);
      }
      if (init && c.restartPolicy !== undefined && c.restartPolicy !== 'Always') {
        errs.push(notSupported(child(at, 'restartPolicy'), c.restartPolicy, ['Always']));
      } else if (!init && c.restartPolicy !== undefined) {
        errs.push(forbidden(child(at, 'restartPolicy'), 'may not be set for non-init containers'));
      }
      // a sidecar (an init container restarted Always) may have probes and lifecycle handlers
      if (init && c.restartPolicy !== 'Always') {
        for (const f of initContainerForbidden) {
          if (c[f] !== undefined && c[f] !== null)
            errs.push(invalid(child(at, f), c[f], 'must not be set for init containers'));
        }
      }
      (c.volumeMounts ?? []).forEach((m, j) => {
        if (m.name && !mountable.has(m.name)) {
          errs.push(notFound(child(child(child(at, 'volumeMounts'), j), 'name'), m.name));
        }
      });
      (c.volumeDevices ?? []).forEach((d, j) => {
        if (d.name && !mountable.has(d.name)) {
          errs.push(notFound(child(child(child(at, 'volumeDevices'), j), 'name'), d.name));
        }
      });
    });
  };
  checkContainers(containers, containersPath, false);
  checkContainers(spec.initContainers ?? [], child(path, 'initContainers'), true);
  (spec.ephemeralContainers ?? []).forEach((c, i) => {
    if (!c.name) return;
    if (names.has(c.name))
      errs.push(duplicate(child(child(child(path, 'ephemeralContainers'), i), 'name'), c.name));
    else names.add(c.name);
  });

  if (spec.hostNetwork) {
    containers.forEach((c, i) => {
      (c.ports ?? []).forEach((p, j) => {
        if ((p.hostPort ?? 0) !== p.containerPort) {
          const at = child(child(child(child(containersPath, i), 'ports'), j), 'containerPort');
          errs.push(invalid(at, p.containerPort, 'must match `hostPort` when `hostNetwork` is true'));
        }
      });
    });
  }
  const hostPorts = new Set<string>();
  containers.forEach((c, i) => {
    (c.ports ?? []).forEach((p, j) => {
      if (!p.hostPort) return;
      const id = `${p.hostIP ?? ''}/${p.protocol ?? ''}/${p.hostPort}`;
      if (hostPorts.has(id))
        errs.push(duplicate(child(child(child(child(containersPath, i), 'ports'), j), 'hostPort'), id));
      else hostPorts.add(id);
    });
  });

  if (spec.activeDeadlineSeconds !== undefined) {
    const v = spec.activeDeadlineSeconds;
    if (v < 1 || v > MAX_INT32)
      errs.push(invalid(child(path, 'activeDeadlineSeconds'), v, inclusiveRangeError(1, MAX_INT32)));
  }
  if (spec.terminationGracePeriodSeconds !== undefined && spec.terminationGracePeriodSeconds < 0) {
    const v = spec.terminationGracePeriodSeconds;
    errs.push(invalid(child(path, 'terminationGracePeriodSeconds'), v, 'must be greater than or equal to 0'));
  }
  validateLabels(spec.nodeSelector, child(path, 'nodeSelector'), errs as FieldError[]);
  errs.push(...validateDNS(spec, path));

  const spread = spec.topologySpreadConstraints ?? [];
  spread.forEach((c, i) => {
    if (
      spread
        .slice(i + 1)
        .some((o) => o.topologyKey === c.topologyKey && o.whenUnsatisfiable === c.whenUnsatisfiable)
    ) {
      const at = child(
        child(child(path, 'topologySpreadConstraints'), i),
        '{topologyKey, whenUnsatisfiable}',
      );
      errs.push(duplicate(at, `{${c.topologyKey}, ${c.whenUnsatisfiable}}`));
    }
  });
  return errs;
}

/** Kubernetes' validateDNSPolicy / validatePodDNSConfig rules that tie dnsPolicy and dnsConfig together. */
function validateDNS(spec: PodSpecValue, path: string): FieldErrorLike[] {
  const errs: FieldErrorLike[] = [];
  const cfg = spec.dnsConfig;
  if (spec.dnsPolicy === 'None' && !cfg) {
    return [requiredError(child(path, 'dnsConfig'), 'must provide `dnsConfig` when `dnsPolicy` is None')];
  }
  if (!cfg) return errs;
  const cfgPath = child(path, 'dnsConfig');
  const nameservers = cfg.nameservers ?? [];
  if (spec.dnsPolicy === 'None' && nameservers.length === 0) {
    errs.push(
      requiredError(
        child(cfgPath, 'nameservers'),
        'must provide at least one DNS nameserver when `dnsPolicy` is None',
      ),
    );
  }
  if (nameservers.length > MAX_DNS_NAMESERVERS) {
    errs.push(
      invalid(
        child(cfgPath, 'nameservers'),
        nameservers,
        `must not have more than ${MAX_DNS_NAMESERVERS} nameservers`,
      ),
    );
  }
  nameservers.forEach((ns, i) => {
    if (isValidIP(ns).length > 0)
      errs.push(invalid(child(child(cfgPath, 'nameservers'), i), ns, 'must be valid IP address'));
  });
  const searches = cfg.searches ?? [];
  if (searches.length > MAX_DNS_SEARCH_PATHS) {
    errs.push(
      invalid(
        child(cfgPath, 'searches'),
        searches,
        `must not have more than ${MAX_DNS_SEARCH_PATHS} search paths`,
      ),
    );
  }
  return errs;
}

export const PodSpecSchema = struct(core('PodSpec'), podSpecFields, {
  defaults: defaultPodSpec,
  validate: validatePodSpec,
});
export type PodSpec = Static<typeof PodSpecSchema>;

export const PodTemplateSpecSchema = struct(
  core('PodTemplateSpec'),
  {
    metadata: objectMeta(),
    spec: field(PodSpecSchema, {
      proto: 2,
      description: 'Specification of the pods created from this template.',
    }),
  },
  {
    // Kubernetes' ValidatePodTemplateSpec reports template labels and annotations under the template path.
    validate: (t, path) => {
      const errs: FieldError[] = [];
      validateLabels(t.metadata?.labels, child(path, 'labels'), errs);
      validateAnnotations(t.metadata?.annotations, child(path, 'annotations'), errs);
      return errs;
    },
  },
);
export type PodTemplateSpec = Static<typeof PodTemplateSpecSchema>;
