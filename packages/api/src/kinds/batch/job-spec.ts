import type { Static } from '@sinclair/typebox';
import {
  bool,
  field,
  int32,
  int64,
  list,
  oneOf,
  required,
  str,
  struct,
  type StructSchema,
} from '../../schema/fields';
import { LabelSelectorSchema } from '../../meta/object-meta';
import {
  child,
  duplicate,
  invalid,
  notSupported,
  OMIT_VALUE,
  required as requiredError,
  tooMany,
  type FieldError,
} from '../../validation/field-error';
import { PodTemplateSpecSchema } from '../core/pod-spec';
import { validateNonnegative } from '../apps/int-or-percent';

/** Completion modes, sorted as Kubernetes lists them in messages. */
export const CompletionModes = ['Indexed', 'NonIndexed'] as const;
/** Pod replacement policies, sorted as Kubernetes lists them in messages. */
export const PodReplacementPolicies = ['Failed', 'TerminatingOrFailed'] as const;
/** Pod failure policy actions (FailIndex needs backoffLimitPerIndex), sorted. */
export const PodFailurePolicyActions = ['Count', 'FailIndex', 'FailJob', 'Ignore'] as const;
/** Operators of a pod failure policy's exit code requirement, sorted. */
export const PodFailurePolicyOnExitCodesOperators = ['In', 'NotIn'] as const;
/** Statuses a pod failure policy's condition pattern may match, sorted. */
export const PodFailurePolicyOnPodConditionsStatuses = ['False', 'True', 'Unknown'] as const;

/** Kubernetes' limits of batch validation. */
const MAX_PARALLELISM_FOR_INDEXED_JOB = 100_000;
const MAX_FAILED_INDEXES_FOR_INDEXED_JOB_WITH_BACKOFF_LIMIT_PER_INDEX = 100_000;
const COMPLETIONS_SOFT_LIMIT = 100_000;
const PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS = 10_000;
const MAX_POD_FAILURE_POLICY_RULES = 20;
const MAX_POD_FAILURE_POLICY_ON_EXIT_CODES_VALUES = 255;
const MAX_POD_FAILURE_POLICY_ON_POD_CONDITIONS_PATTERNS = 20;

export const PodFailurePolicyOnExitCodesRequirementSchema = struct(
  'io.k8s.api.batch.v1.PodFailurePolicyOnExitCodesRequirement',
  {
    containerName: str({
      proto: 1,
      description: 'Container whose exit codes are checked; every container when unset.',
    }),
    operator: str({
      proto: 2,
      description: 'In or NotIn: how the exit codes relate to the values.',
    }),
    values: list(int32(), {
      proto: 3,
      listType: 'set',
      description: 'Exit codes, ordered and without duplicates; 0 is not allowed with In.',
    }),
  },
);

export const PodFailurePolicyOnPodConditionsPatternSchema = struct(
  'io.k8s.api.batch.v1.PodFailurePolicyOnPodConditionsPattern',
  {
    type: str({ proto: 1, format: 'qualified-name', description: 'Pod condition type to match.' }),
    status: str({ proto: 2, description: 'Pod condition status to match; True by default.' }),
  },
);

export const PodFailurePolicyRuleSchema = struct('io.k8s.api.batch.v1.PodFailurePolicyRule', {
  action: str({
    proto: 1,
    description: 'FailJob, FailIndex, Ignore or Count: what a matching pod failure does.',
  }),
  onExitCodes: field(PodFailurePolicyOnExitCodesRequirementSchema, {
    proto: 2,
    description: 'Requirement on the container exit codes.',
  }),
  onPodConditions: list(PodFailurePolicyOnPodConditionsPatternSchema, {
    proto: 3,
    listType: 'atomic',
    description: 'Requirement on the pod conditions: any pattern matching a condition satisfies it.',
  }),
});

export const PodFailurePolicySchema = struct('io.k8s.api.batch.v1.PodFailurePolicy', {
  rules: list(PodFailurePolicyRuleSchema, {
    proto: 1,
    listType: 'atomic',
    description: 'Rules evaluated in order; the first matching a pod failure applies. At most 20.',
  }),
});

