import {
  defaultIdentity,
  LeaderElector,
  leaderElectionClient,
  newResourceLock,
  type ResourceLockType,
  type RestClient,
} from '@orch/client';
import { errorMessage } from '../errorMessage';
import type { LeaderElectionOptions } from '../options/componentOptions';
import type { ControllerLogger } from './ControllerContext';

export interface LeaderElectedOptions {
  /** The daemon's --leader-elect and --leader-elect-* lock settings (leaderElectionOptionsFromFlags). */
  leaderElection: LeaderElectionOptions;
  /** The daemon's client; the lock is read and written through a leader-election copy of it. */
  client: RestClient;
  /** The component name recorded by the elector. */
  name: string;
  logger: ControllerLogger;
  /** Starts the work; called at once without leader election, else when leadership is won. */
  start(): void;
  /** Called when leadership is lost; the process exits by default, as Kubernetes' daemons do. */
  onLeadershipLost?: () => void;
  /** Ends the election; a leader then releases the lock. */
  signal: AbortSignal;
}

/**
 * Runs a daemon's work under leader election as Kubernetes' scheduler and controller managers do:
 * with --leader-elect=false `start` runs at once, otherwise once this process holds the lock named by
 * the --leader-elect-resource-* flags. Returns the running election, if any.
 */
export function runLeaderElected(opts: LeaderElectedOptions): Promise<void> | undefined {
  const { logger: log, leaderElection: le } = opts;
  if (!le.leaderElect) {
    opts.start();
    return undefined;
  }
  const lock = newResourceLock(le.resourceLock as ResourceLockType, leaderElectionClient(opts.client), {
    namespace: le.resourceNamespace,
    name: le.resourceName,
    identity: defaultIdentity(),
  });
  const elector = new LeaderElector({
    lock,
    leaseDurationMs: le.leaseDurationMs,
    renewDeadlineMs: le.renewDeadlineMs,
    retryPeriodMs: le.retryPeriodMs,
    name: opts.name,
    callbacks: {
      onStartedLeading: () => {
        log.info(
          `successfully acquired lease ${le.resourceNamespace}/${le.resourceName} as ${lock.identity()}`,
        );
        opts.start();
      },
      onStoppedLeading: () => {
        if (opts.signal.aborted) return;
        log.error('leaderelection lost');
        (opts.onLeadershipLost ?? (() => process.exit(1)))();
      },
      onNewLeader: (id) => {
        if (id !== lock.identity()) log.info(`new leader elected: ${id}`);
      },
    },
    // a daemon that stops gives the lock up, so that its successor (a restart, a standby) leads
    // at once instead of after the lease
    releaseOnCancel: true,
    onError: (err) => log.warning(`leader election: ${errorMessage(err)}`),
  });
  return elector.run(opts.signal);
}
