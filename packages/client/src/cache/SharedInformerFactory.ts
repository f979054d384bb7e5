import type { ListOptions } from '../typed/options';
import type { RestClient } from '../rest/RestClient';
import type { KindDeclaration } from '@orch/api';
import type { ObjectOfTarget } from '../typed/clientFor';
import { resolveTarget, type ResourceTarget } from '../typed/TypedClient';
import type { KubeObject, ResourceDescriptor } from '../types';
import { listWatchForResource, type ListerWatcher } from './ListerWatcher';
import type { ReflectorOptions } from './Reflector';
import { SharedIndexInformer } from './SharedIndexInformer';
import { waitForCacheSync, type WaitForCacheSyncOptions } from './waitForCacheSync';

export interface SharedInformerFactoryOptions {
  /** Default resync period in ms; 0 disables resync. */
  defaultResyncMs?: number;
  /** Restrict every informer to one namespace; all namespaces when empty. */
  namespace?: string;
  tweakListOptions?: (opts: ListOptions) => void;
  reflector?: ReflectorOptions;
  /** Builds the lister-watcher of a resource; REST-backed by default. */
  listerWatcherFor?: (resource: ResourceDescriptor) => ListerWatcher<KubeObject>;
  onHandlerError?: (err: unknown) => void;
}

/** The key under which a resource's informer is shared. */
export function resourceKey(r: ResourceDescriptor): string {
  return `${r.group}/${r.version}/${r.resource}`;
}

/** Hands out one shared informer per resource and starts, syncs and stops them together. */
export class SharedInformerFactory {
  private readonly informers = new Map<string, SharedIndexInformer<KubeObject>>();
  private shuttingDown = false;

  constructor(
    private readonly client: RestClient | undefined,
    private readonly opts: SharedInformerFactoryOptions = {},
  ) {
    if (!client && !opts.listerWatcherFor) {
      throw new Error('a RestClient or listerWatcherFor is required');
    }
  }

  /**
   * The informer for a resource, created on first use: `informerFor(PodKind)` is a
   * `SharedIndexInformer<Pod>`; a ResourceDescriptor or RESTMapping gives one of the type asked for.
   */
  informerFor<D extends KindDeclaration<any>>(
    declaration: D,
    resyncPeriodMs?: number,
  ): SharedIndexInformer<ObjectOfTarget<D>>;
  informerFor<T extends KubeObject>(target: ResourceTarget, resyncPeriodMs?: number): SharedIndexInformer<T>;
  informerFor<T extends KubeObject>(target: ResourceTarget, resyncPeriodMs?: number): SharedIndexInformer<T> {
    const { resource } = resolveTarget(target);
    const key = resourceKey(resource);
    let informer = this.informers.get(key);
    if (!informer) {
      const lw =
        this.opts.listerWatcherFor?.(resource) ??
        listWatchForResource<KubeObject>(this.client!, resource, {
          ...(this.opts.namespace ? { namespace: this.opts.namespace } : {}),
          ...(this.opts.tweakListOptions ? { tweakListOptions: this.opts.tweakListOptions } : {}),
        });
      informer = new SharedIndexInformer<KubeObject>(lw, {
        resyncPeriodMs: resyncPeriodMs ?? this.opts.defaultResyncMs ?? 0,
        reflector: { name: key, ...this.opts.reflector },
        ...(this.opts.onHandlerError ? { onHandlerError: this.opts.onHandlerError } : {}),
      });
      this.informers.set(key, informer);
    }
    return informer as unknown as SharedIndexInformer<T>;
  }

  /** Starts every informer not yet started (informers requested later need another start()). */
  start(): void {
    if (this.shuttingDown) {
      return;
    }
    for (const informer of this.informers.values()) {
      informer.run();
    }
  }

  /** Waits for the started informers; returns each one's sync state by resource key. */
  async waitForCacheSync(opts: WaitForCacheSyncOptions = {}): Promise<Map<string, boolean>> {
    const started = [...this.informers].filter(([, i]) => i.isStarted);
    await waitForCacheSync(
      started.map(
        ([, i]) =>
          () =>
            i.hasSynced(),
      ),
      opts,
    );
    return new Map(started.map(([k, i]) => [k, i.hasSynced()]));
  }

  /** Stops every informer and waits for them to finish. */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
  }
}
