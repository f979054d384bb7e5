import type { Static } from '@sinclair/typebox';
import { field, int32, intOrString, list, str, struct } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { LabelSelectorSchema, objectMeta, typeMeta } from '../../meta/object-meta';
import { formatLabelSelector } from '../../util/labels';
import { isStrictSubnet, isValidCIDR, isValidPortName, isValidPortNum } from '../../util/names';
import {
  child,
  forbidden,
  GoSyntax,
  invalid,
  notSupported,
  required as requiredError,
  type FieldError,
} from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';
import { PORT_PROTOCOLS } from '../core/service';

const networking = (name: string): string => `io.k8s.api.networking.v1.${name}`;

/** The directions of traffic a policy can govern. */
export const POLICY_TYPES = ['Egress', 'Ingress'] as const;

export const IPBlockSchema = struct(networking('IPBlock'), {
  cidr: str({ proto: 1, description: 'A range of addresses, such as 192.168.1.0/24 or 2001:db8::/64.' }),
  except: list(str(), {
    proto: 2,
    listType: 'atomic',
    description: 'Ranges inside cidr that are left out.',
  }),
});

export const NetworkPolicyPeerSchema = struct(networking('NetworkPolicyPeer'), {
  podSelector: field(LabelSelectorSchema, {
    proto: 1,
    description: 'Pods, in the namespaces namespaceSelector selects or else in the namespace of the policy.',
  }),
  namespaceSelector: field(LabelSelectorSchema, { proto: 2, description: 'Namespaces, by their labels.' }),
  ipBlock: field(IPBlockSchema, { proto: 3, description: 'A range of addresses; alone in its peer.' }),
});
type Peer = Static<typeof NetworkPolicyPeerSchema>;

export const NetworkPolicyPortSchema = struct(networking('NetworkPolicyPort'), {
  protocol: str({
    proto: 1,
    default: 'TCP',
    description: 'Protocol the traffic must match: TCP (default), UDP or SCTP.',
  }),
  port: intOrString({ proto: 2, description: 'Port number or name; every port when unset.' }),
  endPort: int32({ proto: 3, description: 'Last port of a range beginning at the numeric port.' }),
});
type Port = Static<typeof NetworkPolicyPortSchema>;

export const NetworkPolicyIngressRuleSchema = struct(networking('NetworkPolicyIngressRule'), {
  ports: list(NetworkPolicyPortSchema, {
    proto: 1,
    listType: 'atomic',
    description: 'Ports the traffic may reach; every port when empty.',
  }),
  from: list(NetworkPolicyPeerSchema, {
    proto: 2,
    listType: 'atomic',
    description: 'Sources allowed; every source when empty.',
  }),
});

export const NetworkPolicyEgressRuleSchema = struct(networking('NetworkPolicyEgressRule'), {
  ports: list(NetworkPolicyPortSchema, {
    proto: 1,
    listType: 'atomic',
    description: 'Ports the traffic may reach; every port when empty.',
  }),
  to: list(NetworkPolicyPeerSchema, {
    proto: 2,
    listType: 'atomic',
    description: 'Destinations allowed; every destination when empty.',
  }),
});

function validatePort(port: Port, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (port.protocol !== undefined && !(PORT_PROTOCOLS as readonly string[]).includes(port.protocol))
    errs.push(notSupported(child(path, 'protocol'), port.protocol, PORT_PROTOCOLS));
  const at = child(path, 'port');
  const endPort = child(path, 'endPort');
  if (typeof port.port === 'number') {
    for (const msg of isValidPortNum(port.port)) errs.push(invalid(at, port.port, msg));
    if (port.endPort !== undefined && port.endPort < port.port)
      errs.push(invalid(endPort, port.endPort, 'must be greater than or equal to `port`'));
  } else if (typeof port.port === 'string') {
    for (const msg of isValidPortName(port.port)) errs.push(invalid(at, port.port, msg));
    if (port.endPort !== undefined)
      errs.push(invalid(endPort, port.endPort, 'may not be specified when `port` is non-numeric'));
  } else if (port.endPort !== undefined) {
    errs.push(invalid(endPort, port.endPort, 'may not be specified when `port` is not specified'));
  }
  return errs;
}

