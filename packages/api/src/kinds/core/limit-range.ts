import type { Static } from '@sinclair/typebox';
import { field, list, map, oneOf, quantity, required, struct } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import {
  child,
  duplicate,
  forbidden,
  invalid,
  key,
  required as requiredError,
  type FieldError,
} from '../../validation/field-error';
import { nameColumn } from '../columns';
import { quantityValue } from './resources';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;

type ResourceList = Record<string, string>;

/** Kubernetes' SetDefaults_LimitRangeItem for Container limits: default ← max, defaultRequest ← default, min. */
function defaultContainerLimits(item: {
  max?: ResourceList;
  min?: ResourceList;
  default?: ResourceList;
  defaultRequest?: ResourceList;
}): void {
  const def: ResourceList = { ...(item.default ?? {}) };
  const defReq: ResourceList = { ...(item.defaultRequest ?? {}) };
  for (const [k, v] of Object.entries(item.max ?? {})) if (!(k in def)) def[k] = v;
  for (const [k, v] of Object.entries(def)) if (!(k in defReq)) defReq[k] = v;
  for (const [k, v] of Object.entries(item.min ?? {})) if (!(k in defReq)) defReq[k] = v;
  if (Object.keys(def).length) item.default = def;
  if (Object.keys(defReq).length) item.defaultRequest = defReq;
}

const cmp = (a: string | undefined, b: string | undefined): number | undefined => {
  const x = a === undefined ? undefined : quantityValue(a);
  const y = b === undefined ? undefined : quantityValue(b);
  return x === undefined || y === undefined ? undefined : x - y;
};

type LimitRangeItemValue = {
  type: string;
  max?: ResourceList;
  min?: ResourceList;
  default?: ResourceList;
  defaultRequest?: ResourceList;
  maxLimitRequestRatio?: ResourceList;
};

/** Kubernetes' ValidateLimitRange ordering rules: min <= defaultRequest <= default <= max, ratio >= 1. */
function validateOrdering(item: LimitRangeItemValue, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const defaults = item.type === 'Pod' ? {} : (item.default ?? {});
  const requests = item.type === 'Pod' ? {} : (item.defaultRequest ?? {});
  const lists = [item.max, item.min, defaults, requests, item.maxLimitRequestRatio];
  const keys = [...new Set(lists.flatMap((l) => Object.keys(l ?? {})))].sort();
  const at = (name: string, k: string): string => key(child(path, name), k);
  for (const k of keys) {
    const min = item.min?.[k];
    const max = item.max?.[k];
    const def = defaults[k];
    const req = requests[k];
    const ratio = item.maxLimitRequestRatio?.[k];
    if ((cmp(min, max) ?? 0) > 0)
      errors.push(invalid(at('min', k), min, `min value ${min} is greater than max value ${max}`));
    if ((cmp(min, req) ?? 0) > 0) {
      errors.push(
        invalid(
          at('defaultRequest', k),
          req,
          `min value ${min} is greater than default request value ${req}`,
        ),
      );
    }
    if ((cmp(req, max) ?? 0) > 0) {
      errors.push(
        invalid(
          at('defaultRequest', k),
          req,
          `default request value ${req} is greater than max value ${max}`,
        ),
      );
    }
    if ((cmp(req, def) ?? 0) > 0) {
      errors.push(
        invalid(
          at('defaultRequest', k),
          req,
          `default request value ${req} is greater than default limit value ${def}`,
        ),
      );
    }
    if ((cmp(min, def) ?? 0) > 0)
      errors.push(invalid(at('default', k), min, `min value ${min} is greater than default value ${def}`));
    if ((cmp(def, max) ?? 0) > 0)
      errors.push(invalid(at('default', k), max, `default value ${def} is greater than max value ${max}`));
    if ((cmp(ratio, '1') ?? 0) < 0)
      errors.push(invalid(at('maxLimitRequestRatio', k), ratio, `ratio ${ratio} is less than 1`));
  }
  return errors;
}

