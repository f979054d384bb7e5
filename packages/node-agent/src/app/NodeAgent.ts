import { randomUUID } from 'node:crypto';
import { hostname, networkInterfaces } from 'node:os';
import {
  ConfigMapKind,
  LeaseKind,
  NodeKind,
  PersistentVolumeClaimKind,
  PodKind,
  SecretKind,
  ServiceKind,
  type Pod,
} from '@orch/api';
import {
  clientFor,
  DeletedFinalStateUnknown,
  EventBroadcaster,
  isNotFound,
  eventSinkFor,
  SharedInformerFactory,
  type EventRecorder,
  type RestClient,
} from '@orch/client';
import { errorMessage, type Logger } from '@orch/component-base';
import { NODE_LEASE_NAMESPACE, simulatedNode } from '../node/nodeObjects';
import { NodeHeartbeats, type HeartbeatKeyKind } from '../node/NodeHeartbeats';
import { PodRuntime } from '../runtime/PodRuntime';
import type { PodRunner } from '../runtime/PodRunner';
import type { EnvSources } from '../runtime/process/buildEnv';
import { hostSystem } from '../runtime/process/hostSystem';
import { ProcessPodRuntime } from '../runtime/process/ProcessPodRuntime';
import { SummaryProvider } from '../stats/SummaryProvider';
import { lazyServices } from '../runtime/process/serviceSource';
import { realClock, type Clock } from '../scheduling/Clock';
import { DueQueue } from '../scheduling/DueQueue';
import { claimCachesFrom } from '../volume/claimCaches';
import { VOLUME_KEY_KIND, VolumeManager } from '../volume/VolumeManager';
import { nodeNames, type NodeAgentConfiguration } from './nodeAgentConfig';

export interface NodeAgentOptions {
  rest: RestClient;
  config: NodeAgentConfiguration;
  logger: Logger;
  /** Reported as the nodes' kubeletVersion. */
  version: string;
  clock?: Clock;
  /** Record events (default true). */
  events?: boolean;
}

/**
 * N simulated nodes in one process: their registration, leases and status (NodeHeartbeats) and the
 * pods bound to them (PodRuntime, fed by one cluster-wide pod informer filtered to the agent's
 * nodes), all driven by one DueQueue with a bounded pool of writers.
 */
export class NodeAgent {
  readonly heartbeats: NodeHeartbeats;
  readonly runtime: PodRunner;
  /** The resource usage of the nodes and their pods (the Summary API). */
  readonly stats: SummaryProvider;
  readonly queue: DueQueue;
  readonly volumes: VolumeManager;
  private readonly factory: SharedInformerFactory;
  private readonly broadcaster: EventBroadcaster | undefined;

  constructor(private readonly opts: NodeAgentOptions) {
    const { rest, config, logger } = opts;
    const clock = opts.clock ?? realClock;
    const bootID = randomUUID();
    const nodes = nodeNames(config).map((name, index) =>
      simulatedNode(name, index, {
        labels: config.nodeLabels,
        taints: config.registerWithTaints,
        capacity: config.capacity,
        reserved: config.reserved,
        version: opts.version,
        bootID,
        externalCloudProvider: config.externalCloudProvider,
        nodeIP: config.nodeIP,
        kubeletPort: config.server.port,
        // the process runtime's containers run on this host: the nodes report where it is reached;
        // simulated nodes report --node-ip when it is given, so that the apiserver reaches their server
        ...(config.podRuntime === 'process'
          ? { host: { ip: hostIP(config.nodeIP), hostname: hostname() }, system: hostSystem() }
          : config.nodeIP !== ''
            ? { host: { ip: config.nodeIP } }
            : {}),
      }),
    );
    this.broadcaster =
      opts.events === false
        ? undefined
        : new EventBroadcaster(eventSinkFor(rest), {
            onError: (message) => logger.v(2).info(`Unable to write event: ${message}`),
          });
    const recorders = new Map<string, EventRecorder>();
    const broadcaster = this.broadcaster;
    const recorderFor = broadcaster
      ? (nodeName: string): EventRecorder => {
          let r = recorders.get(nodeName);
          if (!r) {
            r = broadcaster.newRecorder({ component: 'kubelet', host: nodeName });
            recorders.set(nodeName, r);
          }
          return r;
        }
      : undefined;
    this.queue = new DueQueue({
      clock,
      concurrency: config.writers,
      handler: (key) => this.route(key),
      onError: (key, err) => logger.error(`work item ${key} failed: ${errorMessage(err)}`),
    });
    this.heartbeats = new NodeHeartbeats({
      nodes,
      nodeClient: clientFor(rest, NodeKind),
      leaseClient: clientFor(rest, LeaseKind, { namespace: NODE_LEASE_NAMESPACE }),
      queue: this.queue,
      clock,
      leaseDurationSeconds: config.nodeLeaseDurationSeconds,
      statusUpdateFrequencyMs: config.nodeStatusUpdateFrequencyMs,
      statusReportFrequencyMs: config.nodeStatusReportFrequencyMs,
      logger,
      volumesInUse: (name) => this.volumes.volumesInUse(name),
      images: (name) => this.runtime.nodeImages?.(name) ?? [],
      onStatusPosted: (node) => this.volumes.nodeStatusPosted(node),
      ...(recorderFor ? { recorderFor } : {}),
    });
    this.volumes = new VolumeManager({
      caches: (changed) => claimCachesFrom(this.factory, changed),
      nodeClient: clientFor(rest, NodeKind),
      claimClient: clientFor(rest, PersistentVolumeClaimKind),
      queue: this.queue,
      clock,
      isAgentNode: (name) => this.heartbeats.has(name),
      inUseChanged: (name) => this.heartbeats.statusChanged(name),
      logger,
      ...(recorderFor ? { recorderFor } : {}),
    });
    const byName = new Map(nodes.map((n) => [n.name, n]));
    const common = {
      podClient: clientFor(rest, PodKind),
      queue: this.queue,
      clock,
      nodeFor: (name: string) => byName.get(name),
      volumes: this.volumes,
      logger,
      ...(recorderFor ? { recorderFor } : {}),
    };
    this.runtime =
      config.podRuntime === 'process'
        ? new ProcessPodRuntime({
            ...common,
            envSources: {
              ...envSources(rest),
              services: lazyServices(() => this.factory.informerFor(ServiceKind)),
            },
            rootDir: config.rootDir,
          })
        : new PodRuntime({
            ...common,
            startLatencyMs: config.podStartLatencyMs,
            runDurationMs: config.podRunDurationMs,
          });
    this.stats = new SummaryProvider({
      nodes,
      usage: (name, now) => this.runtime.resourceUsage(name, now),
      clock,
    });
    this.factory = new SharedInformerFactory(rest, {
      onHandlerError: (err) => logger.error(`pod event handler failed: ${errorMessage(err)}`),
    });
  }

