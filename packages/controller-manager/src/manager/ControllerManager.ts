import {
  CONTROLLER_MANAGER_CONTROLLERS,
  CONTROLLER_MANAGER_DISABLED_BY_DEFAULT,
  errorMessage,
  resolveControllers,
} from '@orch/component-base';
import type { RestClient, SharedInformerFactory } from '@orch/client';
import type { EventRecorder } from '@orch/client';
import type {
  ControllerDescriptor,
  ControllerLogger,
  RunningController,
} from '../controller/ControllerContext';
import { CONTROLLER_REGISTRY } from './controllerRegistry';

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
  logger: ControllerLogger;
  /** --controller-start-interval, in ms. */
  startIntervalMs?: number;
  /** --enable-garbage-collector. */
  enableGarbageCollector?: boolean;
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
  private readonly running = new Map<string, RunningController>();
  private stopped = false;

  constructor(private readonly opts: ControllerManagerOptions) {}

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
    for (const name of run) {
      if (this.stopped) break;
      if (name === 'garbagecollector' && this.opts.enableGarbageCollector === false) {
        this.opts.logger.warning('"garbagecollector" is disabled by --enable-garbage-collector=false');
        continue;
      }
      const descriptor = registry[name]!;
      try {
        const client = await this.opts.clientFor(name);
        const workers =
          (descriptor.concurrencyFlag && this.opts.workers(descriptor.concurrencyFlag)) ||
          descriptor.defaultWorkers ||
          1;
        const controller = descriptor.start({
          client,
          informers: this.opts.informers,
          recorder: this.opts.recorderFor(name, client),
          logger: this.opts.logger,
          workers,
          syncPeriodMs: (descriptor.syncPeriodFlag && this.opts.duration?.(descriptor.syncPeriodFlag)) || 0,
          now: this.opts.now ?? Date.now,
        });
        this.running.set(name, controller);
        this.opts.informers.start();
        this.opts.logger.info(`Started "${name}"`);
      } catch (err) {
        this.opts.logger.error(`Error starting "${name}": ${errorMessage(err)}`);
        throw err;
      }
      if (this.opts.startIntervalMs)
        await delay(this.opts.startIntervalMs * (1 + Math.random()), this.opts.signal);
    }
    return [...this.running.keys()];
  }

  /** A running controller by name (tests drive the cronjob controller's clock through it). */
  controller<T extends RunningController>(name: string): T | undefined {
    return this.running.get(name) as T | undefined;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.running.values()].map((c) => c.stop()));
    this.running.clear();
    await this.opts.informers.shutdown();
  }
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
