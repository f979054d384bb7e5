import {
  EventBroadcaster,
  eventSinkFor,
  RestClient,
  SharedInformerFactory,
  type EventRecorder,
  type RestConfig,
} from '@orch/client';
import type { DaemonContext, DaemonHandle } from '../app/runDaemon';
import { errorMessage } from '../errorMessage';
import { leaderElectionOptionsFromFlags } from '../options/componentOptions';
import { restConfigFromFlags } from '../options/restConfigFromFlags';
import type { ControllerLogger, FeatureGates } from './ControllerContext';
import { runLeaderElected } from './runLeaderElected';
import { ServiceAccountCredentials } from './ServiceAccountCredentials';

/** What a controller manager daemon gives its manager: the shared clients, informers and flags. */
export interface ControllerManagerDeps {
  informers: SharedInformerFactory;
  /** A controller's client: its service account's with --use-service-account-credentials. */
  clientFor(controller: string): Promise<RestClient>;
  /** An event recorder for a controller's client; its broadcaster is shut down on stop. */
  recorderFor(controller: string, client: RestClient): EventRecorder;
  /** The value of a controller's concurrency flag, if given. */
  workers(flag: string): number | undefined;
  /** The value of a duration flag in ms, if given. */
  duration(flag: string): number | undefined;
  /** The value of a numeric flag (its default when not given). */
  number(flag: string): number | undefined;
  /** The value of a string flag. */
  string(flag: string): string | undefined;
  /** Whether a flag was given on the command line. */
  flagGiven(flag: string): boolean;
  /** The value of a boolean flag. */
  bool(flag: string): boolean | undefined;
  logger: ControllerLogger;
  /** The daemon's --feature-gates (the defaults when the caller has none). */
  featureGates?: FeatureGates;
  /** --controller-start-interval, in ms. */
  startIntervalMs: number;
  /** Aborted when the daemon stops. */
  signal: AbortSignal;
}

/** What a controller manager daemon reads of runDaemon's context; without featureGates, the gates' defaults. */
export type ControllerManagerDaemonContext = Pick<DaemonContext<unknown>, 'flags' | 'logger'> &
  Partial<Pick<DaemonContext<unknown>, 'featureGates'>>;

/** The manager a controller manager daemon runs. */
export interface StartableManager {
  start(): Promise<unknown>;
  stop(): Promise<void>;
}

/** What a caller may set when running a controller manager daemon. */
export interface ControllerManagerRunOptions {
  /** Called when leadership is lost; the process exits by default, as Kubernetes' does. */
  onLeadershipLost?: () => void;
  /** The manager's REST config; from the flags by default. */
  restConfig?: RestConfig;
}

export interface ControllerManagerDaemonOptions<
  M extends StartableManager,
> extends ControllerManagerRunOptions {
  /** The component name: the REST client's user agent and the leader election name. */
  name: string;
  /** The event source component of a controller's events. */
  eventComponent(controller: string): string;
  /**
   * The service account a controller acts as with --use-service-account-credentials;
   * `<name>-controller` unless given, undefined for one that acts with the manager's credentials.
   */
  serviceAccount?(controller: string): string | undefined;
  /** Makes the manager; called once the clients and informers exist. */
  create(deps: ControllerManagerDeps): M;
}

/**
 * Runs a controller manager daemon as Kubernetes' controller managers do: the REST client of the
 * flags, shared informers resynced every 1-2 times --min-resync-period, per-controller credentials
 * with --use-service-account-credentials, an event broadcaster per controller, and the manager
 * started under leader election. The handle stops all of it.
 */
export function runControllerManagerDaemon<M extends StartableManager>(
  daemon: ControllerManagerDaemonContext,
  options: ControllerManagerDaemonOptions<M>,
): DaemonHandle & { manager: M; stop(): Promise<void> } {
  const { flags, logger } = daemon;
  const log: ControllerLogger = {
    // bound, not wrapped: a log line names the code that called it as its source
    info: logger.info.bind(logger),
    warning: logger.warning.bind(logger),
    error: logger.error.bind(logger),
  };
  const restConfig = options.restConfig ?? restConfigFromFlags(flags, options.name);
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
  const manager = options.create({
    informers,
    clientFor: async (name) => {
      const account = options.serviceAccount ? options.serviceAccount(name) : `${name}-controller`;
      return credentials && account ? credentials.clientFor(account) : rest;
    },
    recorderFor: (name, client) => {
      const broadcaster = new EventBroadcaster(eventSinkFor(client), {
        onError: (message) => log.warning(`events: ${message}`),
      });
      broadcasters.push(broadcaster);
      return broadcaster.newRecorder({ component: options.eventComponent(name) });
    },
    workers: (flag) => (flags.has(flag) ? flags.number(flag) : undefined),
    duration: (flag) => (flags.has(flag) ? flags.duration(flag) : undefined),
    number: (flag) => (flags.has(flag) ? flags.number(flag) : undefined),
    string: (flag) => (flags.has(flag) ? flags.string(flag) : undefined),
    flagGiven: (flag) => flags.changed(flag),
    bool: (flag) => (flags.has(flag) ? flags.bool(flag) : undefined),
    logger: log,
    featureGates: daemon.featureGates,
    startIntervalMs: flags.duration('controller-start-interval'),
    signal: abort.signal,
  });
  // A controller that fails to start ends the daemon, as Kubernetes' controller managers exit then.
  let failed: (reason: string) => void = () => undefined;
  const failure = new Promise<string>((resolve) => (failed = resolve));
  const electing = runLeaderElected({
    leaderElection: leaderElectionOptionsFromFlags(flags),
    client: rest,
    name: options.name,
    logger: log,
    start: () => {
      manager.start().catch((err: unknown) => failed(`error starting controllers: ${errorMessage(err)}`));
    },
    onLeadershipLost: options.onLeadershipLost,
    signal: abort.signal,
  });
  return {
    manager,
    failed: failure,
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
