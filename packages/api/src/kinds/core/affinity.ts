import type { Static } from '@sinclair/typebox';
import { field, int32, list, required, str, struct } from '../../schema/fields';
import type { FieldErrorLike } from '../../schema/fields';
import { LabelSelectorSchema } from '../../meta/object-meta';
import { isQualifiedName } from '../../util/names';
import { child, forbidden, invalid, required as requiredError } from '../../validation/field-error';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;

function validateWeight(weight: number, path: string): FieldErrorLike[] {
  return weight <= 0 || weight > 100
    ? [invalid(child(path, 'weight'), weight, 'must be in the range 1-100')]
    : [];
}

export const NodeSelectorRequirementSchema = struct(
  core('NodeSelectorRequirement'),
  {
    key: required(str({ proto: 1, description: 'The label key the selector applies to.' })),
    operator: required(str({ proto: 2, description: 'In, NotIn, Exists, DoesNotExist, Gt or Lt.' })),
    values: list(str(), { proto: 3, description: 'Values compared with the label value.' }),
  },
  {
    validate: (rq, path) => {
      const errs: FieldErrorLike[] = [];
      const n = rq.values?.length ?? 0;
      const valuesPath = child(path, 'values');
      switch (rq.operator) {
        case 'In':
        case 'NotIn':
          if (n === 0)
            errs.push(requiredError(valuesPath, "must be specified when `operator` is 'In' or 'NotIn'"));
          break;
        case 'Exists':
        case 'DoesNotExist':
          if (n > 0)
            errs.push(
              forbidden(valuesPath, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
            );
          break;
        case 'Gt':
        case 'Lt':
          if (n !== 1)
            errs.push(
              requiredError(valuesPath, "must be specified single value when `operator` is 'Lt' or 'Gt'"),
            );
          break;
        default:
          errs.push(invalid(child(path, 'operator'), rq.operator, 'not a valid selector operator'));
      }
      for (const msg of isQualifiedName(rq.key)) errs.push(invalid(child(path, 'key'), rq.key, msg));
      return errs;
    },
  },
);
export type NodeSelectorRequirement = Static<typeof NodeSelectorRequirementSchema>;

export const NodeSelectorTermSchema = struct(
  core('NodeSelectorTerm'),
  {
    matchExpressions: list(NodeSelectorRequirementSchema, {
      proto: 1,
      description: "Requirements on the node's labels.",
    }),
    matchFields: list(NodeSelectorRequirementSchema, {
      proto: 2,
      description: "Requirements on the node's fields.",
    }),
  },
  { mapType: 'atomic' },
);
export type NodeSelectorTerm = Static<typeof NodeSelectorTermSchema>;

export const NodeSelectorSchema = struct(
  core('NodeSelector'),
  {
    nodeSelectorTerms: required(list(NodeSelectorTermSchema, { proto: 1, description: 'Terms, ORed.' })),
  },
  {
    mapType: 'atomic',
    validate: (ns, path) =>
      ns.nodeSelectorTerms.length === 0
        ? [requiredError(child(path, 'nodeSelectorTerms'), 'must have at least one node selector term')]
        : [],
  },
);
export type NodeSelector = Static<typeof NodeSelectorSchema>;

export const PreferredSchedulingTermSchema = struct(
  core('PreferredSchedulingTerm'),
  {
    weight: required(int32({ proto: 1, description: 'Weight of this term, 1-100.' })),
    preference: required(field(NodeSelectorTermSchema, { proto: 2, description: 'The node selector term.' })),
  },
  { validate: (t, path) => validateWeight(t.weight, path) },
);
export type PreferredSchedulingTerm = Static<typeof PreferredSchedulingTermSchema>;

export const NodeAffinitySchema = struct(core('NodeAffinity'), {
  requiredDuringSchedulingIgnoredDuringExecution: field(NodeSelectorSchema, {
    proto: 1,
    description: 'Node requirements that must hold at scheduling time.',
  }),
  preferredDuringSchedulingIgnoredDuringExecution: list(PreferredSchedulingTermSchema, {
    proto: 2,
    description: 'Weighted node preferences.',
  }),
});
export type NodeAffinity = Static<typeof NodeAffinitySchema>;

export const PodAffinityTermSchema = struct(
  core('PodAffinityTerm'),
  {
    labelSelector: field(LabelSelectorSchema, { proto: 1, description: 'Pods this term refers to.' }),
    namespaces: list(str(), { proto: 2, description: "Namespaces of those pods; the pod's own by default." }),
    topologyKey: required(str({ proto: 3, description: 'Node label key defining co-location.' })),
    namespaceSelector: field(LabelSelectorSchema, {
      proto: 4,
      description: 'Selects the namespaces of those pods.',
    }),
    matchLabelKeys: list(str(), {
      proto: 5,
      listType: 'atomic',
      description:
        "Keys of the pod's own labels whose values are added to the label selector (key in value).",
    }),
    mismatchLabelKeys: list(str(), {
      proto: 6,
      listType: 'atomic',
      description:
        "Keys of the pod's own labels whose values are added to the label selector (key notin value).",
    }),
  },
  {
    validate: (t, path) => {
      const at = child(path, 'topologyKey');
      if (!t.topologyKey) return [requiredError(at, 'can not be empty')];
      return isQualifiedName(t.topologyKey).map((msg) => invalid(at, t.topologyKey, msg));
    },
  },
);
export type PodAffinityTerm = Static<typeof PodAffinityTermSchema>;

export const WeightedPodAffinityTermSchema = struct(
  core('WeightedPodAffinityTerm'),
  {
    weight: required(int32({ proto: 1, description: 'Weight of this term, 1-100.' })),
    podAffinityTerm: required(
      field(PodAffinityTermSchema, { proto: 2, description: 'The pod affinity term.' }),
    ),
  },
  { validate: (t, path) => validateWeight(t.weight, path) },
);
export type WeightedPodAffinityTerm = Static<typeof WeightedPodAffinityTermSchema>;

const podAffinityFields = {
  requiredDuringSchedulingIgnoredDuringExecution: list(PodAffinityTermSchema, {
    proto: 1,
    description: 'Terms that must all hold at scheduling time.',
  }),
  preferredDuringSchedulingIgnoredDuringExecution: list(WeightedPodAffinityTermSchema, {
    proto: 2,
    description: 'Weighted preferences.',
  }),
};

export const PodAffinitySchema = struct(core('PodAffinity'), podAffinityFields);
export type PodAffinity = Static<typeof PodAffinitySchema>;

export const PodAntiAffinitySchema = struct(core('PodAntiAffinity'), podAffinityFields);
export type PodAntiAffinity = Static<typeof PodAntiAffinitySchema>;

export const AffinitySchema = struct(core('Affinity'), {
  nodeAffinity: field(NodeAffinitySchema, { proto: 1, description: 'Node affinity rules.' }),
  podAffinity: field(PodAffinitySchema, {
    proto: 2,
    description: 'Rules co-locating this pod with other pods.',
  }),
  podAntiAffinity: field(PodAntiAffinitySchema, {
    proto: 3,
    description: 'Rules keeping this pod away from other pods.',
  }),
});
export type Affinity = Static<typeof AffinitySchema>;