export const LimitRangeItemSchema = struct(
  core('LimitRangeItem'),
  {
    type: required(
      oneOf(['Pod', 'Container', 'PersistentVolumeClaim'], {
        proto: 1,
        description: 'Kind of resource the limit applies to: Pod, Container or PersistentVolumeClaim.',
      }),
    ),
    max: map(quantity(), { proto: 2, description: 'Maximum usage by resource name.' }),
    min: map(quantity(), { proto: 3, description: 'Minimum usage by resource name.' }),
    default: map(quantity(), {
      proto: 4,
      description: 'Default limit by resource name when the limit is omitted.',
    }),
    defaultRequest: map(quantity(), {
      proto: 5,
      description: 'Default request by resource name when the request is omitted.',
    }),
    maxLimitRequestRatio: map(quantity(), {
      proto: 6,
      description: 'Largest allowed limit/request ratio by resource name.',
    }),
  },
  {
    defaults: (item) => {
      if (item.type === 'Container') defaultContainerLimits(item);
    },
    validate: (item, path) => {
      const errors: FieldError[] = [];
      if (item.type === 'Pod') {
        if (Object.keys(item.default ?? {}).length)
          errors.push(forbidden(child(path, 'default'), "may not be specified when `type` is 'Pod'"));
        if (Object.keys(item.defaultRequest ?? {}).length) {
          errors.push(forbidden(child(path, 'defaultRequest'), "may not be specified when `type` is 'Pod'"));
        }
      }
      for (const name of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const) {
        for (const [k, v] of Object.entries(item[name] ?? {})) {
          const n = quantityValue(v);
          if (n !== undefined && n < 0)
            errors.push(invalid(key(child(path, name), k), String(v), 'must be greater than or equal to 0'));
        }
      }
      if (
        item.type === 'PersistentVolumeClaim' &&
        item.min?.storage === undefined &&
        item.max?.storage === undefined
      ) {
        errors.push(
          requiredError(
            child(path, 'limits'),
            'either minimum or maximum storage value is required, but neither was provided',
          ),
        );
      }
      errors.push(...validateOrdering(item, path));
      return errors;
    },
  },
);

export const LimitRangeSpecSchema = struct(
  core('LimitRangeSpec'),
  {
    limits: required(
      list(LimitRangeItemSchema, { proto: 1, description: 'Limits enforced, one item per type.' }),
    ),
  },
  {
    validate: (spec, path) => {
      const errors: FieldError[] = [];
      const seen = new Set<string>();
      (spec.limits ?? []).forEach((item, i) => {
        if (seen.has(item.type))
          errors.push(duplicate(child(child(child(path, 'limits'), i), 'type'), item.type));
        seen.add(item.type);
      });
      return errors;
    },
  },
);

export const LimitRangeSchema = struct(
  core('LimitRange'),
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(LimitRangeSpecSchema, { proto: 2, description: 'Limits enforced in the namespace.' }),
  },
  {
    description:
      "Minimums, maximums and defaults of the resources of a namespace's pods, containers and claims.",
  },
);
export type LimitRange = Static<typeof LimitRangeSchema>;

/** A timestamp as Go's time.RFC3339 prints it in UTC (second precision). */
function rfc3339(timestamp: string | undefined): string {
  if (!timestamp) return '';
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? timestamp : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const LimitRangeKind = defineKind({
  group: '',
  versions: ['v1'],
  kind: 'LimitRange',
  plural: 'limitranges',
  singular: 'limitrange',
  shortNames: ['limits'],
  namespaced: true,
  schema: LimitRangeSchema,
  columns: [
    nameColumn(),
    {
      name: 'Created At',
      type: 'date',
      description: 'When the object was created.',
      cell: (lr) => rfc3339(lr.metadata?.creationTimestamp),
    },
  ],
});
