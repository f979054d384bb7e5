import type { Lease, Node } from '@orch/api';
import { isAlreadyExists, isConflict, isNotFound, type EventRecorder, type TypedClient } from '@orch/client';
import { errorMessage, type Logger } from '@orch/component-base';
import type { Clock } from '../scheduling/Clock';
import type { DueQueue } from '../scheduling/DueQueue';
import { nextSlot } from '../scheduling/stagger';
import {
  nodeLease,
  nodeObject,
  nodeStatus,
  reconcileNode,
  statusWithoutHeartbeats,
  type SimulatedNode,
} from './nodeObjects';

type NodeCondition = NonNullable<NonNullable<Node['status']>['conditions']>[number];

export interface NodeHeartbeatsOptions {
  nodes: readonly SimulatedNode[];
  nodeClient: Pick<TypedClient<Node>, 'create' | 'get' | 'update' | 'patch'>;
  leaseClient: Pick<TypedClient<Lease>, 'create' | 'get' | 'update'>;
  queue: DueQueue;
  clock: Clock;
  leaseDurationSeconds: number;
  statusUpdateFrequencyMs: number;
  statusReportFrequencyMs: number;
  logger: Logger;
  /** The event recorder of a node (source kubelet, host the node); none: no events. */
  recorderFor?: (nodeName: string) => EventRecorder;
  /** The attachable volumes the node's pods use (its status.volumesInUse). */
  volumesInUse?: (nodeName: string) => readonly string[];
  /** The container images present on the node (its status.images). */
  images?: (nodeName: string) => Readonly<NonNullable<Node['status']>['images']>;
  /** Called with the node the API returns for each status posted. */
  onStatusPosted?: (node: Node) => void;
}

interface NodeState {
  spec: SimulatedNode;
  node?: Node;
  lease?: Lease;
  /** Posted conditions, for their lastTransitionTime. */
  conditions?: NodeCondition[];
  statusKey?: string;
  lastReportAt: number;
  registerFailures: number;
  leaseFailures: number;
  readyReported: boolean;
}

/** Keys of the shared DueQueue this component owns. */
export const HEARTBEAT_KEY_KINDS = ['register', 'lease', 'status'] as const;
export type HeartbeatKeyKind = (typeof HEARTBEAT_KEY_KINDS)[number];

const REGISTER_BACKOFF = { initialMs: 100, maxMs: 7_000 };
const LEASE_BACKOFF = { initialMs: 200, maxMs: 7_000 };

function backoff(failures: number, b: { initialMs: number; maxMs: number }): number {
  return Math.min(b.maxMs, b.initialMs * 2 ** Math.min(failures - 1, 20));
}

/**
 * Registration, lease renewal and status posting of every simulated node, all through one shared
 * DueQueue: each node has a fixed slot within the renew period (node i of N at i/N of it), so lease
 * writes are spread evenly whatever the registration order, and status is computed every
 * --node-status-update-frequency but posted only on change or every --node-status-report-frequency.
 */
export class NodeHeartbeats {
  private readonly states = new Map<string, NodeState>();
  private readonly renewIntervalMs: number;
  private origin = 0;
  /** Successful writes, for metrics and the bench. */
  readonly counts = { registered: 0, leaseWrites: 0, statusWrites: 0, failures: 0 };

  constructor(private readonly opts: NodeHeartbeatsOptions) {
    this.renewIntervalMs = (opts.leaseDurationSeconds * 1000) / 4;
    for (const spec of opts.nodes) {
      this.states.set(spec.name, {
        spec,
        lastReportAt: -Infinity,
        registerFailures: 0,
        leaseFailures: 0,
        readyReported: false,
      });
    }
  }

  /** The names of the nodes this agent runs. */
  get nodeNames(): string[] {
    return [...this.states.keys()];
  }

  has(nodeName: string): boolean {
    return this.states.has(nodeName);
  }

