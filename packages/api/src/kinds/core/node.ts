import type { Static } from '@sinclair/typebox';
import {
  bool,
  field,
  int32,
  int64,
  list,
  map,
  oneOf,
  quantity,
  required,
  str,
  struct,
  time,
} from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { isQualifiedName, isValidLabelValue, parseCIDR } from '../../util/names';
import { child, duplicate, forbidden, invalid, type FieldError } from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;

/**
 * The IP the node agent was given with --node-ip under an external cloud provider (the kubelet's
 * annotation): the cloud controller manager keeps that address of the cloud's, not the others of
 * its type.
 */
export const PROVIDED_NODE_IP_ANNOTATION = 'alpha.kubernetes.io/provided-node-ip';

/** The node agent's --node-ip a node announces (its provided-node-ip annotation), if any. */
export function providedNodeIP(node: {
  metadata?: { annotations?: Record<string, string> };
}): string | undefined {
  return node.metadata?.annotations?.[PROVIDED_NODE_IP_ANNOTATION] || undefined;
}

export const TaintSchema = struct(
  core('Taint'),
  {
    key: str({ proto: 1, description: 'The taint key (a qualified name).' }),
    value: str({ proto: 2, description: 'The taint value (a label value).' }),
    effect: required(
      oneOf(['NoSchedule', 'PreferNoSchedule', 'NoExecute'], {
        proto: 3,
        description: 'Effect on pods not tolerating the taint: NoSchedule, PreferNoSchedule or NoExecute.',
      }),
    ),
    timeAdded: time({
      proto: 4,
      description: 'When the taint was added; only written for NoExecute taints.',
    }),
  },
  {
    validate: (taint, path) => {
      const key = taint.key ?? '';
      const errors: FieldError[] = isQualifiedName(key).map((msg) => invalid(child(path, 'key'), key, msg));
      const valueErrors = isValidLabelValue(taint.value ?? '');
      if (valueErrors.length)
        errors.push(invalid(child(path, 'value'), taint.value ?? '', valueErrors.join(';')));
      return errors;
    },
  },
);
export type Taint = Static<typeof TaintSchema>;

