/** A keyed object store. */
export interface Store<T> {
  add(obj: T): void;
  update(obj: T): void;
  delete(obj: T): void;
  list(): T[];
  listKeys(): string[];
  get(obj: T): T | undefined;
  getByKey(key: string): T | undefined;
  /** Replaces the whole content; `resourceVersion` is the version the items were listed at. */
  replace(items: T[], resourceVersion: string): void;
}