const jobSpecFields = {
  parallelism: int32({
    proto: 1,
    description: 'Most pods the job runs at once; 1 when neither parallelism nor completions is set.',
  }),
  completions: int32({
    proto: 2,
    immutable: true,
    description:
      'Successful pods needed to complete the job; 1 when neither parallelism nor completions is set.',
  }),
  activeDeadlineSeconds: int64({
    proto: 3,
    description:
      'Seconds the job may be continuously active before the system terminates it; a positive integer. ' +
      'The timer stops while the job is suspended and restarts when it is resumed.',
  }),
  selector: field(LabelSelectorSchema, {
    proto: 4,
    immutable: true,
    description: "Pods of the job; generated from the job's uid unless manualSelector is true.",
  }),
  manualSelector: bool({
    proto: 5,
    description: 'True to manage the selector and pod labels yourself instead of having them generated.',
  }),
  template: required(
    field(PodTemplateSpecSchema, {
      proto: 6,
      immutable: true,
      description: 'Pods run by the job; restartPolicy must be Never or OnFailure.',
    }),
  ),
  backoffLimit: int32({
    proto: 7,
    description:
      'Retries before the job is marked failed; 6 by default, 2147483647 with backoffLimitPerIndex.',
  }),
  ttlSecondsAfterFinished: int32({
    proto: 8,
    featureGate: 'TTLAfterFinished',
    description: 'Seconds after the job finishes before it is deleted automatically; never when unset.',
  }),
  completionMode: oneOf(CompletionModes, {
    proto: 9,
    immutable: true,
    description:
      'NonIndexed (default): the job completes after `completions` successful pods. Indexed: each pod gets ' +
      'a completion index from 0 to completions-1 and the job completes when every index succeeded.',
  }),
  suspend: bool({
    proto: 10,
    description:
      'Whether the job controller should create pods; suspending a running job deletes its active pods. ' +
      'false by default.',
  }),
  podFailurePolicy: field(PodFailurePolicySchema, {
    proto: 11,
    immutable: true,
    description: 'How failed pods count against backoffLimit; needs restartPolicy Never.',
  }),
  backoffLimitPerIndex: int32({
    proto: 12,
    immutable: true,
    description: 'Retries within an index before the index is marked failed; Indexed jobs only.',
  }),
  maxFailedIndexes: int32({
    proto: 13,
    description: 'Failed indexes before the job is marked failed; needs backoffLimitPerIndex.',
  }),
  podReplacementPolicy: oneOf(PodReplacementPolicies, {
    proto: 14,
    description:
      'When replacement pods are created: TerminatingOrFailed (default) or Failed (once the old pod is fully ' +
      'terminated; the default and only value with podFailurePolicy).',
  }),
};
type JobSpecValue = Static<StructSchema<typeof jobSpecFields>>;
type PodFailurePolicyRuleValue = Static<typeof PodFailurePolicyRuleSchema>;

export const JobSpecSchema = struct('io.k8s.api.batch.v1.JobSpec', jobSpecFields, {
  validate: (spec, path) => validateJobSpecCommon(spec, path),
});
export type JobSpec = Static<typeof JobSpecSchema>;
export type PodFailurePolicy = Static<typeof PodFailurePolicySchema>;

