import type { EventRecorder, RestClient } from '@orch/client';
import {
  CLOUD_CONTROLLER_MANAGER_CONTROLLERS,
  CLOUD_CONTROLLER_MANAGER_DISABLED_BY_DEFAULT,
  ControllerGroup,
  resolveControllers,
  type ControllerGroupOptions,
  type FeatureGates,
} from '@orch/component-base';
import type { CloudProvider } from '../cloudprovider/CloudProvider';
import type {
  CloudControllerDescriptor,
  CloudControllerOptions,
} from '../controllers/CloudControllerContext';
import { CLOUD_CONTROLLER_REGISTRY } from './cloudControllerRegistry';

export interface CloudControllerManagerOptions extends ControllerGroupOptions {
  /** The --controllers list. */
  controllers: readonly string[];
  cloud: CloudProvider;
  options: CloudControllerOptions;
  /** The client a controller uses (its service account's or the manager's). */
  clientFor(controller: string): Promise<RestClient>;
  recorderFor(controller: string, client: RestClient): EventRecorder;
  /** Workers of a controller's concurrency flag. */
  workers(flag: string): number | undefined;
  /** The daemon's --feature-gates; their defaults when not given. */
  featureGates?: FeatureGates;
  now?: () => number;
  registry?: Readonly<Record<string, CloudControllerDescriptor>>;
}

/**
 * Starts the enabled cloud controllers with the cloud provider, one shared informer factory
 * started once each controller registered its informers.
 */
export class CloudControllerManager {
  private readonly group: ControllerGroup;

  constructor(private readonly opts: CloudControllerManagerOptions) {
    this.group = new ControllerGroup(opts);
  }

  /** The controllers a --controllers list enables; unknown names throw a FlagError naming them. */
  static enabled(list: readonly string[]): string[] {
    return resolveControllers(
      list,
      CLOUD_CONTROLLER_MANAGER_CONTROLLERS,
      CLOUD_CONTROLLER_MANAGER_DISABLED_BY_DEFAULT,
    );
  }

  /** Starts the controllers; returns the names of those running. */
  async start(): Promise<string[]> {
    const registry = this.opts.registry ?? CLOUD_CONTROLLER_REGISTRY;
    const names = CloudControllerManager.enabled(this.opts.controllers).filter((n) => registry[n]);
    return this.group.start(names, async (name) => {
      const descriptor = registry[name]!;
      const client = await this.opts.clientFor(name);
      const controller = descriptor.start({
        client,
        informers: this.opts.informers,
        recorder: this.opts.recorderFor(name, client),
        logger: this.opts.logger,
        workers: (descriptor.concurrencyFlag && this.opts.workers(descriptor.concurrencyFlag)) || 1,
        now: this.opts.now ?? Date.now,
        featureGates: this.opts.featureGates,
        cloud: this.opts.cloud,
        options: this.opts.options,
      });
      if (!controller) this.opts.logger.warning(`Skipping "${name}"`);
      return controller;
    });
  }

  async stop(): Promise<void> {
    await this.group.stop();
  }
}
