import type { ApiObject } from '../registry/object';

/**
 * Read access to stored objects for admission plugins. The objects are shared with other readers
 * (as an informer's are): plugins must not change them.
 */
export interface ObjectLookup {
  get(group: string, resource: string, namespace: string, name: string): Promise<ApiObject | undefined>;
  list(group: string, resource: string, namespace: string): Promise<ApiObject[]>;
}
