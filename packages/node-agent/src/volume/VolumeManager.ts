import {
  isPodTerminal,
  mergeResizeConditions,
  usesClaims,
  type Node,
  type PersistentVolumeClaim,
  type Pod,
} from '@orch/api';
import { isConflict, isNotFound, type EventRecorder, type TypedClient } from '@orch/client';
import { errorMessage, type Logger } from '@orch/component-base';
import type { Clock } from '../scheduling/Clock';
import type { DueQueue } from '../scheduling/DueQueue';
import {
  claimVolumes,
  failedMountMessage,
  POD_ATTACH_AND_MOUNT_TIMEOUT_MS,
  requiresFSResize,
  unmountedVolumes,
  type ClaimLookups,
  type ClaimVolume,
} from './podVolumes';

/** The claim and volume caches, and whether they have synced. */
export interface ClaimCaches extends ClaimLookups {
  synced(): boolean;
}

/** Whether a pod's volumes are mounted; when not, when to ask again. */
export type VolumeWait = { ready: true } | { ready: false; retryAt: number };

/** Where a runtime's pod start waits for the pod's volumes (the kubelet's WaitForAttachAndMount). */
export interface PodVolumeGate {
  waitForAttachAndMount(pod: Pod): Promise<VolumeWait>;
}

export interface VolumeManagerOptions {
  /**
   * The claim and volume caches, asked for once, when the first pod with a persistentVolumeClaim
   * volume comes; `changed` is to be called on every claim or volume event.
   */
  caches: (changed: () => void) => ClaimCaches;
  nodeClient: Pick<TypedClient<Node>, 'get'>;
  claimClient: Pick<TypedClient<PersistentVolumeClaim>, 'updateStatus'>;
  queue: Pick<DueQueue, 'now' | 'schedule'>;
  clock: Clock;
  /** Whether the agent runs the node of that name. */
  isAgentNode: (nodeName: string) => boolean;
  /** The node's volumesInUse changed: its status is to be posted. */
  inUseChanged: (nodeName: string) => void;
  logger: Logger;
  recorderFor?: (nodeName: string) => EventRecorder;
}

interface PodEntry {
  pod: Pod;
  node: string;
  volumes: ClaimVolume[];
  /** Its volumes were found ready: the pod's containers may run. */
  mounted: boolean;
  /** Since when the current wait (of at most podAttachAndMountTimeout) runs. */
  waitingSince?: number;
  /** Checks that found volumes not ready, for the back-off between them. */
  failures: number;
  /** No new check before then (unless a claim, a volume or the node's status changes). */
  checkAt?: number;
}

const READY: VolumeWait = { ready: true };
/**
 * How soon a pod whose volumes are not ready looks again: 500 ms, doubling up to 2 s. The kubelet
 * looks every 300 ms, at its informer's copy of its node; here each look may read the node from the
 * API, and a status the agent posts wakes the pods at once. (Backing off up to the kubelet's 2m2s
 * for failed volume operations left a pod waiting up to a minute after its volume was attached.)
 */
const RETRY_INITIAL_MS = 500;
const RETRY_MAX_MS = 2_000;
/** How long a node read serves the checks of several pods. */
const NODE_CACHE_MS = 250;
/** Retry delay of a failed claim status write. */
const RESIZE_RETRY_MS = 1_000;
/** Key kind of the claims whose file system is grown, on the agent's DueQueue. */
export const VOLUME_KEY_KIND = 'volume';

/**
 * The kubelet's volume manager for the agent's nodes, as far as the API sees it:
 *
 * - Attach: a pod's persistentVolumeClaim volumes are resolved through the claim and volume caches
 *   (started only when a pod has such a volume). The CSI volumes of a node's pods that have not
 *   finished make its status.volumesInUse (`volumesInUse`, posted by the heartbeats); a pod's start
 *   waits (`waitForAttachAndMount`) until its claims are bound and each CSI volume is in the node's
 *   status.volumesAttached (the attach/detach controller's) and volumesInUse, with a FailedMount
 *   event every podAttachAndMountTimeout it waits. A pod that finishes or goes takes its volumes out
 *   of volumesInUse, which lets the controller detach them.
 * - File system resize (ExpandInUsePersistentVolumes): a claim whose volume's capacity exceeds its
 *   status.capacity, used by a pod whose volumes are mounted, has its file system grown (nothing to
 *   do on disk): status.capacity becomes the volume's, the resize conditions go, and the pod and the
 *   claim get FileSystemResizeSuccessful. This runs as key `volume/<namespace>/<claim>` of the
 *   agent's DueQueue.
 */
