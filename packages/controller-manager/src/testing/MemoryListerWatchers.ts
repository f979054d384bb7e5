import { PassThrough } from 'node:stream';
import {
  asWatchEvent,
  LineFramer,
  resourceKey,
  WatchStream,
  type KubeObject,
  type ListerWatcher,
  type ResourceDescriptor,
} from '@orch/client';

/**
 * Collections kept in memory that feed informers (SharedInformerFactory's listerWatcherFor):
 * tests put and remove objects and the informers see list and watch events.
 */
export class MemoryListerWatchers {
  private readonly objects = new Map<string, Map<string, KubeObject>>();
  private readonly watchers = new Map<string, Set<PassThrough>>();
  private revision = 1;

  private collection(resource: ResourceDescriptor): Map<string, KubeObject> {
    const key = resourceKey(resource);
    let c = this.objects.get(key);
    if (!c) this.objects.set(key, (c = new Map()));
    return c;
  }

  private emit(resource: ResourceDescriptor, type: string, obj: KubeObject): void {
    for (const w of this.watchers.get(resourceKey(resource)) ?? [])
      w.write(`${JSON.stringify({ type, object: obj })}\n`);
  }

  /** Adds or replaces an object (its resourceVersion is set). */
  put(resource: ResourceDescriptor, obj: KubeObject): KubeObject {
    const stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++this.revision) } };
    const c = this.collection(resource);
    const key = `${stored.metadata.namespace ?? ''}/${stored.metadata.name}`;
    const existed = c.has(key);
    c.set(key, stored);
    this.emit(resource, existed ? 'MODIFIED' : 'ADDED', stored);
    return stored;
  }

  remove(resource: ResourceDescriptor, obj: KubeObject): void {
    const c = this.collection(resource);
    const key = `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name}`;
    const stored = c.get(key);
    if (!stored) return;
    c.delete(key);
    this.emit(resource, 'DELETED', {
      ...stored,
      metadata: { ...stored.metadata, resourceVersion: String(++this.revision) },
    });
  }

  listerWatcherFor = (resource: ResourceDescriptor): ListerWatcher<KubeObject> => ({
    list: async () => ({
      items: [...this.collection(resource).values()],
      metadata: { resourceVersion: String(this.revision) },
    }),
    watch: async () => {
      const source = new PassThrough();
      const key = resourceKey(resource);
      let set = this.watchers.get(key);
      if (!set) this.watchers.set(key, (set = new Set()));
      set.add(source);
      return new WatchStream<KubeObject>(
        source,
        new LineFramer(),
        (frame) => asWatchEvent<KubeObject>(JSON.parse(frame.toString('utf8'))),
        () => {
          set.delete(source);
          source.end();
        },
      );
    },
  });
}