/** Kubernetes' validateNodeTaints uniqueness rule: one taint per (key, effect). */
function validateUniqueTaints(taints: readonly Taint[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  taints.forEach((taint, i) => {
    const id = `${taint.effect}\u0000${taint.key ?? ''}`;
    if (seen.has(id)) {
      errors.push({
        ...duplicate(child(path, i), taint),
        detail: 'taints must be unique by key and effect pair',
      });
    }
    seen.add(id);
  });
  return errors;
}

/** The IP family of a CIDR such as 10.244.0.0/24 or fd00::/64; undefined when it is not one. */
export function cidrFamily(cidr: string): 4 | 6 | undefined {
  return parseCIDR(cidr)?.family;
}

/** Kubernetes' ValidateNode rules on spec.podCIDRs: valid CIDRs, at most one per family, no duplicates. */
function validatePodCIDRs(cidrs: readonly string[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  const families = cidrs.map(cidrFamily);
  families.forEach((f, i) => {
    if (f === undefined) errors.push(invalid(child(path, i), cidrs, 'must be valid CIDR'));
  });
  if (cidrs.length > 1) {
    const dualStack = families.includes(4) && families.includes(6);
    if (!dualStack || cidrs.length > 2) {
      errors.push(invalid(path, cidrs, 'may specify no more than one CIDR for each IP family'));
    }
    const seen = new Set<string>();
    cidrs.forEach((c, i) => {
      if (seen.has(c)) errors.push(duplicate(child(path, i), c));
      seen.add(c);
    });
  }
  return errors;
}

export const ConfigMapNodeConfigSourceSchema = struct(core('ConfigMapNodeConfigSource'), {
  namespace: required(str({ proto: 1, description: 'Namespace of the referenced ConfigMap.' })),
  name: required(str({ proto: 2, description: 'Name of the referenced ConfigMap.' })),
  uid: str({
    proto: 3,
    description: 'UID of the referenced ConfigMap; forbidden in spec, required in status.',
  }),
  resourceVersion: str({
    proto: 4,
    description: 'ResourceVersion of the referenced ConfigMap; forbidden in spec, required in status.',
  }),
  kubeletConfigKey: required(
    str({ proto: 5, description: 'Key of the ConfigMap holding the KubeletConfiguration.' }),
  ),
});

export const NodeConfigSourceSchema = struct(core('NodeConfigSource'), {
  configMap: field(ConfigMapNodeConfigSourceSchema, {
    proto: 2,
    description: 'A ConfigMap holding node configuration.',
  }),
});

export const NodeSpecSchema = struct(
  core('NodeSpec'),
  {
    podCIDR: str({ proto: 1, omitZero: true, description: 'Pod IP range assigned to the node.' }),
    podCIDRs: list(str(), {
      proto: 7,
      patchStrategy: 'merge',
      description: 'Pod IP ranges assigned to the node, at most one per IP family; the first equals podCIDR.',
    }),
    providerID: str({
      omitZero: true,
      proto: 3,
      description: 'Cloud provider ID of the node: <ProviderName>://<ProviderSpecificNodeID>.',
    }),
    unschedulable: bool({
      proto: 4,
      omitZero: true,
      description: 'Whether new pods may be scheduled to the node.',
    }),
    taints: list(TaintSchema, { proto: 5, description: "The node's taints." }),
    configSource: field(NodeConfigSourceSchema, {
      proto: 6,
      description: 'Where the kubelet takes its configuration from.',
    }),
    externalID: str({ proto: 2, omitZero: true, description: 'Deprecated; not set by all kubelets.' }),
  },
  {
    // podCIDR and podCIDRs mirror each other (Kubernetes converts between them).
    defaults: (spec) => {
      if (!spec.podCIDRs?.length && spec.podCIDR) spec.podCIDRs = [spec.podCIDR];
      else if (spec.podCIDRs?.length && !spec.podCIDR) spec.podCIDR = spec.podCIDRs[0];
    },
    validate: (spec, path) => [
      ...validateUniqueTaints(spec.taints ?? [], child(path, 'taints')),
      ...validatePodCIDRs(spec.podCIDRs ?? [], child(path, 'podCIDRs')),
    ],
  },
);

export const NodeConditionSchema = struct(core('NodeCondition'), {
  type: str({ proto: 1, description: 'Type of node condition (Ready, MemoryPressure, ...).' }),
  status: str({ proto: 2, description: 'Status of the condition: True, False or Unknown.' }),
  lastHeartbeatTime: time({ proto: 3, description: 'Last time the condition was reported.' }),
  lastTransitionTime: time({ proto: 4, description: 'Last time the condition changed status.' }),
  reason: str({ proto: 5, description: 'Machine-readable reason for the last transition.' }),
  message: str({ proto: 6, description: 'Human-readable details of the last transition.' }),
});

export const NodeAddressSchema = struct(core('NodeAddress'), {
  type: str({
    proto: 1,
    description: 'Address type: Hostname, ExternalIP, InternalIP, ExternalDNS or InternalDNS.',
  }),
  address: str({ proto: 2, description: 'The address.' }),
});

export const DaemonEndpointSchema = struct(core('DaemonEndpoint'), {
  Port: required(int32({ proto: 1, description: 'Port number of the endpoint.' })),
});

export const NodeDaemonEndpointsSchema = struct(core('NodeDaemonEndpoints'), {
  kubeletEndpoint: field(DaemonEndpointSchema, { proto: 1, description: 'Endpoint the kubelet listens on.' }),
});

export const NodeSystemInfoSchema = struct(core('NodeSystemInfo'), {
  machineID: str({ proto: 1, description: 'Machine ID reported by the node.' }),
  systemUUID: str({ proto: 2, description: 'System UUID reported by the node.' }),
  bootID: str({ proto: 3, description: 'Boot ID reported by the node.' }),
  kernelVersion: str({ proto: 4, description: "Kernel version reported by the node ('uname -r')." }),
  osImage: str({ proto: 5, description: 'OS image reported by the node (/etc/os-release).' }),
  containerRuntimeVersion: str({
    proto: 6,
    description: 'Container runtime version, e.g. containerd://1.4.0.',
  }),
  kubeletVersion: str({ proto: 7, description: 'Version of the node agent.' }),
  kubeProxyVersion: str({ proto: 8, description: 'Version of the node proxy.' }),
  operatingSystem: str({ proto: 9, description: 'Operating system of the node.' }),
  architecture: str({ proto: 10, description: 'Architecture of the node.' }),
});

export const ContainerImageSchema = struct(core('ContainerImage'), {
  names: list(str(), { proto: 1, description: 'Names the image is known by.' }),
  sizeBytes: int64({ proto: 2, description: 'Size of the image in bytes.' }),
});

export const AttachedVolumeSchema = struct(core('AttachedVolume'), {
  name: required(str({ proto: 1, description: 'Name of the attached volume.' })),
  devicePath: required(str({ proto: 2, description: 'Device path where the volume is available.' })),
});

export const NodeConfigStatusSchema = struct(core('NodeConfigStatus'), {
  assigned: field(NodeConfigSourceSchema, { proto: 1, description: 'Config the node will try to use.' }),
  active: field(NodeConfigSourceSchema, { proto: 2, description: 'Config the node is using.' }),
  lastKnownGood: field(NodeConfigSourceSchema, { proto: 3, description: 'Config the node falls back to.' }),
  error: str({ proto: 4, description: 'Problems reconciling spec.configSource with the active config.' }),
});

export const NodeStatusSchema = struct(
  core('NodeStatus'),
  {
    capacity: map(quantity(), { proto: 1, description: 'Total resources of the node.' }),
    allocatable: map(quantity(), {
      proto: 2,
      description: 'Resources available for scheduling; defaults to capacity.',
    }),
    phase: str({
      proto: 3,
      enum: ['Pending', 'Running', 'Terminated'],
      description: 'Deprecated, never populated.',
    }),
    conditions: list(NodeConditionSchema, {
      proto: 4,
      patchMergeKey: 'type',
      patchStrategy: 'merge',
      description: 'Current observed node conditions.',
    }),
    addresses: list(NodeAddressSchema, {
      proto: 5,
      patchMergeKey: 'type',
      patchStrategy: 'merge',
      description: 'Addresses the node is reachable at.',
    }),
    daemonEndpoints: field(NodeDaemonEndpointsSchema, {
      proto: 6,
      description: 'Endpoints of daemons on the node.',
    }),
    nodeInfo: field(NodeSystemInfoSchema, { proto: 7, description: 'Identifiers and versions of the node.' }),
    images: list(ContainerImageSchema, { proto: 8, description: 'Container images present on the node.' }),
    volumesInUse: list(str(), { proto: 9, description: 'Attachable volumes mounted by the node.' }),
    volumesAttached: list(AttachedVolumeSchema, { proto: 10, description: 'Volumes attached to the node.' }),
    config: field(NodeConfigStatusSchema, {
      proto: 11,
      description: 'Status of the dynamically assigned config.',
    }),
  },
  {
    defaults: (status) => {
      if (status.allocatable === undefined && status.capacity !== undefined)
        status.allocatable = { ...status.capacity };
    },
  },
);

export const NodeSchema = struct(
  core('Node'),
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(NodeSpecSchema, { proto: 2, description: 'Behaviour of the node.' }),
    status: field(NodeStatusSchema, { proto: 3, description: 'Most recently observed status of the node.' }),
  },
  { description: 'A machine that runs pods, with its capacity and conditions.' },
);
export type Node = Static<typeof NodeSchema>;

/** Verbs Kubernetes lists for the proxy subresources (HTTP methods mapped to verbs). */
export const PROXY_VERBS = ['create', 'delete', 'get', 'patch', 'update'] as const;

const NODE_ROLE_PREFIX = 'node-role.kubernetes.io/';
const NODE_ROLE_LABEL = 'kubernetes.io/role';

/** The node's roles from its node-role.kubernetes.io/<role> and kubernetes.io/role labels, sorted. */
export function nodeRoles(node: Node): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata?.labels ?? {})) {
    if (k.startsWith(NODE_ROLE_PREFIX)) {
      const role = k.slice(NODE_ROLE_PREFIX.length);
      if (role) roles.add(role);
    } else if (k === NODE_ROLE_LABEL && v !== '') {
      roles.add(v);
    }
  }
  return [...roles].sort();
}

