import { COMMON_NOTICE_ONLY_FLAGS, flag, schedulerFlagSets, type FlagSetSpec } from '@orch/component-base';

/**
 * Fields of a KubeSchedulerConfiguration file that have no flag of their own. They are declared as
 * hidden flags so that the --config file may carry them; `profiles` is read from the file itself.
 */
export function configFileOnlyFlags(): FlagSetSpec {
  return {
    name: 'Configuration file',
    flags: [
      flag({
        name: 'config-profiles',
        type: 'string',
        hidden: true,
        help: 'Scheduling profiles; set through the profiles field of the --config file.',
        configKey: 'profiles',
      }),
      flag({
        name: 'percentage-of-nodes-to-score',
        type: 'int32',
        default: 0,
        hidden: true,
        help: 'Percentage of nodes to find feasible before scoring; 0 adapts to the cluster size.',
        configKey: 'percentageOfNodesToScore',
      }),
      flag({
        name: 'pod-initial-backoff-seconds',
        type: 'int32',
        default: 1,
        hidden: true,
        help: 'Initial backoff of unschedulable pods.',
        configKey: 'podInitialBackoffSeconds',
      }),
      flag({
        name: 'pod-max-backoff-seconds',
        type: 'int32',
        default: 10,
        hidden: true,
        help: 'Maximum backoff of unschedulable pods.',
        configKey: 'podMaxBackoffSeconds',
      }),
    ],
  };
}

/** Every flag orch-scheduler accepts: doc 3's scheduler flags plus the configuration file's own fields. */
export function orchSchedulerFlagSets(): FlagSetSpec[] {
  return [...schedulerFlagSets(), configFileOnlyFlags()];
}

/** Accepted flags this scheduler does not act on; setting one is logged as a notice. */
export const NOTICE_ONLY_FLAGS: Readonly<Record<string, string>> = {
  'algorithm-provider': 'the built-in plugin set is always used; configure profiles in the --config file',
  'policy-config-file': 'scheduler policies are not supported; configure profiles in the --config file',
  'policy-configmap': 'scheduler policies are not supported; configure profiles in the --config file',
  'policy-configmap-namespace': 'scheduler policies are not supported',
  'use-legacy-policy-config': 'scheduler policies are not supported',
  ...COMMON_NOTICE_ONLY_FLAGS,
};