/** Go's %q of a []string, as in Kubernetes' "valid values: [...]" details. */
const quotedList = (values: readonly string[]): string =>
  `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;

/** The rules Kubernetes applies to every job spec, in jobs and in job templates (validateJobSpec). */
function validateJobSpecCommon(spec: JobSpecValue, path: string): FieldError[] {
  const errors: FieldError[] = [
    ...validateNonnegative(spec.parallelism, child(path, 'parallelism')),
    ...validateNonnegative(spec.completions, child(path, 'completions')),
    ...validateNonnegative(spec.activeDeadlineSeconds, child(path, 'activeDeadlineSeconds')),
    ...validateNonnegative(spec.backoffLimit, child(path, 'backoffLimit')),
    ...validateNonnegative(spec.ttlSecondsAfterFinished, child(path, 'ttlSecondsAfterFinished')),
    ...validateNonnegative(spec.backoffLimitPerIndex, child(path, 'backoffLimitPerIndex')),
  ];
  if (spec.maxFailedIndexes !== undefined) {
    errors.push(...validateNonnegative(spec.maxFailedIndexes, child(path, 'maxFailedIndexes')));
    if (spec.backoffLimitPerIndex === undefined) {
      errors.push(requiredError(child(path, 'backoffLimitPerIndex'), 'when maxFailedIndexes is specified'));
    }
  }
  if (spec.completionMode === 'Indexed') errors.push(...validateIndexed(spec, path));
  if (spec.completionMode === undefined || spec.completionMode === 'NonIndexed') {
    if (spec.backoffLimitPerIndex !== undefined) {
      errors.push(
        invalid(
          child(path, 'backoffLimitPerIndex'),
          spec.backoffLimitPerIndex,
          'requires indexed completion mode',
        ),
      );
    }
    if (spec.maxFailedIndexes !== undefined) {
      errors.push(
        invalid(child(path, 'maxFailedIndexes'), spec.maxFailedIndexes, 'requires indexed completion mode'),
      );
    }
  }
  if (spec.podFailurePolicy) errors.push(...validatePodFailurePolicy(spec, child(path, 'podFailurePolicy')));
  // With podFailurePolicy only Failed is supported (values outside the enum are refused by the schema).
  if (spec.podFailurePolicy && spec.podReplacementPolicy === 'TerminatingOrFailed') {
    errors.push(notSupported(child(path, 'podReplacementPolicy'), spec.podReplacementPolicy, ['Failed']));
  }
  const restartPolicyPath = child(child(child(path, 'template'), 'spec'), 'restartPolicy');
  const restartPolicy = spec.template?.spec?.restartPolicy ?? 'Always';
  if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') {
    errors.push(notSupported(restartPolicyPath, restartPolicy, ['OnFailure', 'Never']));
  } else if (spec.podFailurePolicy && restartPolicy !== 'Never') {
    errors.push(
      invalid(
        restartPolicyPath,
        restartPolicy,
        'only "Never" is supported when podFailurePolicy is specified',
      ),
    );
  } else if (spec.backoffLimitPerIndex !== undefined && restartPolicy !== 'Never') {
    errors.push(
      invalid(
        restartPolicyPath,
        restartPolicy,
        'only "Never" is supported when backoffLimitPerIndex is specified',
      ),
    );
  }
  return errors;
}

/** The rules of completionMode Indexed. */
function validateIndexed(spec: JobSpecValue, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (spec.completions === undefined) {
    errors.push(requiredError(child(path, 'completions'), 'when completion mode is Indexed'));
  }
  if (spec.parallelism !== undefined && spec.parallelism > MAX_PARALLELISM_FOR_INDEXED_JOB) {
    errors.push(
      invalid(
        child(path, 'parallelism'),
        spec.parallelism,
        `must be less than or equal to ${MAX_PARALLELISM_FOR_INDEXED_JOB} when completion mode is Indexed`,
      ),
    );
  }
  const maxFailed = spec.maxFailedIndexes;
  if (spec.completions !== undefined && maxFailed !== undefined && maxFailed > spec.completions) {
    errors.push(
      invalid(child(path, 'maxFailedIndexes'), maxFailed, 'must be less than or equal to completions'),
    );
  }
  if (
    maxFailed !== undefined &&
    maxFailed > MAX_FAILED_INDEXES_FOR_INDEXED_JOB_WITH_BACKOFF_LIMIT_PER_INDEX
  ) {
    errors.push(
      invalid(
        child(path, 'maxFailedIndexes'),
        maxFailed,
        `must be less than or equal to ${MAX_FAILED_INDEXES_FOR_INDEXED_JOB_WITH_BACKOFF_LIMIT_PER_INDEX}`,
      ),
    );
  }
  if (
    spec.completions !== undefined &&
    spec.completions > COMPLETIONS_SOFT_LIMIT &&
    spec.backoffLimitPerIndex !== undefined
  ) {
    if (maxFailed === undefined) {
      errors.push(
        requiredError(
          child(path, 'maxFailedIndexes'),
          `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`,
        ),
      );
    }
    if (spec.parallelism !== undefined && spec.parallelism > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS) {
      errors.push(
        invalid(
          child(path, 'parallelism'),
          spec.parallelism,
          `must be less than or equal to ${PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS} when completions are above ` +
            `${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`,
        ),
      );
    }
  }
  return errors;
}

/** Kubernetes' validatePodFailurePolicy. */
function validatePodFailurePolicy(spec: JobSpecValue, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const rules = spec.podFailurePolicy?.rules ?? [];
  const rulesPath = child(path, 'rules');
  if (rules.length > MAX_POD_FAILURE_POLICY_RULES) {
    errors.push(tooMany(rulesPath, rules.length, MAX_POD_FAILURE_POLICY_RULES));
  }
  const podSpec = spec.template?.spec;
  const containerNames = new Set(
    [...(podSpec?.containers ?? []), ...(podSpec?.initContainers ?? [])].map((c) => c.name),
  );
  rules.forEach((rule, i) =>
    errors.push(...validatePodFailurePolicyRule(spec, rule, child(rulesPath, i), containerNames)),
  );
  return errors;
}

function validatePodFailurePolicyRule(
  spec: JobSpecValue,
  rule: PodFailurePolicyRuleValue,
  path: string,
  containerNames: ReadonlySet<string>,
): FieldError[] {
  const errors: FieldError[] = [];
  const actionPath = child(path, 'action');
  const action = rule.action ?? '';
  if (action === '') {
    errors.push(requiredError(actionPath, `valid values: ${quotedList(PodFailurePolicyActions)}`));
  } else if (action === 'FailIndex') {
    if (spec.backoffLimitPerIndex === undefined) {
      errors.push(invalid(actionPath, action, 'requires the backoffLimitPerIndex to be set'));
    }
  } else if (!(PodFailurePolicyActions as readonly string[]).includes(action)) {
    errors.push(notSupported(actionPath, action, PodFailurePolicyActions));
  }
  const conditions = rule.onPodConditions ?? [];
  if (rule.onExitCodes) {
    errors.push(...validateOnExitCodes(rule.onExitCodes, child(path, 'onExitCodes'), containerNames));
  }
  if (conditions.length > 0)
    errors.push(...validateOnPodConditions(conditions, child(path, 'onPodConditions')));
  if (rule.onExitCodes && conditions.length > 0) {
    errors.push(
      invalid(path, OMIT_VALUE, 'specifying both OnExitCodes and OnPodConditions is not supported'),
    );
  }
  if (!rule.onExitCodes && conditions.length === 0) {
    errors.push(invalid(path, OMIT_VALUE, 'specifying one of OnExitCodes and OnPodConditions is required'));
  }
  return errors;
}

function validateOnPodConditions(
  patterns: NonNullable<PodFailurePolicyRuleValue['onPodConditions']>,
  path: string,
): FieldError[] {
  const errors: FieldError[] = [];
  if (patterns.length > MAX_POD_FAILURE_POLICY_ON_POD_CONDITIONS_PATTERNS) {
    errors.push(tooMany(path, patterns.length, MAX_POD_FAILURE_POLICY_ON_POD_CONDITIONS_PATTERNS));
  }
  patterns.forEach((pattern, i) => {
    const statusPath = child(child(path, i), 'status');
    const status = pattern.status ?? '';
    if (status === '') {
      errors.push(
        requiredError(statusPath, `valid values: ${quotedList(PodFailurePolicyOnPodConditionsStatuses)}`),
      );
    } else if (!(PodFailurePolicyOnPodConditionsStatuses as readonly string[]).includes(status)) {
      errors.push(notSupported(statusPath, status, PodFailurePolicyOnPodConditionsStatuses));
    }
  });
  return errors;
}

function validateOnExitCodes(
  requirement: NonNullable<PodFailurePolicyRuleValue['onExitCodes']>,
  path: string,
  containerNames: ReadonlySet<string>,
): FieldError[] {
  const errors: FieldError[] = [];
  const operatorPath = child(path, 'operator');
  const operator = requirement.operator ?? '';
  if (operator === '') {
    errors.push(
      requiredError(operatorPath, `valid values: ${quotedList(PodFailurePolicyOnExitCodesOperators)}`),
    );
  } else if (!(PodFailurePolicyOnExitCodesOperators as readonly string[]).includes(operator)) {
    errors.push(notSupported(operatorPath, operator, PodFailurePolicyOnExitCodesOperators));
  }
  if (requirement.containerName !== undefined && !containerNames.has(requirement.containerName)) {
    errors.push(
      invalid(
        child(path, 'containerName'),
        requirement.containerName,
        'must be one of the container or initContainer names in the pod template',
      ),
    );
  }
  const valuesPath = child(path, 'values');
  const values = requirement.values ?? [];
  if (values.length === 0) {
    errors.push(invalid(valuesPath, requirement.values ?? null, 'at least one value is required'));
  } else if (values.length > MAX_POD_FAILURE_POLICY_ON_EXIT_CODES_VALUES) {
    errors.push(tooMany(valuesPath, values.length, MAX_POD_FAILURE_POLICY_ON_EXIT_CODES_VALUES));
  } else {
    let ordered = true;
    const seen = new Set<number>();
    values.forEach((value, j) => {
      const valuePath = child(valuesPath, j);
      if (operator === 'In' && value === 0)
        errors.push(invalid(valuePath, value, 'must not be 0 for the In operator'));
      if (seen.has(value)) errors.push(duplicate(valuePath, value));
      else seen.add(value);
      if (j > 0 && values[j - 1]! > value) ordered = false;
    });
    if (!ordered) errors.push(invalid(valuesPath, values, 'must be ordered'));
  }
  return errors;
}
