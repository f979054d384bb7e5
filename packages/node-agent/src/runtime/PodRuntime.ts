import { isPodPhaseTerminal, isPodTerminal, parseTime, type Pod, type PodStatus } from '@orch/api';
import { isConflict, isNotFound, type EventRecorder, type TypedClient } from '@orch/client';
import { errorMessage, type Logger } from '@orch/component-base';
import { PodIPAllocator } from '../node/addresses';
import type { SimulatedNode } from '../node/nodeObjects';
import type { Clock } from '../scheduling/Clock';
import type { DueQueue } from '../scheduling/DueQueue';
import type { PodVolumeGate } from '../volume/VolumeManager';
import { containerEvent } from './containerEvent';
import { podName, POD_RETRY_MS, syncPodStatus, type StatusRecord } from './syncPodStatus';
import type {
  ContainerAttach,
  ContainerExec,
  ContainerLogSource,
  PodPortForwarder,
  PodRunner,
  PodUsage,
  StreamRefusal,
} from './PodRunner';
import { simulatedPodUsage } from './simulatedUsage';
import {
  podDesc,
  simulatePodStatus,
  stoppedPodStatus,
  type PodRunContext,
  type PodTimelineOptions,
} from './podTimeline';
import { NodeImages, type ContainerImage } from './nodeImages';

type ContainerStatus = NonNullable<PodStatus['containerStatuses']>[number];

export interface PodRuntimeOptions extends PodTimelineOptions {
  podClient: Pick<TypedClient<Pod>, 'get' | 'updateStatus' | 'delete'>;
  queue: DueQueue;
  clock: Clock;
  /** The agent's node of that name, if it runs it. */
  nodeFor: (nodeName: string) => SimulatedNode | undefined;
  logger: Logger;
  /** The event recorder of a node (source kubelet, host the node); none: no events. */
  recorderFor?: (nodeName: string) => EventRecorder;
  /** Where a pod's start waits for its volumes; none: pods start at once. */
  volumes?: PodVolumeGate;
}

interface PodRecord extends StatusRecord {
  node: SimulatedNode;
  ctx: PodRunContext;
  stopped: boolean;
  /** Whether the pod IP went back to the node's pool (the pod finished). */
  released: boolean;
}

/** Whether resourceVersion `a` is older than `b` (numeric versions; otherwise unknown = false). */
function olderThan(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b || !/^\d+$/.test(a) || !/^\d+$/.test(b)) return false;
  return BigInt(a) < BigInt(b);
}

/**
 * A simulated container runtime for the pods bound to the agent's nodes. Informer events hand it
 * pods (`onPod`, `onPodDeleted`); the work for each pod runs as key `pod/<uid>` of the shared
 * DueQueue, which also wakes it when its simulated containers next change state (podTimeline).
 * Status goes through PUT pods/status with optimistic concurrency, retried on conflicts. A pod
 * with a deletionTimestamp has its containers stopped and is deleted with grace period 0 and a
 * UID precondition.
 */
export class PodRuntime implements PodRunner {
  private readonly records = new Map<string, PodRecord>();
  private readonly allocators = new Map<string, PodIPAllocator>();
  private readonly images = new NodeImages();
  readonly counts = { statusWrites: 0, deletes: 0, failures: 0 };

  constructor(private readonly opts: PodRuntimeOptions) {}

  /** Number of pods the runtime tracks. */
  get size(): number {
    return this.records.size;
  }

  /** An added or updated pod. */
  onPod(pod: Pod): void {
    const uid = pod.metadata?.uid;
    const nodeName = pod.spec?.nodeName;
    if (!uid || !nodeName) return;
    let rec = this.records.get(uid);
    if (!rec) {
      const node = this.opts.nodeFor(nodeName);
      if (!node) return;
      if (isPodTerminal(pod)) {
        if (!pod.metadata?.deletionTimestamp) return;
      }
      rec = { uid, node, pod, ctx: this.accept(pod, node), stopped: false, released: false };
      this.records.set(uid, rec);
    } else if (!olderThan(pod.metadata?.resourceVersion, rec.pod.metadata?.resourceVersion)) {
      rec.pod = pod;
    }
    this.opts.queue.now(`pod/${uid}`);
  }

  /** A pod gone from the API. */
  /** Simulated pods leave nothing running. */
  async shutdown(): Promise<void> {}

  /** A simulated container prints nothing: its log is empty. */
  containerLog(): ContainerLogSource {
    return { running: () => false };
  }

  /** A simulated container has no processes to run a command beside: the runtime refuses, as one without exec does. */
  exec(namespace: string, name: string, container: string): ContainerExec | StreamRefusal {
    if (!this.knows(namespace, name)) return { code: 404, message: 'pod does not exist' };
    return {
      code: 500,
      message: `rpc error: code = Unimplemented desc = the simulated runtime cannot exec in container "${container}": it runs no processes`,
    };
  }