  spec(nodeName: string): SimulatedNode | undefined {
    return this.states.get(nodeName)?.spec;
  }

  /** Whether every node is registered. */
  allRegistered(): boolean {
    return this.counts.registered >= this.states.size;
  }

  /** Posts the node's status now rather than at its next slot (it changed), once it is registered. */
  statusChanged(nodeName: string): void {
    if (this.states.get(nodeName)?.node) this.opts.queue.now(`status/${nodeName}`);
  }

  /** Queues the registration of every node. */
  start(): void {
    this.origin = this.opts.clock.now();
    for (const state of this.states.values()) {
      this.opts
        .recorderFor?.(state.spec.name)
        .event(nodeRef(state.spec.name), 'Normal', 'Starting', 'Starting kubelet.');
      this.opts.queue.now(`register/${state.spec.name}`);
    }
  }

  /** Runs one unit of work of the given kind for a node. */
  async handle(kind: HeartbeatKeyKind, name: string): Promise<void> {
    const state = this.states.get(name);
    if (!state) return;
    switch (kind) {
      case 'register':
        return this.register(state);
      case 'lease':
        return this.renewLease(state);
      case 'status':
        return this.reportStatus(state);
    }
  }

  /** The next slot of a node for a job with the given period (node i of N at i/N of it). */
  private nextSlot(state: NodeState, periodMs: number): number {
    return nextSlot(this.origin, state.spec.index, this.states.size, periodMs, this.opts.clock.now());
  }

  private async register(state: NodeState): Promise<void> {
    const { nodeClient, queue, clock, logger } = this.opts;
    const name = state.spec.name;
    try {
      let node: Node;
      const initial = this.currentStatus(state, clock.now());
      try {
        // The status goes with the create, as the kubelet sends it; a server that drops status on
        // create gets it through nodes/status below.
        node = await nodeClient.create({ ...nodeObject(state.spec), status: initial });
        logger.v(2).info(`Successfully registered node ${name}`);
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
        const existing = await nodeClient.get(name);
        const wanted = reconcileNode(existing, state.spec);
        node =
          JSON.stringify(wanted) === JSON.stringify(existing) ? existing : await nodeClient.update(wanted);
        logger.v(2).info(`Node ${name} was previously registered`);
      }
      state.node = node;
      state.conditions = node.status?.conditions;
      if (node.status && statusWithoutHeartbeats(node.status) === statusWithoutHeartbeats(initial)) {
        this.reported(state, node, initial, clock.now());
      } else {
        await this.postStatus(state);
      }
      this.opts
        .recorderFor?.(name)
        .event(
          nodeRef(name),
          'Normal',
          'RegisteredNode',
          `Node ${name} event: Registered Node ${name} in Controller`,
        );
      state.registerFailures = 0;
      this.counts.registered++;
      // The lease right away, as the kubelet's lease controller starts with registration.
      await this.renewLease(state);
      queue.schedule(`status/${name}`, this.nextSlot(state, this.opts.statusUpdateFrequencyMs));
    } catch (err) {
      this.counts.failures++;
      state.registerFailures++;
      logger.error(`Unable to register node ${name} with API server: ${errorMessage(err)}`);
      queue.schedule(`register/${name}`, clock.now() + backoff(state.registerFailures, REGISTER_BACKOFF));
    }
  }

