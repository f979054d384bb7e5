import type { Static } from '@sinclair/typebox';
import { field, list, map, oneOf, quantity, required, str, struct } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { child, invalid, key, type FieldError } from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';
import { quantityValue } from './resources';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;

/** Quota scopes of Kubernetes 1.20. */
export const RESOURCE_QUOTA_SCOPES = [
  'Terminating',
  'NotTerminating',
  'BestEffort',
  'NotBestEffort',
  'PriorityClass',
] as const;

/** Kubernetes' ValidateResourceQuantityValue sign rule for every entry of a resource list. */
export function validateNonNegativeQuantities(
  list: Record<string, string> | undefined,
  path: string,
): FieldError[] {
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(list ?? {})) {
    const v = quantityValue(value);
    if (v !== undefined && v < 0)
      errors.push(invalid(key(path, name), String(value), 'must be greater than or equal to 0'));
  }
  return errors;
}

export const ScopedResourceSelectorRequirementSchema = struct(core('ScopedResourceSelectorRequirement'), {
  scopeName: required(
    oneOf(RESOURCE_QUOTA_SCOPES, { proto: 1, description: 'Name of the scope the selector applies to.' }),
  ),
  operator: required(
    oneOf(['In', 'NotIn', 'Exists', 'DoesNotExist'], {
      proto: 2,
      description: 'Relationship of the scope to the values: In, NotIn, Exists or DoesNotExist.',
    }),
  ),
  values: list(str(), {
    proto: 3,
    description: 'Values for In and NotIn; empty for Exists and DoesNotExist.',
  }),
});

export const ScopeSelectorSchema = struct(
  core('ScopeSelector'),
  {
    matchExpressions: list(ScopedResourceSelectorRequirementSchema, {
      proto: 1,
      description: 'Scope requirements, ANDed.',
    }),
  },
  { mapType: 'atomic' },
);

const conflictingScopes: readonly [string, string][] = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
];

export const ResourceQuotaSpecSchema = struct(
  core('ResourceQuotaSpec'),
  {
    hard: map(quantity(), { proto: 1, description: 'Hard limits for each named resource.' }),
    scopes: list(str(), { proto: 2, description: 'Filters every tracked object must match.' }),
    scopeSelector: field(ScopeSelectorSchema, {
      proto: 3,
      description: 'Scope filters expressed with operators.',
    }),
  },
  {
    validate: (spec, path) => {
      const errors = validateNonNegativeQuantities(spec.hard, child(path, 'hard'));
      const scopes = spec.scopes ?? [];
      const scopesPath = child(path, 'scopes');
      for (const scope of scopes) {
        if (!(RESOURCE_QUOTA_SCOPES as readonly string[]).includes(scope))
          errors.push(invalid(scopesPath, scopes, 'unsupported scope'));
      }
      for (const [a, b] of conflictingScopes) {
        if (scopes.includes(a) && scopes.includes(b))
          errors.push(invalid(scopesPath, scopes, 'conflicting scopes'));
      }
      return errors;
    },
  },
);

export const ResourceQuotaStatusSchema = struct(
  core('ResourceQuotaStatus'),
  {
    hard: map(quantity(), { proto: 1, description: 'Enforced hard limits.' }),
    used: map(quantity(), { proto: 2, description: 'Observed usage in the namespace.' }),
  },
  {
    validate: (status, path) => [
      ...validateNonNegativeQuantities(status.hard, child(path, 'hard')),
      ...validateNonNegativeQuantities(status.used, child(path, 'used')),
    ],
  },
);

export const ResourceQuotaSchema = struct(
  core('ResourceQuota'),
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(ResourceQuotaSpecSchema, { proto: 2, description: 'Desired quota.' }),
    status: field(ResourceQuotaStatusSchema, {
      proto: 3,
      default: {},
      description: 'Enforced quota and current usage.',
    }),
  },
  { description: 'Limits the total resources and object counts of a namespace.' },
);
export type ResourceQuota = Static<typeof ResourceQuotaSchema>;

/** Kubernetes' printResourceQuota cells: "name: used/hard, ..." split into requests and limits.* resources. */
export function quotaUsage(quota: ResourceQuota): { request: string; limit: string } {
  const hard = quota.status?.hard ?? {};
  const used = quota.status?.used ?? {};
  const request: string[] = [];
  const limit: string[] = [];
  for (const name of Object.keys(hard).sort()) {
    const pieces = name.split('.');
    const target = pieces.length > 1 && pieces[0] === 'limits' ? limit : request;
    target.push(`${name}: ${String(used[name] ?? '0')}/${String(hard[name])}`);
  }
  return { request: request.join(', '), limit: limit.join(', ') };
}

export const ResourceQuotaKind = defineKind({
  group: '',
  versions: ['v1'],
  kind: 'ResourceQuota',
  plural: 'resourcequotas',
  singular: 'resourcequota',
  shortNames: ['quota'],
  namespaced: true,
  generation: false,
  schema: ResourceQuotaSchema,
  subresources: { status: true },
  columns: [
    nameColumn(),
    ageColumn(),
    {
      name: 'Request',
      type: 'string',
      description: 'Request represents a minimum amount of cpu/memory that a container may consume.',
      cell: (q) => quotaUsage(q).request,
    },
    {
      name: 'Limit',
      type: 'string',
      description:
        'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.',
      cell: (q) => quotaUsage(q).limit,
    },
  ],
});