  /** The pods bound to the agent's nodes, as its pod informer holds them (the kubelet's /pods). */
  pods(): Pod[] {
    return this.factory
      .informerFor<Pod>(PodKind)
      .lister()
      .list()
      .filter((p) => this.heartbeats.has(p.spec?.nodeName ?? ''));
  }

  /** Writes per second the heartbeats need at steady state (lease renewals plus status reports). */
  steadyWriteRate(): number {
    const { nodes, nodeLeaseDurationSeconds, nodeStatusReportFrequencyMs } = this.opts.config;
    return (nodes * 4) / nodeLeaseDurationSeconds + (nodes * 1000) / nodeStatusReportFrequencyMs;
  }

  /** Starts registration, heartbeats and the pod informer; resolves once the pod cache has synced. */
  async start(): Promise<void> {
    const { config, logger } = this.opts;
    const rate = this.steadyWriteRate();
    if (config.clientConnection.qps > 0 && rate > config.clientConnection.qps) {
      logger.warning(
        `${config.nodes} nodes need about ${rate.toFixed(0)} writes/s to keep their leases, more than --orch-api-qps=${config.clientConnection.qps}; leases may expire`,
      );
    }
    const informer = this.factory.informerFor<Pod>(PodKind);
    informer.addEventHandler({
      onAdd: (pod) => {
        this.volumes.onPod(pod);
        this.runtime.onPod(pod);
      },
      onUpdate: (_old, pod) => {
        this.volumes.onPod(pod);
        this.runtime.onPod(pod);
      },
      onDelete: (obj) => {
        const pod = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
        if (!pod) return;
        this.volumes.onPodDeleted(pod);
        this.runtime.onPodDeleted(pod);
      },
    });
    this.heartbeats.start();
    this.factory.start();
    await this.factory.waitForCacheSync();
    logger.info(`Running ${config.nodes} simulated node(s), pods ${config.podRuntime}; pod cache synced`);
  }

  /** Stops heartbeats and pods (the Nodes stay registered, as the kubelet leaves them). */
  async stop(): Promise<void> {
    await this.queue.stop();
    await this.runtime.shutdown();
    await this.factory.shutdown();
    await this.broadcaster?.shutdown();
  }

  private route(key: string): Promise<void> {
    const slash = key.indexOf('/');
    const kind = key.slice(0, slash);
    const rest = key.slice(slash + 1);
    if (kind === 'pod') return this.runtime.handle(rest);
    if (kind === VOLUME_KEY_KIND) return this.volumes.handle(rest);
    return this.heartbeats.handle(kind as HeartbeatKeyKind, rest);
  }
}

/** --node-ip, else the first non-loopback IPv4 address of this host (as the kubelet picks), else 127.0.0.1. */
function hostIP(nodeIP: string): string {
  if (nodeIP !== '') return nodeIP;
  return (
    Object.values(networkInterfaces())
      .flat()
      .find((a) => a && !a.internal && a.family === 'IPv4')?.address ?? '127.0.0.1'
  );
}

/** ConfigMaps and Secrets read through the API, as the kubelet reads them for env. */
function envSources(rest: RestClient): EnvSources {
  const orUndefined = <T>(p: Promise<T>): Promise<T | undefined> =>
    p.catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
  return {
    configMap: (namespace, name) => orUndefined(clientFor(rest, ConfigMapKind, { namespace }).get(name)),
    secret: (namespace, name) => orUndefined(clientFor(rest, SecretKind, { namespace }).get(name)),
  };
}
