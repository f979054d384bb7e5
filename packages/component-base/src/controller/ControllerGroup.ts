import { sleep, type SharedInformerFactory } from '@orch/client';
import { errorMessage } from '../errorMessage';
import type { ControllerLogger, RunningController } from './ControllerContext';

export interface ControllerGroupOptions {
  /** The informers the controllers share; started after each controller registered its own. */
  informers: SharedInformerFactory;
  logger: ControllerLogger;
  /** --controller-start-interval, in ms: each start is followed by a pause of 1-2 times it. */
  startIntervalMs?: number;
  signal?: AbortSignal;
}

/**
 * The running controllers of a controller manager (Kubernetes' StartControllers): started one by
 * one in the given order, the shared informers started after each, stopped together.
 */
export class ControllerGroup {
  private readonly running = new Map<string, RunningController>();
  private stopped = false;

  constructor(private readonly opts: ControllerGroupOptions) {}

  /**
   * Starts each named controller with `start`, which returns undefined for one it skips (after
   * saying why); a throw is logged and ends the start. Returns the names of those running.
   */
  async start(
    names: readonly string[],
    start: (name: string) => Promise<RunningController | undefined> | RunningController | undefined,
  ): Promise<string[]> {
    for (const name of names) {
      if (this.stopped) break;
      let controller: RunningController | undefined;
      try {
        controller = await start(name);
      } catch (err) {
        this.opts.logger.error(`Error starting "${name}": ${errorMessage(err)}`);
        throw err;
      }
      if (!controller) continue;
      this.running.set(name, controller);
      this.opts.informers.start();
      this.opts.logger.info(`Started "${name}"`);
      if (this.opts.startIntervalMs)
        await sleep(this.opts.startIntervalMs * (1 + Math.random()), this.opts.signal).catch(() => undefined);
    }
    return [...this.running.keys()];
  }

  /** A running controller by name. */
  get<T extends RunningController>(name: string): T | undefined {
    return this.running.get(name) as T | undefined;
  }

  /** Stops every controller, then the informers. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.running.values()].map((c) => c.stop()));
    this.running.clear();
    await this.opts.informers.shutdown();
  }
}
