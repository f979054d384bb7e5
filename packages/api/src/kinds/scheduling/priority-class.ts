import type { Static } from '@sinclair/typebox';
import { bool, int32, oneOf, required, str, struct, type StructSchema } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { child, forbidden, type FieldError } from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';

/** The highest priority a user-defined class may have. */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1000000000;
/** Prefix of the names reserved for the system classes. */
export const SYSTEM_PRIORITY_CLASS_PREFIX = 'system-';
/** The classes every cluster has: the apiserver creates them and refuses their deletion. */
export const systemPriorityClassList: readonly { name: string; value: number; description: string }[] = [
  {
    name: 'system-node-critical',
    value: 2000001000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    name: 'system-cluster-critical',
    value: 2000000000,
    description:
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];
/** The system classes' values by name (a map without a prototype: a class named "constructor" is no system class). */
export const systemPriorityClasses: Readonly<Record<string, number>> = Object.assign(
  Object.create(null) as Record<string, number>,
  Object.fromEntries(systemPriorityClassList.map((c) => [c.name, c.value])),
);

export const PreemptionPolicies = ['PreemptLowerPriority', 'Never'] as const;

const priorityClassFields = {
  ...typeMeta(),
  metadata: objectMeta(),
  value: required(
    int32({
      proto: 2,
      description: 'Priority received by pods naming this class; higher values mean higher priority.',
    }),
  ),
  globalDefault: bool({
    proto: 3,
    description:
      'The priority of pods without a priority class name; only one class may be the global default.',
  }),
  description: str({ proto: 4, description: 'When this priority class should be used.' }),
  preemptionPolicy: oneOf(PreemptionPolicies, {
    proto: 5,
    featureGate: 'NonPreemptingPriority',
    default: 'PreemptLowerPriority',
    immutable: true,
    description: 'Whether pods of this class may preempt lower priority pods: Never or PreemptLowerPriority.',
  }),
};

/** The value a PriorityClass hook receives. */
type PriorityClassValue = Static<StructSchema<typeof priorityClassFields>>;

export const PriorityClassSchema = struct('io.k8s.api.scheduling.v1.PriorityClass', priorityClassFields, {
  description: 'Maps a priority class name to the integer priority of the pods that name it.',
  validate: (pc, path) => validatePriorityClassValue(pc, path),
});
export type PriorityClass = Static<typeof PriorityClassSchema>;

/** Reserved names and the ceiling of user-defined priorities (Kubernetes' ValidatePriorityClass). */
function validatePriorityClassValue(pc: PriorityClassValue, path: string): FieldError[] {
  const name = pc.metadata?.name ?? '';
  const systemValue = systemPriorityClasses[name];
  if (systemValue !== undefined && systemValue === pc.value && !pc.globalDefault) return [];
  if (name.startsWith(SYSTEM_PRIORITY_CLASS_PREFIX)) {
    return [
      forbidden(
        child(child(path, 'metadata'), 'name'),
        `priority class names with '${SYSTEM_PRIORITY_CLASS_PREFIX}' prefix are reserved for system use only`,
      ),
    ];
  }
  if (pc.value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    return [
      forbidden(
        child(path, 'value'),
        `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`,
      ),
    ];
  }
  return [];
}

export const PriorityClassKind = defineKind({
  group: 'scheduling.k8s.io',
  versions: ['v1'],
  kind: 'PriorityClass',
  plural: 'priorityclasses',
  singular: 'priorityclass',
  shortNames: ['pc'],
  namespaced: false,
  schema: PriorityClassSchema,
  validateUpdate: (pc, old) =>
    pc.value !== old.value ? [forbidden('value', 'may not be changed in an update.')] : [],
  columns: [
    nameColumn(),
    { name: 'Value', type: 'integer', description: 'Priority value of the class.', cell: (pc) => pc.value },
    {
      name: 'Global-Default',
      type: 'boolean',
      description: 'Whether this class is the default for pods without a priority class name.',
      cell: (pc) => pc.globalDefault ?? false,
    },
    ageColumn(),
  ],
});
