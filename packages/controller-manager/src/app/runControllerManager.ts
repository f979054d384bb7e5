import {
  buildConfigFromFlags,
  defaultIdentity,
  EventBroadcaster,
  eventSinkFor,
  LeaderElector,
  newResourceLock,
  RestClient,
  SharedInformerFactory,
  type ResourceLockType,
  type RestConfig,
} from '@orch/client';
import {
  clientConnectionOptionsFromFlags,
  errorMessage,
  leaderElectionOptionsFromFlags,
  type DaemonContext,
  type DaemonHandle,
  type ParsedFlags,
} from '@orch/component-base';
import type { ControllerLogger } from '../controller/ControllerContext';
import { ControllerManager } from '../manager/ControllerManager';
import { ServiceAccountCredentials } from './serviceAccountCredentials';

export const COMPONENT_NAME = 'orch-controller-manager';

/** The manager's REST config from --kubeconfig/--master and the --orch-api-* flags. */
export function restConfigFromFlags(flags: ParsedFlags): RestConfig {
  const conn = clientConnectionOptionsFromFlags(flags);
  const { config } = buildConfigFromFlags({ kubeconfig: conn.kubeconfig, master: conn.master });
  return {
    ...config,
    qps: conn.qps,
    burst: conn.burst,
    contentType: conn.contentType,
    userAgent: COMPONENT_NAME,
  };
}

export interface RunOptions {
  /** Called when leadership is lost; the process exits by default, as Kubernetes' does. */
  onLeadershipLost?: () => void;
  /** The manager's REST config; from the flags by default. */
  restConfig?: RestConfig;
}

/** Runs the controller manager of a parsed command line: leader election, then the controllers. */
export async function runControllerManager(
  daemon: Pick<DaemonContext<unknown>, 'flags' | 'logger'>,
  options: RunOptions = {},
): Promise<DaemonHandle & { manager: ControllerManager }> {
  const { flags, logger } = daemon;
  const log: ControllerLogger = {
    info: (m) => logger.info(m),
    warning: (m) => logger.warning(m),
    error: (m) => logger.error(m),
  };
  const restConfig = options.restConfig ?? restConfigFromFlags(flags);
  const rest = new RestClient(restConfig);
  const minResync = flags.duration('min-resync-period');
  const informers = new SharedInformerFactory(rest, {
    defaultResyncMs: Math.round(minResync * (1 + Math.random())),
    onHandlerError: (err) => log.error(`informer handler: ${errorMessage(err)}`),
  });
  const credentials = flags.bool('use-service-account-credentials')
    ? new ServiceAccountCredentials(restConfig, rest, (err) =>
        log.error(`refreshing a controller token: ${errorMessage(err)}`),
      )
    : undefined;
  const abort = new AbortController();
  const broadcasters: EventBroadcaster[] = [];
  const manager = new ControllerManager({
    controllers: flags.strings('controllers'),
    informers,
    clientFor: async (name) => (credentials ? credentials.clientFor(name) : rest),
    recorderFor: (name, client) => {
      const broadcaster = new EventBroadcaster(eventSinkFor(client), {
        onError: (message) => log.warning(`events: ${message}`),
      });
      broadcasters.push(broadcaster);
      return broadcaster.newRecorder({
        component: name === 'garbagecollector' ? 'garbage-collector-controller' : `${name}-controller`,
      });
    },
    workers: (flag) => (flags.has(flag) ? flags.number(flag) : undefined),
    duration: (flag) => (flags.has(flag) ? flags.duration(flag) : undefined),
    logger: log,
    startIntervalMs: flags.duration('controller-start-interval'),
    enableGarbageCollector: flags.has('enable-garbage-collector')
      ? flags.bool('enable-garbage-collector')
      : true,
    signal: abort.signal,
  });
  // Unknown controller names fail before anything starts.
  ControllerManager.enabled(flags.strings('controllers'));

  const le = leaderElectionOptionsFromFlags(flags);
  let elector: LeaderElector | undefined;
  let electing: Promise<void> | undefined;
  const startControllers = (): void => {
    manager.start().catch((err: unknown) => log.error(`starting controllers: ${errorMessage(err)}`));
  };
  if (!le.leaderElect) {
    startControllers();
  } else {
    const lock = newResourceLock(le.resourceLock as ResourceLockType, rest, {
      namespace: le.resourceNamespace,
      name: le.resourceName,
      identity: defaultIdentity(),
    });
    elector = new LeaderElector({
      lock,
      leaseDurationMs: le.leaseDurationMs,
      renewDeadlineMs: le.renewDeadlineMs,
      retryPeriodMs: le.retryPeriodMs,
      name: COMPONENT_NAME,
      callbacks: {
        onStartedLeading: () => {
          log.info(`${lock.identity()} became leader of ${le.resourceNamespace}/${le.resourceName}`);
          startControllers();
        },
        onStoppedLeading: () => {
          if (abort.signal.aborted) return;
          log.error('leaderelection lost');
          (options.onLeadershipLost ?? (() => process.exit(1)))();
        },
      },
      onError: (err) => log.warning(`leader election: ${errorMessage(err)}`),
    });
    electing = elector.run(abort.signal);
  }
  return {
    manager,
    async stop() {
      abort.abort();
      await manager.stop();
      await electing?.catch(() => undefined);
      await Promise.all(broadcasters.map((b) => b.shutdown()));
      credentials?.close();
      rest.close();
    },
  };
}