  private async renewLease(state: NodeState): Promise<void> {
    const { leaseClient, queue, clock, leaseDurationSeconds, logger } = this.opts;
    const name = state.spec.name;
    const wanted = nodeLease(state.spec, leaseDurationSeconds, clock.now(), state.node);
    try {
      if (!state.lease) {
        try {
          const existing = await leaseClient.get(name);
          state.lease = {
            ...existing,
            metadata: { ...existing.metadata, ...withOwner(wanted) },
            spec: wanted.spec,
          };
          state.lease = await leaseClient.update(state.lease);
        } catch (err) {
          if (!isNotFound(err)) throw err;
          state.lease = await leaseClient.create(wanted);
        }
      } else {
        state.lease = await leaseClient.update({ ...state.lease, spec: wanted.spec });
      }
      state.leaseFailures = 0;
      this.counts.leaseWrites++;
      queue.schedule(`lease/${name}`, this.nextSlot(state, this.renewIntervalMs));
    } catch (err) {
      this.counts.failures++;
      state.lease = undefined;
      if (isConflict(err)) {
        queue.now(`lease/${name}`);
        return;
      }
      state.leaseFailures++;
      logger.v(2).info(`failed to update lease of node ${name}: ${errorMessage(err)}`);
      const retry = Math.min(backoff(state.leaseFailures, LEASE_BACKOFF), this.renewIntervalMs);
      queue.schedule(`lease/${name}`, clock.now() + retry);
    }
  }

  private async reportStatus(state: NodeState): Promise<void> {
    const { queue, clock, logger } = this.opts;
    const name = state.spec.name;
    const now = clock.now();
    try {
      const status = this.currentStatus(state, now);
      const changed = statusWithoutHeartbeats(status) !== state.statusKey;
      if (changed || now - state.lastReportAt >= this.opts.statusReportFrequencyMs)
        await this.postStatus(state);
    } catch (err) {
      this.counts.failures++;
      logger.v(2).info(`Error updating node status of ${name}, will retry: ${errorMessage(err)}`);
    }
    queue.schedule(`status/${name}`, this.nextSlot(state, this.opts.statusUpdateFrequencyMs));
  }

  private async postStatus(state: NodeState): Promise<void> {
    const now = this.opts.clock.now();
    const status = this.currentStatus(state, now);
    // With an external cloud provider the addresses are the cloud controller manager's once registered.
    const { addresses: _addresses, ...withoutAddresses } = status;
    const posted = state.spec.externalCloudProvider ? withoutAddresses : status;
    const node = await this.opts.nodeClient.patch(
      state.spec.name,
      'strategic',
      // no volume in use: null takes the list out of the node's status
      { status: status.volumesInUse ? posted : { ...posted, volumesInUse: null } },
      { subresource: 'status' },
    );
    this.counts.statusWrites++;
    this.reported(state, node, status, now);
    this.opts.onStatusPosted?.(node);
  }

  /** The node's status at `now`, with its images and the volumes its pods use. */
  private currentStatus(state: NodeState, now: number): NonNullable<Node['status']> {
    let status = nodeStatus(state.spec, now, state.conditions);
    const images = this.opts.images?.(state.spec.name) ?? [];
    if (images.length > 0) status = { ...status, images: [...images] };
    const inUse = this.opts.volumesInUse?.(state.spec.name) ?? [];
    return inUse.length > 0 ? { ...status, volumesInUse: [...inUse] } : status;
  }

  /** Notes a status the API now holds; the first one makes the node's NodeReady event. */
  private reported(state: NodeState, node: Node, status: NonNullable<Node['status']>, now: number): void {
    state.node = node;
    state.conditions = status.conditions;
    state.statusKey = statusWithoutHeartbeats(status);
    state.lastReportAt = now;
    if (!state.readyReported) {
      state.readyReported = true;
      const name = state.spec.name;
      this.opts
        .recorderFor?.(name)
        .event(nodeRef(name), 'Normal', 'NodeReady', `Node ${name} status is now: NodeReady`);
    }
  }
}

/** The kubelet's reference to its node in events: kind Node, uid = name. */
export function nodeRef(name: string): { kind: string; name: string; uid: string } {
  return { kind: 'Node', name, uid: name };
}

function withOwner(lease: Lease): Partial<NonNullable<Lease['metadata']>> {
  return lease.metadata?.ownerReferences ? { ownerReferences: lease.metadata.ownerReferences } : {};
}