  /** A simulated container has no process to attach to. */
  attach(namespace: string, name: string, container: string): ContainerAttach | StreamRefusal {
    if (!this.knows(namespace, name)) return { code: 404, message: 'pod does not exist' };
    return {
      code: 500,
      message: `rpc error: code = Unimplemented desc = the simulated runtime cannot attach to container "${container}": it runs no processes`,
    };
  }

  /** A simulated pod has no network to connect to. */
  portForward(namespace: string, name: string): PodPortForwarder | StreamRefusal {
    if (!this.knows(namespace, name)) return { code: 404, message: 'pod does not exist' };
    return {
      code: 500,
      message: `rpc error: code = Unimplemented desc = the simulated runtime cannot forward ports of pod "${name}": it runs no processes`,
    };
  }

  /** The images the node's containers have started from (see NodeImages). */
  nodeImages(nodeName: string): readonly ContainerImage[] {
    return this.images.list(nodeName);
  }

  /** The simulated usage of the running pods of a node (see simulatedPodUsage). */
  async resourceUsage(nodeName: string, now: number): Promise<PodUsage[]> {
    return [...this.records.values()]
      .filter((r) => r.node.name === nodeName && !r.stopped)
      .flatMap((r) => simulatedPodUsage(r.pod, now) ?? []);
  }

  private knows(namespace: string, name: string): boolean {
    return [...this.records.values()].some(
      (r) => r.pod.metadata?.namespace === namespace && r.pod.metadata?.name === name,
    );
  }

  onPodDeleted(pod: Pod): void {
    const uid = pod.metadata?.uid;
    if (!uid) return;
    this.forget(uid);
  }

  /** Runs the pending work of one pod. */
  async handle(uid: string): Promise<void> {
    const rec = this.records.get(uid);
    if (!rec) return;
    if (rec.pod.metadata?.deletionTimestamp) return this.stop(rec);
    const phase = rec.pod.status?.phase;
    if (rec.written === undefined && isPodPhaseTerminal(phase)) return;
    try {
      const nextAt = await this.sync(rec);
      if (nextAt !== undefined) this.opts.queue.schedule(`pod/${uid}`, nextAt);
      const done = isPodTerminal(rec.pod);
      if (done) this.releaseIP(rec);
    } catch (err) {
      if (isNotFound(err)) return this.forget(uid);
      this.counts.failures++;
      this.opts.logger.v(2).info(`Error syncing pod ${podName(rec.pod)}: ${errorMessage(err)}`);
      this.opts.queue.schedule(`pod/${uid}`, this.opts.clock.now() + POD_RETRY_MS);
    }
  }

  private allocator(node: SimulatedNode): PodIPAllocator {
    let a = this.allocators.get(node.name);
    if (!a) {
      a = new PodIPAllocator(node.podCIDR);
      this.allocators.set(node.name, a);
    }
    return a;
  }

  /** Admits a pod: its start time (kept from an earlier agent when present) and addresses. */
  private accept(pod: Pod, node: SimulatedNode): PodRunContext {
    const startTime = pod.status?.startTime;
    const acceptedAt = startTime ? parseTime(startTime) : this.opts.clock.now();
    let podIP = node.internalIP;
    if (!pod.spec?.hostNetwork) {
      const allocator = this.allocator(node);
      const previous = pod.status?.podIP;
      podIP = previous && allocator.claim(previous) ? previous : (allocator.allocate() ?? node.internalIP);
    }
    return { acceptedAt, podIP, hostIP: node.internalIP };
  }

  private forget(uid: string): void {
    const rec = this.records.get(uid);
    if (!rec) return;
    this.records.delete(uid);
    this.opts.queue.cancel(`pod/${uid}`);
    this.releaseIP(rec);
  }

  /** Returns a finished or deleted pod's IP to its node's pool, once. */
  private releaseIP(rec: PodRecord): void {
    if (rec.released) return;
    rec.released = true;
    if (!rec.pod.spec?.hostNetwork) this.allocators.get(rec.node.name)?.release(rec.ctx.podIP);
  }

  /** Writes the status due now; returns when the pod next changes. */
  private async sync(rec: PodRecord): Promise<number | undefined> {
    const { clock, podClient } = this.opts;
    const volumes = await this.waitForVolumes(rec);
    const r = await syncPodStatus(podClient, rec, (pod) =>
      simulatePodStatus(pod, rec.ctx, this.opts, clock.now()),
    );
    if (r.wrote) {
      this.counts.statusWrites++;
      this.recordContainerEvents(rec, r.previous, r.status);
      // a container that ran was pulled: its image is on the node from now on
      for (const c of [...(r.status.initContainerStatuses ?? []), ...(r.status.containerStatuses ?? [])])
        if (c.containerID) this.images.add(rec.node.name, c.image ?? '');
    }
    return volumes ?? r.nextAt;
  }