export class VolumeManager implements PodVolumeGate {
  private readonly pods = new Map<string, PodEntry>();
  private readonly inUse = new Map<string, string[]>();
  private readonly nodes = new Map<
    string,
    { at: number; node?: Node; pending?: Promise<Node | undefined> }
  >();
  private cachesOrUndefined: ClaimCaches | undefined;
  private refreshQueued = false;

  constructor(private readonly opts: VolumeManagerOptions) {}

  /** The unique names of the attachable volumes the node's pods use, sorted. */
  volumesInUse(nodeName: string): string[] {
    return this.inUse.get(nodeName) ?? [];
  }

  /** An added or updated pod. */
  onPod(pod: Pod): void {
    const uid = pod.metadata?.uid;
    const nodeName = pod.spec?.nodeName;
    if (!uid || !nodeName || !this.opts.isAgentNode(nodeName)) return;
    if (!usesClaims(pod) || isPodTerminal(pod)) {
      if (this.pods.delete(uid)) this.refreshInUse(nodeName);
      return;
    }
    const caches = this.caches();
    let entry = this.pods.get(uid);
    if (!entry) {
      entry = { pod, node: nodeName, volumes: [], mounted: false, failures: 0 };
      this.pods.set(uid, entry);
    }
    entry.pod = pod;
    entry.volumes = claimVolumes(pod, caches);
    this.refreshInUse(nodeName);
  }

  /** A pod gone from the API. */
  onPodDeleted(pod: Pod): void {
    const uid = pod.metadata?.uid;
    const entry = uid ? this.pods.get(uid) : undefined;
    if (!uid || !entry) return;
    this.pods.delete(uid);
    this.refreshInUse(entry.node);
  }

  /** A status of the node the API now holds (posted by the heartbeats): pods waiting on it look again. */
  nodeStatusPosted(node: Node): void {
    const name = node.metadata?.name;
    if (!name) return;
    const waiting = [...this.pods].filter(([, e]) => e.node === name && !e.mounted);
    if (waiting.length === 0) return;
    if (!this.nodes.get(name)?.pending) this.nodes.set(name, { at: this.opts.clock.now(), node });
    for (const [uid, entry] of waiting) this.wake(uid, entry);
  }

  async waitForAttachAndMount(pod: Pod): Promise<VolumeWait> {
    const uid = pod.metadata?.uid;
    if (!uid || !usesClaims(pod)) return READY;
    if (!this.pods.has(uid)) this.onPod(pod);
    const entry = this.pods.get(uid);
    if (!entry || entry.mounted) return READY;
    const now = this.opts.clock.now();
    entry.waitingSince ??= now;
    const timeoutAt = entry.waitingSince + POD_ATTACH_AND_MOUNT_TIMEOUT_MS;
    if (entry.checkAt !== undefined && now < entry.checkAt && now < timeoutAt)
      return { ready: false, retryAt: Math.min(entry.checkAt, timeoutAt) };
    const caches = this.caches();
    let unmounted: string[];
    if (!caches.synced()) {
      unmounted = entry.volumes.map((v) => v.name);
    } else {
      entry.volumes = claimVolumes(entry.pod, caches);
      this.refreshInUse(entry.node);
      const node = entry.volumes.some((v) => v.attachable) ? await this.node(entry.node) : undefined;
      unmounted = unmountedVolumes(entry.volumes, node);
    }
    if (unmounted.length === 0) {
      entry.mounted = true;
      entry.waitingSince = undefined;
      entry.failures = 0;
      this.queueResizes(entry);
      return READY;
    }
    if (now - entry.waitingSince >= POD_ATTACH_AND_MOUNT_TIMEOUT_MS) {
      this.opts
        .recorderFor?.(entry.node)
        .event(entry.pod, 'Warning', 'FailedMount', failedMountMessage(entry.pod, unmounted));
      entry.waitingSince = now;
    }
    entry.failures++;
    const backoff = Math.min(RETRY_MAX_MS, RETRY_INITIAL_MS * 2 ** Math.min(entry.failures - 1, 20));
    entry.checkAt = now + backoff;
    return {
      ready: false,
      retryAt: Math.min(now + backoff, entry.waitingSince + POD_ATTACH_AND_MOUNT_TIMEOUT_MS),
    };
  }

