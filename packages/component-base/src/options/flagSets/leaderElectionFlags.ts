import { resourceLockTypes } from '@orch/client';
import { SYSTEM_NAMESPACE } from '../daemonKind';
import { flag, type FlagSpec } from '../flagSpec';

/** Leader election flags; `resourceName` is the daemon's default lock name. */
export function leaderElectionFlags(resourceName: string): FlagSpec[] {
  return [
    flag({
      name: 'leader-elect',
      type: 'bool',
      default: true,
      help: 'Start a leader election client and gain leadership before executing the main loop. Enable this when running replicated components for high availability.',
      configKey: 'leaderElection.leaderElect',
    }),
    flag({
      name: 'leader-elect-lease-duration',
      type: 'duration',
      default: 15_000,
      help: 'The duration that non-leader candidates wait after observing a leadership renewal before attempting to acquire leadership of a led but unrenewed leader slot.',
      configKey: 'leaderElection.leaseDuration',
    }),
    flag({
      name: 'leader-elect-renew-deadline',
      type: 'duration',
      default: 10_000,
      help: 'The interval over which the acting leader retries refreshing leadership before it stops leading. Must not exceed the lease duration.',
      configKey: 'leaderElection.renewDeadline',
    }),
    flag({
      name: 'leader-elect-resource-lock',
      type: 'string',
      default: 'endpoints',
      help: `The type of resource object used for locking during leader election. Supported options are ${resourceLockTypes.map((t) => `'${t}'`).join(', ')}.`,
      configKey: 'leaderElection.resourceLock',
    }),
    flag({
      name: 'leader-elect-resource-name',
      type: 'string',
      default: resourceName,
      help: 'The name of the resource object used for locking during leader election.',
      configKey: 'leaderElection.resourceName',
    }),
    flag({
      name: 'leader-elect-resource-namespace',
      type: 'string',
      default: SYSTEM_NAMESPACE,
      help: 'The namespace of the resource object used for locking during leader election.',
      configKey: 'leaderElection.resourceNamespace',
    }),
    flag({
      name: 'leader-elect-retry-period',
      type: 'duration',
      default: 2_000,
      help: 'The duration clients wait between attempts to acquire or renew leadership.',
      configKey: 'leaderElection.retryPeriod',
    }),
  ];
}

/** The scheduler's deprecated predecessors of the resource name and namespace flags. */
export function legacyLockObjectFlags(): FlagSpec[] {
  return [
    flag({
      name: 'lock-object-name',
      type: 'string',
      default: 'orch-scheduler',
      help: 'Define the name of the lock object.',
      deprecated:
        'This flag will be removed in a future release. Please use --leader-elect-resource-name instead.',
      configKey: 'leaderElection.lockObjectName',
    }),
    flag({
      name: 'lock-object-namespace',
      type: 'string',
      default: SYSTEM_NAMESPACE,
      help: 'Define the namespace of the lock object.',
      deprecated:
        'This flag will be removed in a future release. Please use --leader-elect-resource-namespace instead.',
      configKey: 'leaderElection.lockObjectNamespace',
    }),
  ];
}
