import {
  CONTROLLER_MANAGER_CONTROLLERS,
  CONTROLLER_MANAGER_DISABLED_BY_DEFAULT,
  ControllerGroup,
  featureEnabled,
  resolveControllers,
  type ControllerDescriptor,
  type ControllerLogger,
  type FeatureGates,
  type RunningController,
} from '@orch/component-base';
import type { RestClient, SharedInformerFactory } from '@orch/client';
import type { EventRecorder } from '@orch/client';
import { CONTROLLER_REGISTRY } from './controllerRegistry';
import { ignoredFlags, ignoredPartFlags } from './unbuiltControllerFlags';

export interface ControllerManagerOptions {
  /** The --controllers list. */
  controllers: readonly string[];
  informers: SharedInformerFactory;
  /** The client a controller uses (its service account's or the manager's). */
  clientFor(controller: string): Promise<RestClient>;
  /** The event recorder of a controller's client. */
  recorderFor(controller: string, client: RestClient): EventRecorder;
  /** Workers of a controller's concurrency flag. */
  workers(flag: string): number | undefined;
  /** The value of a duration flag in ms (sync periods). */
  duration?(flag: string): number | undefined;
  /** The value of a numeric flag (its default when not given). */
  number?(flag: string): number | undefined;
  /** The value of a string flag. */
  string?(flag: string): string | undefined;
  logger: ControllerLogger;
  /** --controller-start-interval, in ms. */
  startIntervalMs?: number;
  /** Whether a flag was given on the command line. */
  flagGiven?(flag: string): boolean;
  /** The value of a boolean flag (a controller's enabledFlag). */
  bool?(flag: string): boolean | undefined;
  /** The daemon's --feature-gates; their defaults when not given. */
  featureGates?: FeatureGates;
  now?: () => number;
  registry?: Readonly<Record<string, ControllerDescriptor>>;
  signal?: AbortSignal;
}

/**
 * Starts the enabled controllers (Kubernetes' StartControllers): names resolved from --controllers
 * (unknown names are an error), known but unbuilt ones skipped with a notice, one shared informer
 * factory started after each controller registered its informers.
 */
export class ControllerManager {
  private readonly group: ControllerGroup;

  constructor(private readonly opts: ControllerManagerOptions) {
    this.group = new ControllerGroup(opts);
  }

  /** The controllers that would run: enabled and built. */
  static enabled(
    list: readonly string[],
    registry = CONTROLLER_REGISTRY,
  ): { run: string[]; notBuilt: string[] } {
    const enabled = resolveControllers(
      list,
      CONTROLLER_MANAGER_CONTROLLERS,
      CONTROLLER_MANAGER_DISABLED_BY_DEFAULT,
    );
    return { run: enabled.filter((n) => registry[n]), notBuilt: enabled.filter((n) => !registry[n]) };
  }

  async start(): Promise<string[]> {
    const registry = this.opts.registry ?? CONTROLLER_REGISTRY;
    const { run, notBuilt } = ControllerManager.enabled(this.opts.controllers, registry);
    for (const name of notBuilt)
      this.opts.logger.info(`"${name}" is enabled but not built into this controller manager yet; skipping`);
    for (const { flag, controllers } of ignoredFlags(
      notBuilt,
      (f) => this.opts.flagGiven?.(f) ?? false,
      run,
    )) {
      this.opts.logger.warning(
        `--${flag} has no effect: it configures ${controllers.map((c) => `"${c}"`).join(' and ')}, not built into this controller manager yet`,
      );
    }
    for (const { flag, controller, part } of ignoredPartFlags(
      run,
      (f) => this.opts.flagGiven?.(f) ?? false,
    )) {
      this.opts.logger.warning(
        `--${flag} has no effect: it configures ${part} of "${controller}", not built into this controller manager yet`,
      );
    }
    return this.group.start(run, async (name) => {
      const descriptor = registry[name]!;
      if (descriptor.enabledFlag && this.opts.bool?.(descriptor.enabledFlag) === false) {
        this.opts.logger.warning(`"${name}" is disabled by --${descriptor.enabledFlag}=false`);
        return undefined;
      }
      if (descriptor.featureGate && !featureEnabled(this.opts, descriptor.featureGate)) {
        this.opts.logger.warning(`Skipping "${name}": the ${descriptor.featureGate} feature gate is off`);
        return undefined;
      }
      const client = await this.opts.clientFor(name);
      const workers =
        (descriptor.concurrencyFlag && this.opts.workers(descriptor.concurrencyFlag)) ||
        descriptor.defaultWorkers ||
        1;
      return descriptor.start({
        client,
        informers: this.opts.informers,
        recorder: this.opts.recorderFor(name, client),
        logger: this.opts.logger,
        workers,
        syncPeriodMs: (descriptor.syncPeriodFlag && this.opts.duration?.(descriptor.syncPeriodFlag)) || 0,
        batchPeriodMs: (descriptor.batchPeriodFlag && this.opts.duration?.(descriptor.batchPeriodFlag)) || 0,
        now: this.opts.now ?? Date.now,
        featureGates: this.opts.featureGates,
        flags: {
          string: (flag) => this.opts.string?.(flag),
          duration: (flag) => this.opts.duration?.(flag),
          number: (flag) => this.opts.number?.(flag),
          bool: (flag) => this.opts.bool?.(flag),
          given: (flag) => this.opts.flagGiven?.(flag) ?? false,
        },
      });
    });
  }

  /** A running controller by name (tests drive the cronjob controller's clock through it). */
  controller<T extends RunningController>(name: string): T | undefined {
    return this.group.get<T>(name);
  }

  async stop(): Promise<void> {
    await this.group.stop();
  }
}