  /** Grows the file system of the claim `<namespace>/<name>` when a pod with it mounted needs it. */
  async handle(key: string): Promise<void> {
    const caches = this.cachesOrUndefined;
    const slash = key.indexOf('/');
    if (!caches || slash < 0) return;
    const namespace = key.slice(0, slash);
    const name = key.slice(slash + 1);
    const claim = caches.claim(namespace, name);
    const pvName = claim?.spec?.volumeName;
    const volume = pvName ? caches.volume(pvName) : undefined;
    if (!claim || !volume || !requiresFSResize(claim, volume)) return;
    const user = [...this.pods.values()].find(
      (e) =>
        e.mounted &&
        e.pod.metadata?.namespace === namespace &&
        e.volumes.some((v) => v.claimName === name && !v.readOnly),
    );
    if (!user) return;
    const { conditions: _conditions, ...status } = claim.status ?? {};
    const conditions = mergeResizeConditions(claim.status?.conditions, []);
    try {
      await this.opts.claimClient.updateStatus({
        ...claim,
        status: {
          ...status,
          capacity: { ...volume.spec?.capacity },
          ...(conditions.length > 0 ? { conditions } : {}),
        },
      });
    } catch (err) {
      if (isNotFound(err)) return;
      if (!isConflict(err)) {
        this.opts.logger
          .v(2)
          .info(
            `Unable to finish the file system resize of claim ${namespace}/${name}: ${errorMessage(err)}`,
          );
      }
      this.opts.queue.schedule(`${VOLUME_KEY_KIND}/${key}`, this.opts.clock.now() + RESIZE_RETRY_MS);
      return;
    }
    const recorder = this.opts.recorderFor?.(user.node);
    const message = `MountVolume.NodeExpandVolume succeeded for volume "${pvName}"`;
    recorder?.event(user.pod, 'Normal', 'FileSystemResizeSuccessful', message);
    recorder?.event(claim, 'Normal', 'FileSystemResizeSuccessful', message);
  }

  private caches(): ClaimCaches {
    this.cachesOrUndefined ??= this.opts.caches(() => this.cachesChanged());
    return this.cachesOrUndefined;
  }

  /** A claim or volume changed: every tracked pod is resolved again (once per burst of events). */
  private cachesChanged(): void {
    if (this.refreshQueued) return;
    this.refreshQueued = true;
    queueMicrotask(() => {
      this.refreshQueued = false;
      const caches = this.caches();
      const nodes = new Set<string>();
      for (const [uid, entry] of this.pods) {
        entry.volumes = claimVolumes(entry.pod, caches);
        nodes.add(entry.node);
        if (entry.mounted) this.queueResizes(entry);
        else this.wake(uid, entry);
      }
      for (const node of nodes) this.refreshInUse(node);
    });
  }

  /** Something a waiting pod's volumes depend on changed: it looks again now. */
  private wake(uid: string, entry: PodEntry): void {
    entry.checkAt = undefined;
    this.opts.queue.now(`pod/${uid}`);
  }

  private queueResizes(entry: PodEntry): void {
    const namespace = entry.pod.metadata?.namespace ?? '';
    for (const v of entry.volumes) {
      if (!v.readOnly && v.claim && v.volume && requiresFSResize(v.claim, v.volume))
        this.opts.queue.now(`${VOLUME_KEY_KIND}/${namespace}/${v.claimName}`);
    }
  }

  private refreshInUse(nodeName: string): void {
    const names = new Set<string>();
    for (const entry of this.pods.values()) {
      if (entry.node !== nodeName) continue;
      for (const v of entry.volumes) if (v.attachable) names.add(v.attachable);
    }
    const sorted = [...names].sort();
    const before = this.inUse.get(nodeName) ?? [];
    if (sorted.length === before.length && sorted.every((n, i) => n === before[i])) return;
    if (sorted.length > 0) this.inUse.set(nodeName, sorted);
    else this.inUse.delete(nodeName);
    this.opts.inUseChanged(nodeName);
  }

  /** The node as the API holds it (read again when older than a moment); undefined when unreadable. */
  private node(name: string): Promise<Node | undefined> {
    const now = this.opts.clock.now();
    const cached = this.nodes.get(name);
    if (cached?.pending) return cached.pending;
    if (cached && now - cached.at < NODE_CACHE_MS) return Promise.resolve(cached.node);
    const pending = this.opts.nodeClient.get(name).then(
      (node) => {
        this.nodes.set(name, { at: this.opts.clock.now(), node });
        return node;
      },
      (err: unknown) => {
        this.nodes.set(name, { at: this.opts.clock.now() });
        this.opts.logger
          .v(2)
          .info(`Unable to read node ${name} for its attached volumes: ${errorMessage(err)}`);
        return undefined;
      },
    );
    this.nodes.set(name, { ...(cached ?? { at: 0 }), pending });
    return pending;
  }
}
