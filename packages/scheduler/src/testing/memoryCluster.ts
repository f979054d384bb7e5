import { PassThrough } from 'node:stream';
import type { Node, PersistentVolume, PersistentVolumeClaim, Pod } from '@orch/api';
import {
  asWatchEvent,
  LineFramer,
  SharedIndexInformer,
  WatchStream,
  type KubeObject,
  type ListerWatcher,
} from '@orch/client';
import type { SchedulerClient } from '../framework/interfaces';

interface Collection<T> {
  items: Map<string, T>;
  watchers: Set<PassThrough>;
}

export interface RecordedEvent {
  pod: string;
  type: string;
  reason: string;
  message: string;
}

const keyOf = (o: KubeObject): string => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

/**
 * Pods and nodes held in memory, served to informers through list/watch streams, with the
 * scheduler's writes (binding, status, events) applied to them. For unit tests.
 */
export class MemoryCluster implements SchedulerClient {
  private rv = 1;
  private readonly pods: Collection<Pod> = { items: new Map(), watchers: new Set() };
  private readonly nodes: Collection<Node> = { items: new Map(), watchers: new Set() };
  readonly events: RecordedEvent[] = [];
  readonly bindings: { pod: string; node: string }[] = [];
  /** The pods the scheduler deleted (namespace/name). */
  readonly deletions: string[] = [];
  readonly statusPatches: { pod: string; status: Record<string, unknown> }[] = [];
  /** The PersistentVolumes and PersistentVolumeClaims the scheduler updated, in order. */
  readonly volumeUpdates: (PersistentVolume | PersistentVolumeClaim)[] = [];
  /** Makes the next bindings fail with this message. */
  failBindings: string | undefined;

  private write<T extends KubeObject>(c: Collection<T>, type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: T): T {
    const stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++this.rv) } } as T;
    if (type === 'DELETED') c.items.delete(keyOf(stored));
    else c.items.set(keyOf(stored), stored);
    const line = JSON.stringify({ type, object: stored }) + '\n';
    for (const w of c.watchers) w.write(line);
    return stored;
  }

  addNode(node: Node): Node {
    return this.write(this.nodes, this.nodes.items.has(keyOf(node)) ? 'MODIFIED' : 'ADDED', node);
  }

  addPod(pod: Pod): Pod {
    return this.write(this.pods, this.pods.items.has(keyOf(pod)) ? 'MODIFIED' : 'ADDED', pod);
  }

  /** Removes a pod (as its deletion by the test). */
  removePod(pod: Pod): void {
    this.deletePod0(pod);
  }

  private deletePod0(pod: Pod): void {
    this.write(this.pods, 'DELETED', this.pods.items.get(keyOf(pod)) ?? pod);
  }

  pod(namespace: string, name: string): Pod | undefined {
    return this.pods.items.get(`${namespace}/${name}`);
  }

  private listerWatcher<T extends KubeObject>(c: Collection<T>): ListerWatcher<T> {
    return {
      list: async () => ({ metadata: { resourceVersion: String(this.rv) }, items: [...c.items.values()] }),
      watch: async () => {
        const stream = new PassThrough();
        c.watchers.add(stream);
        const decode = (frame: Buffer) => asWatchEvent<T>(JSON.parse(frame.toString('utf8')));
        return new WatchStream<T>(stream, new LineFramer(), decode, () => {
          c.watchers.delete(stream);
          stream.end();
        });
      },
    };
  }

  podInformer(): SharedIndexInformer<Pod> {
    return new SharedIndexInformer<Pod>(this.listerWatcher(this.pods));
  }

  nodeInformer(): SharedIndexInformer<Node> {
    return new SharedIndexInformer<Node>(this.listerWatcher(this.nodes));
  }

  // SchedulerClient

  async bind(pod: Pod, nodeName: string): Promise<void> {
    await Promise.resolve();
    if (this.failBindings) throw new Error(this.failBindings);
    const current = this.pods.items.get(keyOf(pod));
    if (!current) throw new Error(`pods "${pod.metadata?.name}" not found`);
    if (current.spec?.nodeName)
      throw new Error(`pod ${pod.metadata?.name} is already assigned to node "${current.spec.nodeName}"`);
    this.bindings.push({ pod: keyOf(pod), node: nodeName });
    const conditions = (current.status?.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
    this.write(this.pods, 'MODIFIED', {
      ...current,
      spec: { ...current.spec!, nodeName },
      status: { ...current.status, conditions: [...conditions, { type: 'PodScheduled', status: 'True' }] },
    });
  }

  async updatePodCondition(
    pod: Pod,
    condition: { type: string; status: string; reason?: string; message?: string },
    nominatedNodeName?: string,
  ): Promise<void> {
    await Promise.resolve();
    const current = this.pods.items.get(keyOf(pod));
    if (!current) return;
    const conditions = (current.status?.conditions ?? []).filter((c) => c.type !== condition.type);
    const status: Record<string, unknown> = { ...current.status, conditions: [...conditions, condition] };
    if (nominatedNodeName) status.nominatedNodeName = nominatedNodeName;
    else if (nominatedNodeName === '') delete status.nominatedNodeName;
    this.write(this.pods, 'MODIFIED', { ...current, status: status as Pod['status'] });
  }

  async deletePod(pod: Pod): Promise<void> {
    await Promise.resolve();
    this.deletions.push(keyOf(pod));
    if (this.pods.items.has(keyOf(pod))) this.deletePod0(pod);
  }

  /** Merges `status` into the pod's status; conditions replace those of the same type; null removes. */
  async patchPodStatus(pod: Pod, status: Record<string, unknown>): Promise<void> {
    await Promise.resolve();
    const current = this.pods.items.get(keyOf(pod));
    if (!current) throw new Error(`pods "${pod.metadata?.name}" not found`);
    const next: Record<string, unknown> = { ...current.status };
    for (const [k, v] of Object.entries(status)) {
      if (v === null) delete next[k];
      else if (k === 'conditions') {
        const added = v as { type: string }[];
        const kept = (current.status?.conditions ?? []).filter((c) => !added.some((a) => a.type === c.type));
        next[k] = [...kept, ...added];
      } else next[k] = v;
    }
    this.statusPatches.push({ pod: keyOf(pod), status });
    this.write(this.pods, 'MODIFIED', { ...current, status: next as Pod['status'] });
  }

  async updatePersistentVolume(volume: PersistentVolume): Promise<PersistentVolume> {
    await Promise.resolve();
    this.volumeUpdates.push(volume);
    return { ...volume, metadata: { ...volume.metadata, resourceVersion: String(++this.rv) } };
  }

  async updatePersistentVolumeClaim(claim: PersistentVolumeClaim): Promise<PersistentVolumeClaim> {
    await Promise.resolve();
    this.volumeUpdates.push(claim);
    return { ...claim, metadata: { ...claim.metadata, resourceVersion: String(++this.rv) } };
  }

  event(pod: Pod, type: string, reason: string, _action: string, message: string): void {
    this.events.push({ pod: keyOf(pod), type, reason, message });
  }

  /** Ends every watch. */
  close(): void {
    for (const c of [this.pods, this.nodes] as Collection<KubeObject>[]) {
      for (const w of c.watchers) w.end();
      c.watchers.clear();
    }
  }
}
