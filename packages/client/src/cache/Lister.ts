import { everythingLabels, type LabelsSelector } from '@orch/api';
import type { KubeObject } from '../types';
import type { Indexer } from './Indexer';
import { NAMESPACE_INDEX } from './Indexer';

function select<T extends KubeObject>(items: T[], selector: LabelsSelector): T[] {
  return selector.empty() ? items : items.filter((o) => selector.matches(o.metadata?.labels ?? {}));
}

/** Reads one namespace of an informer's cache. */
export class NamespaceLister<T extends KubeObject> {
  constructor(
    private readonly indexer: Indexer<T>,
    readonly namespace: string,
  ) {}

  list(selector: LabelsSelector = everythingLabels()): T[] {
    const items = this.indexer.getIndexers()[NAMESPACE_INDEX]
      ? this.indexer.byIndex(NAMESPACE_INDEX, this.namespace)
      : this.indexer.list().filter((o) => (o.metadata?.namespace ?? '') === this.namespace);
    return select(items, selector);
  }

  get(name: string): T | undefined {
    return this.indexer.getByKey(`${this.namespace}/${name}`);
  }
}

/** Reads an informer's cache: all objects, by label selector, by namespace. */
export class Lister<T extends KubeObject> {
  constructor(private readonly indexer: Indexer<T>) {}

  list(selector: LabelsSelector = everythingLabels()): T[] {
    return select(this.indexer.list(), selector);
  }

  /** A cluster-scoped object by name. */
  get(name: string): T | undefined {
    return this.indexer.getByKey(name);
  }

  namespace(namespace: string): NamespaceLister<T> {
    return new NamespaceLister(this.indexer, namespace);
  }
}