  /**
   * Until the pod's volumes are mounted its containers wait (startAfter Infinity; returns when to
   * look again); the wait ends with the containers' start no earlier than now.
   */
  private async waitForVolumes(rec: PodRecord): Promise<number | undefined> {
    if (!this.opts.volumes || (rec.ctx.startAfter !== undefined && rec.ctx.startAfter !== Infinity))
      return undefined;
    const wait = await this.opts.volumes.waitForAttachAndMount(rec.pod);
    if (!wait.ready) {
      rec.ctx.startAfter = Infinity;
      return wait.retryAt;
    }
    rec.ctx.startAfter = rec.ctx.startAfter === Infinity ? this.opts.clock.now() : -Infinity;
    return undefined;
  }

  /** Stops the containers of a pod being deleted and deletes it for good. */
  private async stop(rec: PodRecord): Promise<void> {
    const { clock, podClient, queue, logger } = this.opts;
    const pod = rec.pod;
    const name = pod.metadata?.name ?? '';
    const namespace = pod.metadata?.namespace;
    try {
      if (!rec.stopped) {
        const running = (pod.status?.containerStatuses ?? []).filter((c) => c.state?.running);
        for (const c of running)
          this.event(rec, c.name ?? '', 'Normal', 'Killing', `Stopping container ${c.name ?? ''}`);
        if (running.length > 0) {
          try {
            rec.pod = await podClient.updateStatus({ ...pod, status: stoppedPodStatus(pod, clock.now()) });
            this.counts.statusWrites++;
          } catch (err) {
            // The final status is a courtesy; the deletion below is what matters.
            if (isNotFound(err)) return this.forget(rec.uid);
            logger.v(2).info(`Unable to write the final status of pod ${podName(pod)}: ${errorMessage(err)}`);
          }
        }
        rec.stopped = true;
      }
      await podClient.delete(name, { namespace, gracePeriodSeconds: 0, preconditions: { uid: rec.uid } });
      this.counts.deletes++;
      this.forget(rec.uid);
    } catch (err) {
      if (isNotFound(err) || isConflict(err)) return this.forget(rec.uid);
      this.counts.failures++;
      logger.v(2).info(`Unable to delete pod ${podName(pod)}: ${errorMessage(err)}`);
      queue.schedule(`pod/${rec.uid}`, clock.now() + POD_RETRY_MS);
    }
  }

  /** Pulled/Created/Started for containers that (re)started, BackOff for those waiting to. */
  private recordContainerEvents(rec: PodRecord, before: PodStatus | undefined, after: PodStatus): void {
    if (!this.opts.recorderFor) return;
    const pairs = (
      list: ContainerStatus[] | undefined,
      old: ContainerStatus[] | undefined,
    ): [ContainerStatus, ContainerStatus | undefined][] =>
      (list ?? []).map((c) => [c, old?.find((o) => o.name === c.name)]);
    const ran = (c: ContainerStatus | undefined) => Boolean(c?.containerID);
    for (const [c, old] of pairs(after.initContainerStatuses, before?.initContainerStatuses)) {
      if (ran(c) && !ran(old)) this.startedEvents(rec, c);
    }
    for (const [c, old] of pairs(after.containerStatuses, before?.containerStatuses)) {
      if (c.state?.running && (!old?.state?.running || old.restartCount !== c.restartCount))
        this.startedEvents(rec, c);
      const waiting = c.state?.waiting;
      if (waiting?.reason === 'CrashLoopBackOff' && old?.state?.waiting?.reason !== 'CrashLoopBackOff') {
        this.event(
          rec,
          c.name ?? '',
          'Warning',
          'BackOff',
          `Back-off restarting failed container ${c.name} in pod ${podDesc(rec.pod)}`,
        );
      }
    }
  }

  private startedEvents(rec: PodRecord, c: ContainerStatus): void {
    const image = c.image ?? '';
    const pulled =
      (c.restartCount ?? 0) === 0
        ? `Successfully pulled image "${image}" in 0s`
        : `Container image "${image}" already present on machine`;
    const name = c.name ?? '';
    this.event(rec, name, 'Normal', 'Pulled', pulled);
    this.event(rec, name, 'Normal', 'Created', `Created container ${name}`);
    this.event(rec, name, 'Normal', 'Started', `Started container ${name}`);
  }

  private event(
    rec: PodRecord,
    container: string,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
  ): void {
    containerEvent(this.opts.recorderFor?.(rec.node.name), rec.pod, container, type, reason, message);
  }
}
