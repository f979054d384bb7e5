import type { ListOptions } from '../typed/options';
import { TypedClient } from '../typed/TypedClient';
import type { RestClient } from '../rest/RestClient';
import type { KubeList, KubeObject, ResourceDescriptor } from '../types';
import type { WatchStream } from '../watch/WatchStream';

/** What a reflector needs: list and watch one collection. */
export interface ListerWatcher<T> {
  /** The signal aborts the request when the reflector stops. */
  list(opts: ListOptions, signal?: AbortSignal): Promise<KubeList<T>>;
  watch(opts: ListOptions, signal?: AbortSignal): Promise<WatchStream<T>>;
}

export interface ListWatchOptions {
  /** Namespace to restrict to; all namespaces when empty. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Last chance to change the options of every list and watch. */
  tweakListOptions?: (opts: ListOptions) => void;
}

/** A ListerWatcher over the REST API for one resource. */
export function listWatchForResource<T extends KubeObject>(
  client: RestClient,
  resource: ResourceDescriptor,
  options: ListWatchOptions = {},
): ListerWatcher<T> {
  const rc = new TypedClient<T>(client, resource, options.namespace);
  const withSelectors = (opts: ListOptions): ListOptions => {
    const merged: ListOptions = { ...opts };
    if (options.labelSelector) {
      merged.labelSelector = options.labelSelector;
    }
    if (options.fieldSelector) {
      merged.fieldSelector = options.fieldSelector;
    }
    options.tweakListOptions?.(merged);
    return merged;
  };
  return {
    list: (opts, signal) => rc.list({ ...withSelectors(opts), ...(signal ? { signal } : {}) }),
    watch: (opts, signal) => rc.watch({ ...withSelectors(opts), ...(signal ? { signal } : {}) }),
  };
}
