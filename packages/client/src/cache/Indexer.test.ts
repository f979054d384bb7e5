import type { KubeObject } from '../types';
import { Indexer, metaNamespaceIndexFunc, NAMESPACE_INDEX } from './Indexer';
import { DeletedFinalStateUnknown, metaNamespaceKeyFunc, splitMetaNamespaceKey } from './keyFunc';
import { everythingLabels, selectorFromSet } from '@orch/api';
import { Lister } from './Lister';

const obj = (
  namespace: string | undefined,
  name: string,
  labels: Record<string, string> = {},
  rv = '1',
): KubeObject => ({
  metadata: { ...(namespace ? { namespace } : {}), name, labels, resourceVersion: rv },
});

describe('keys', () => {
  it('uses namespace/name or name, and tombstone keys', () => {
    expect(metaNamespaceKeyFunc(obj('ns', 'a'))).toBe('ns/a');
    expect(metaNamespaceKeyFunc(obj(undefined, 'node1'))).toBe('node1');
    expect(metaNamespaceKeyFunc(new DeletedFinalStateUnknown('ns/x', obj('ns', 'x')))).toBe('ns/x');
    expect(splitMetaNamespaceKey('ns/a')).toEqual({ namespace: 'ns', name: 'a' });
    expect(splitMetaNamespaceKey('n')).toEqual({ namespace: '', name: 'n' });
    expect(() => splitMetaNamespaceKey('a/b/c')).toThrow();
    expect(() => metaNamespaceKeyFunc({ metadata: {} })).toThrow();
  });
});

describe('Indexer', () => {
  const byApp = (o: KubeObject): string[] => (o.metadata?.labels?.app ? [o.metadata.labels.app] : []);

  it('keeps indexes in step with add, update, delete and replace', () => {
    const idx = new Indexer<KubeObject>(metaNamespaceKeyFunc, {
      [NAMESPACE_INDEX]: metaNamespaceIndexFunc,
      app: byApp,
    });
    idx.add(obj('a', 'x', { app: 'web' }));
    idx.add(obj('a', 'y', { app: 'db' }));
    idx.add(obj('b', 'z', { app: 'web' }));
    expect(
      idx
        .byIndex(NAMESPACE_INDEX, 'a')
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(['x', 'y']);
    expect(idx.indexKeys('app', 'web').sort()).toEqual(['a/x', 'b/z']);
    idx.update(obj('a', 'x', { app: 'db' }, '2'));
    expect(idx.indexKeys('app', 'web')).toEqual(['b/z']);
    expect(
      idx
        .index('app', obj('q', 'q', { app: 'db' }))
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(['x', 'y']);
    idx.delete(obj('b', 'z'));
    expect(idx.listIndexFuncValues('app')).toEqual(['db']);
    expect(idx.listKeys().sort()).toEqual(['a/x', 'a/y']);
    expect(idx.getByKey('a/x')?.metadata?.resourceVersion).toBe('2');
    idx.replace([obj('c', 'w', { app: 'cache' })], '50');
    expect(idx.listKeys()).toEqual(['c/w']);
    expect(idx.listIndexFuncValues('app')).toEqual(['cache']);
    expect(idx.byIndex(NAMESPACE_INDEX, 'a')).toEqual([]);
    expect(idx.lastReplaceResourceVersion()).toBe('50');
    idx.addIndexers({ name: (o) => [o.metadata!.name!] });
    expect(idx.byIndex('name', 'w')).toHaveLength(1);
    expect(() => idx.byIndex('missing', 'x')).toThrow(/does not exist/);
  });
});

describe('Lister', () => {
  it('lists by namespace and label selector, and gets by name', () => {
    const idx = new Indexer<KubeObject>(metaNamespaceKeyFunc, { [NAMESPACE_INDEX]: metaNamespaceIndexFunc });
    idx.add(obj('a', 'x', { app: 'web', tier: 'front' }));
    idx.add(obj('a', 'y', { app: 'db' }));
    idx.add(obj('b', 'x', { app: 'web' }));
    idx.add(obj(undefined, 'cluster-thing'));
    const lister = new Lister(idx);
    expect(lister.list()).toHaveLength(4);
    expect(lister.list(everythingLabels())).toHaveLength(4);
    expect(lister.list(selectorFromSet({ app: 'web' }))).toHaveLength(2);
    expect(
      lister
        .namespace('a')
        .list()
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(['x', 'y']);
    expect(lister.namespace('a').list(selectorFromSet({ app: 'web', tier: 'front' }))).toHaveLength(1);
    expect(lister.namespace('b').get('x')?.metadata?.namespace).toBe('b');
    expect(lister.namespace('b').get('y')).toBeUndefined();
    expect(lister.get('cluster-thing')).toBeDefined();
    expect(selectorFromSet({ b: '2', a: '1' }).toString()).toBe('a=1,b=2');
    // Without a namespace index, namespace listing still works.
    const plain = new Lister(new Indexer<KubeObject>());
    expect(plain.namespace('a').list()).toEqual([]);
  });
});