function validateIPBlock(block: Static<typeof IPBlockSchema>, path: string): FieldError[] {
  const cidr = block.cidr ?? '';
  if (cidr === '') return [requiredError(child(path, 'cidr'))];
  const errs = isValidCIDR(cidr).map((msg) => invalid(child(path, 'cidr'), cidr, msg));
  if (errs.length) return errs;
  (block.except ?? []).forEach((except, i) => {
    const at = child(child(path, 'except'), i);
    const bad = isValidCIDR(except);
    if (bad.length) errs.push(...bad.map((msg) => invalid(at, except, msg)));
    else if (!isStrictSubnet(cidr, except))
      errs.push(invalid(at, except, 'must be a strict subset of `cidr`'));
  });
  return errs;
}

function validatePeer(peer: Peer, path: string): FieldError[] {
  const set = [peer.podSelector, peer.namespaceSelector, peer.ipBlock].filter((p) => p !== undefined);
  if (!set.length) return [requiredError(path, 'must specify a peer')];
  if (set.length > 1 && peer.ipBlock)
    return [forbidden(path, 'may not specify both ipBlock and another peer')];
  return peer.ipBlock ? validateIPBlock(peer.ipBlock, child(path, 'ipBlock')) : [];
}

function validateRules(
  rules: readonly { ports?: Port[]; from?: Peer[]; to?: Peer[] }[],
  path: string,
  peers: 'from' | 'to',
): FieldError[] {
  const errs: FieldError[] = [];
  rules.forEach((rule, i) => {
    const at = child(path, i);
    (rule.ports ?? []).forEach((p, j) => errs.push(...validatePort(p, child(child(at, 'ports'), j))));
    (rule[peers] ?? []).forEach((p, j) => errs.push(...validatePeer(p, child(child(at, peers), j))));
  });
  return errs;
}

export const NetworkPolicySpecSchema = struct(
  networking('NetworkPolicySpec'),
  {
    podSelector: field(LabelSelectorSchema, {
      proto: 1,
      // a plain Go struct: absent reads as empty, and is always written
      default: {},
      description: 'Pods of the namespace the policy applies to; every pod when empty.',
    }),
    ingress: list(NetworkPolicyIngressRuleSchema, {
      proto: 2,
      listType: 'atomic',
      description: 'Incoming traffic allowed to the selected pods.',
    }),
    egress: list(NetworkPolicyEgressRuleSchema, {
      proto: 3,
      listType: 'atomic',
      description: 'Outgoing traffic allowed from the selected pods.',
    }),
    policyTypes: list(str(), {
      proto: 4,
      listType: 'atomic',
      description: 'Directions governed: Ingress, and Egress when there are egress rules, by default.',
    }),
  },
  {
    defaults: (spec) => {
      if (spec.policyTypes?.length) return;
      // a policy that names no direction governs incoming traffic, and outgoing when it has egress rules
      spec.policyTypes = spec.egress?.length ? ['Ingress', 'Egress'] : ['Ingress'];
    },
    validate: (spec, path): FieldError[] => {
      const errs = [
        ...validateRules(spec.ingress ?? [], child(path, 'ingress'), 'from'),
        ...validateRules(spec.egress ?? [], child(path, 'egress'), 'to'),
      ];
      const types = spec.policyTypes ?? [];
      types.forEach((t, i) => {
        if (!(POLICY_TYPES as readonly string[]).includes(t))
          errs.push(notSupported(child(child(path, 'policyTypes'), i), t, POLICY_TYPES));
      });
      if (types.length > POLICY_TYPES.length)
        errs.push(
          invalid(
            child(path, 'policyTypes'),
            new GoSyntax(`[]networking.PolicyType{${types.map((t) => JSON.stringify(t)).join(', ')}}`),
            'may not specify more than two policyTypes',
          ),
        );
      return errs;
    },
  },
);

export const NetworkPolicySchema = struct(
  networking('NetworkPolicy'),
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(NetworkPolicySpecSchema, { proto: 2, description: 'The traffic the policy allows.' }),
  },
  { description: 'The network traffic allowed to and from a set of pods.' },
);
export type NetworkPolicy = Static<typeof NetworkPolicySchema>;

export const NetworkPolicyKind = defineKind({
  group: 'networking.k8s.io',
  versions: ['v1'],
  kind: 'NetworkPolicy',
  plural: 'networkpolicies',
  singular: 'networkpolicy',
  shortNames: ['netpol'],
  namespaced: true,
  schema: NetworkPolicySchema,
  columns: [
    nameColumn(),
    {
      name: 'Pod-Selector',
      type: 'string',
      description: 'The pods the policy applies to.',
      cell: (np) => formatLabelSelector(np.spec?.podSelector),
    },
    ageColumn(),
  ],
});