/** The STATUS cell: Ready / NotReady / Unknown, with ",SchedulingDisabled" for cordoned nodes. */
export function nodeStatus(node: Node): string {
  const status: string[] = [];
  const ready = node.status?.conditions?.filter((c) => c.type === 'Ready').pop();
  if (ready) status.push(ready.status === 'True' ? 'Ready' : 'NotReady');
  else status.push('Unknown');
  if (node.spec?.unschedulable) status.push('SchedulingDisabled');
  return status.join(',');
}

function nodeAddress(node: Node, type: string): string {
  return node.status?.addresses?.find((a) => a.type === type)?.address ?? '<none>';
}

const orUnknown = (s: string | undefined): string => (s ? s : '<unknown>');

export const NodeKind = defineKind({
  group: '',
  versions: ['v1'],
  kind: 'Node',
  plural: 'nodes',
  singular: 'node',
  shortNames: ['no'],
  namespaced: false,
  generation: false,
  schema: NodeSchema,
  subresources: { status: true, proxy: { kind: 'NodeProxyOptions', verbs: PROXY_VERBS } },
  validateUpdate: (node, old) => {
    const errors: FieldError[] = [];
    const oldCIDRs = old.spec?.podCIDRs ?? [];
    const cidrs = node.spec?.podCIDRs ?? [];
    if (
      oldCIDRs.length > 0 &&
      (oldCIDRs.length !== cidrs.length || oldCIDRs.some((c, i) => c !== cidrs[i]))
    ) {
      errors.push(forbidden('spec.podCIDRs', 'node updates may not change podCIDR except from "" to valid'));
    }
    if (old.spec?.providerID && old.spec.providerID !== node.spec?.providerID) {
      errors.push(
        forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'),
      );
    }
    return errors;
  },
  selectableFields: { 'spec.unschedulable': (node) => String(node.spec?.unschedulable ?? false) },
  columns: [
    nameColumn(),
    { name: 'Status', type: 'string', description: 'The status of the node', cell: nodeStatus },
    {
      name: 'Roles',
      type: 'string',
      description: 'The roles of the node',
      cell: (node) => nodeRoles(node).join(',') || '<none>',
    },
    ageColumn(),
    {
      name: 'Version',
      type: 'string',
      description: 'Version of the node agent.',
      cell: (node) => node.status?.nodeInfo?.kubeletVersion ?? '',
    },
    {
      name: 'Internal-IP',
      type: 'string',
      priority: 1,
      description: 'First InternalIP address of the node.',
      cell: (node) => nodeAddress(node, 'InternalIP'),
    },
    {
      name: 'External-IP',
      type: 'string',
      priority: 1,
      description: 'First ExternalIP address of the node.',
      cell: (node) => nodeAddress(node, 'ExternalIP'),
    },
    {
      name: 'OS-Image',
      type: 'string',
      priority: 1,
      description: 'OS image reported by the node.',
      cell: (node) => orUnknown(node.status?.nodeInfo?.osImage),
    },
    {
      name: 'Kernel-Version',
      type: 'string',
      priority: 1,
      description: 'Kernel version reported by the node.',
      cell: (node) => orUnknown(node.status?.nodeInfo?.kernelVersion),
    },
    {
      name: 'Container-Runtime',
      type: 'string',
      priority: 1,
      description: 'Container runtime version reported by the node.',
      cell: (node) => orUnknown(node.status?.nodeInfo?.containerRuntimeVersion),
    },
  ],
});
