import type { RestClient, SharedInformerFactory } from '@orch/client';
import type { EventRecorder } from '@orch/client';
import { newFeatureGates } from '../featuregate/defaultFeatureGates';
import type { FeatureGate } from '../featuregate/featureGate';

/** The logging a controller needs (the daemon's Logger satisfies it). */
export interface ControllerLogger {
  info(message: string): void;
  warning(message: string): void;
  error(message: string): void;
}

/** What the manager hands each controller. */
export interface ControllerContext {
  /** The controller's client: its own service account's credentials or the manager's. */
  client: RestClient;
  /** The informers shared by every controller of the manager. */
  informers: SharedInformerFactory;
  recorder: EventRecorder;
  logger: ControllerLogger;
  /** Parallel reconciles (the controller's --concurrent-*-syncs flag). */
  workers: number;
  /** Resync period of the controller's main informer handler (its sync-period flag), 0 for none. */
  syncPeriodMs?: number;
  /**
   * How long the controller delays the work that changes of other objects cause, to join it with
   * the changes that follow (its batch-period flag, e.g. --endpoint-updates-batch-period), 0 for none.
   */
  batchPeriodMs?: number;
  /** The clock; Date.now unless a test drives it. */
  now: () => number;
  /** The manager's flags, for a controller configured by flags of its own (csrsigning's CA files). */
  flags?: ControllerFlags;
  /** The daemon's --feature-gates; read through featureEnabled, which gives the defaults without them. */
  featureGates?: FeatureGates;
}

/** The feature gates a controller reads. */
export type FeatureGates = Pick<FeatureGate, 'enabled'>;

const DEFAULT_GATES = newFeatureGates();

/** Whether a feature gate is on for a controller: as --feature-gates set it, else its default. */
export function featureEnabled(ctx: { featureGates?: FeatureGates }, name: string): boolean {
  return (ctx.featureGates ?? DEFAULT_GATES).enabled(name);
}

/** Read access to the controller manager's flags. */
export interface ControllerFlags {
  /** The value of a string flag (its default when not given). */
  string(flag: string): string | undefined;
  /** The value of a duration flag in ms (its default when not given). */
  duration(flag: string): number | undefined;
  /** The value of a numeric flag (its default when not given). */
  number(flag: string): number | undefined;
  /** The value of a boolean flag (its default when not given). */
  bool?(flag: string): boolean | undefined;
  /** Whether the flag was given on the command line. */
  given(flag: string): boolean;
}

/** A started controller. */
export interface RunningController {
  stop(): Promise<void>;
}

/** One entry of the controller registry. */
export interface ControllerDescriptor {
  /** The flag giving the number of workers, if the controller has one. */
  concurrencyFlag?: string;
  /** Workers when no flag says (1 unless given). */
  defaultWorkers?: number;
  /** The duration flag giving the resync period of the controller's objects. */
  syncPeriodFlag?: string;
  /** The duration flag giving the controller's batching delay (see ControllerContext.batchPeriodMs). */
  batchPeriodFlag?: string;
  /** A boolean flag that, given as false, keeps the controller from running though it is enabled. */
  enabledFlag?: string;
  /** A feature gate that, off, keeps the controller from running though it is enabled. */
  featureGate?: string;
  /** The source component of the controller's events; `<name>-controller` unless given. */
  eventComponent?: string;
  /**
   * The service account (in orch-system) the controller acts as with --use-service-account-credentials,
   * as Kubernetes names it; `<name>-controller` unless given.
   */
  serviceAccount?: string;
  /**
   * The controller acts with the manager's own credentials even with --use-service-account-credentials
   * (Kubernetes' tokens controller, which mints the tokens the service accounts authenticate with).
   */
  rootCredentials?: boolean;
  /**
   * Registers informers and handlers and starts the workers once the caches have synced; undefined
   * when the controller has nothing to do with this configuration (it says why in the log).
   */
  start(ctx: ControllerContext): RunningController | undefined;
}
