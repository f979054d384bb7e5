import { SYSTEM_NAMESPACE } from '../daemonKind';
import { flag, type FlagSpec } from '../flagSpec';

/** The scheduler's own non-deprecated flags. */
export function schedulerMiscFlags(): FlagSpec[] {
  return [
    flag({
      name: 'config',
      type: 'string',
      help: 'The path to the configuration file. Flags override values in this file.',
    }),
    flag({
      name: 'write-config-to',
      type: 'string',
      help: 'If set, write the configuration values to this file and exit.',
    }),
  ];
}

/** The scheduler's deprecated policy and naming flags. */
export function schedulerDeprecatedFlags(): FlagSpec[] {
  const viaConfig = 'use the --config file instead.';
  return [
    flag({
      name: 'algorithm-provider',
      type: 'string',
      help: 'The scheduling algorithm provider to use, one of: ClusterAutoscalerProvider | DefaultProvider',
      deprecated: viaConfig,
      configKey: 'algorithmSource.provider',
    }),
    flag({
      name: 'hard-pod-affinity-symmetric-weight',
      type: 'int32',
      default: 1,
      help: 'RequiredDuringScheduling affinity is not symmetric, but there is an implicit PreferredDuringScheduling affinity rule corresponding to every RequiredDuringScheduling affinity rule. This is the weight of the implicit rule, in the range 0-100. It sets the hardPodAffinityWeight argument of the InterPodAffinity plugin in every profile; that argument can be given in the --config file instead.',
      deprecated: viaConfig,
      configKey: 'hardPodAffinitySymmetricWeight',
    }),
    flag({
      name: 'policy-config-file',
      type: 'string',
      help: 'File with the scheduler policy configuration. Used when no policy ConfigMap is given or when --use-legacy-policy-config is true.',
      deprecated: viaConfig,
      configKey: 'algorithmSource.policy.file.path',
    }),
    flag({
      name: 'policy-configmap',
      type: 'string',
      help: 'Name of the ConfigMap object holding the scheduler policy under the data key "policy.cfg". It must exist before the scheduler starts when --use-legacy-policy-config is false.',
      deprecated: viaConfig,
      configKey: 'algorithmSource.policy.configMap.name',
    }),
    flag({
      name: 'policy-configmap-namespace',
      type: 'string',
      default: SYSTEM_NAMESPACE,
      help: 'The namespace of the scheduler policy ConfigMap; the system namespace is used when empty.',
      deprecated: viaConfig,
      configKey: 'algorithmSource.policy.configMap.namespace',
    }),
    flag({
      name: 'scheduler-name',
      type: 'string',
      default: 'default-scheduler',
      help: 'Name of the scheduler; it handles pods whose spec.schedulerName equals it.',
      deprecated: viaConfig,
      configKey: 'schedulerName',
    }),
    flag({
      name: 'use-legacy-policy-config',
      type: 'bool',
      help: 'When true, the scheduler ignores the policy ConfigMap and uses the policy configuration file.',
      deprecated: viaConfig,
    }),
  ];
}
