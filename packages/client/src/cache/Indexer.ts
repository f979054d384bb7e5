import type { KubeObject } from '../types';
import { metaNamespaceKeyFunc, type KeyFunc } from './keyFunc';
import type { Store } from './Store';

/** Computes the values under which an object is indexed. */
export type IndexFunc<T> = (obj: T) => string[];
/** Index name → index function. */
export type Indexers<T> = Record<string, IndexFunc<T>>;

/** The name of the namespace index. */
export const NAMESPACE_INDEX = 'namespace';

/** Indexes objects by their namespace. */
export function metaNamespaceIndexFunc(obj: KubeObject): string[] {
  return [obj.metadata?.namespace ?? ''];
}

/**
 * A keyed store with secondary indexes. Every method runs to completion before another can
 * start, so the store is consistent for any reader on the event loop.
 */
export class Indexer<T> implements Store<T> {
  private readonly items = new Map<string, T>();
  private readonly indexers: Indexers<T> = {};
  /** index name → indexed value → keys */
  private readonly indices = new Map<string, Map<string, Set<string>>>();
  private resourceVersion = '';

  constructor(
    readonly keyFunc: KeyFunc<T> = metaNamespaceKeyFunc as KeyFunc<T>,
    indexers: Indexers<T> = {},
  ) {
    this.addIndexers(indexers);
  }

  /** Adds indexes; existing items are indexed at once. */
  addIndexers(indexers: Indexers<T>): void {
    for (const [name, fn] of Object.entries(indexers)) {
      if (this.indexers[name]) {
        throw new Error(`indexer "${name}" already exists`);
      }
      this.indexers[name] = fn;
      const index = new Map<string, Set<string>>();
      this.indices.set(name, index);
      for (const [key, obj] of this.items) {
        this.indexInto(index, fn(obj), key);
      }
    }
  }

  getIndexers(): Indexers<T> {
    return { ...this.indexers };
  }

  private indexInto(index: Map<string, Set<string>>, values: string[], key: string): void {
    for (const v of values) {
      let keys = index.get(v);
      if (!keys) {
        keys = new Set();
        index.set(v, keys);
      }
      keys.add(key);
    }
  }

  private updateIndices(oldObj: T | undefined, newObj: T | undefined, key: string): void {
    for (const [name, fn] of Object.entries(this.indexers)) {
      const index = this.indices.get(name)!;
      if (oldObj !== undefined) {
        for (const v of fn(oldObj)) {
          const keys = index.get(v);
          keys?.delete(key);
          if (keys?.size === 0) {
            index.delete(v);
          }
        }
      }
      if (newObj !== undefined) {
        this.indexInto(index, fn(newObj), key);
      }
    }
  }

  add(obj: T): void {
    const key = this.keyFunc(obj);
    const old = this.items.get(key);
    this.items.set(key, obj);
    this.updateIndices(old, obj, key);
  }

  update(obj: T): void {
    this.add(obj);
  }

  delete(obj: T): void {
    this.deleteByKey(this.keyFunc(obj));
  }

  deleteByKey(key: string): void {
    const old = this.items.get(key);
    if (old !== undefined) {
      this.items.delete(key);
      this.updateIndices(old, undefined, key);
    }
  }

  list(): T[] {
    return [...this.items.values()];
  }

  listKeys(): string[] {
    return [...this.items.keys()];
  }

  get(obj: T): T | undefined {
    return this.items.get(this.keyFunc(obj));
  }

  getByKey(key: string): T | undefined {
    return this.items.get(key);
  }

  replace(items: T[], resourceVersion: string): void {
    this.items.clear();
    for (const index of this.indices.values()) {
      index.clear();
    }
    for (const obj of items) {
      this.add(obj);
    }
    this.resourceVersion = resourceVersion;
  }

  /** The resourceVersion given to the last replace. */
  lastReplaceResourceVersion(): string {
    return this.resourceVersion;
  }

  private indexOf(indexName: string): Map<string, Set<string>> {
    const index = this.indices.get(indexName);
    if (!index) {
      throw new Error(`index "${indexName}" does not exist`);
    }
    return index;
  }

  /** Keys of the objects indexed under `value`. */
  indexKeys(indexName: string, value: string): string[] {
    return [...(this.indexOf(indexName).get(value) ?? [])];
  }

  /** Objects indexed under `value`. */
  byIndex(indexName: string, value: string): T[] {
    return this.indexKeys(indexName, value).map((k) => this.items.get(k)!);
  }

  /** Objects sharing at least one indexed value with `obj`. */
  index(indexName: string, obj: T): T[] {
    const index = this.indexOf(indexName);
    const keys = new Set<string>();
    for (const v of this.indexers[indexName]!(obj)) {
      for (const k of index.get(v) ?? []) {
        keys.add(k);
      }
    }
    return [...keys].map((k) => this.items.get(k)!);
  }

  /** The values present in an index. */
  listIndexFuncValues(indexName: string): string[] {
    return [...this.indexOf(indexName).keys()];
  }
}
