import type { ApiObject } from '../registry/object';

/** Reads past the caches and status writes, for admission plugins that keep accounts (ResourceQuota). */
export interface ObjectWriter {
  /** The object as storage has it now, past any watch cache. */
  fresh(group: string, resource: string, namespace: string, name: string): Promise<ApiObject | undefined>;
  /**
   * Read-modify-write of an object's status: `transform` gets the stored object (its own copy) and
   * returns the object to write, or throws to give up. The write is conditional on the version read;
   * a conflicting write, or a failure working from a cached copy, makes it start again from storage.
   * A missing object is a 404 Not Found.
   */
  updateStatus(
    group: string,
    resource: string,
    namespace: string,
    name: string,
    transform: (current: ApiObject) => ApiObject,
  ): Promise<ApiObject>;
}
