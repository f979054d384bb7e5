import { EventKind, NodeKind, PodKind, type Node, type Pod } from '@orch/api';
import { eventually, startTestAPIServer, type TestAPIServer } from '@orch/apiserver';
import { buildConfigFromFlags, clientFor, RestClient, type TypedClient } from '@orch/client';
import { DEFAULT_FEATURE_GATES, FeatureGate } from '@orch/component-base';
import { schedulerDaemon } from '@orch/scheduler';
import { runInProcessDaemon, type InProcessDaemon } from '../harness/inProcessDaemon';

/** The label every test node carries with its own name, the topology key of per-node spreading. */
export const HOSTNAME = 'kubernetes.io/hostname';

/** The nodes of a scheduler cluster. */
export const NODES = ['node-1', 'node-2', 'node-3'];

/** A Ready node with 4 CPUs, 8Gi of memory and room for 110 pods, labelled with its hostname. */
export function node(name: string): Node {
  const resources = { cpu: '4', memory: '8Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { [HOSTNAME]: name } },
    status: { capacity: resources, allocatable: resources, conditions: [{ type: 'Ready', status: 'True' }] },
  } as Node;
}

/** A pod in `default` with one container requesting `requests`, the rest of its spec from `spec`. */
export function newPod(
  name: string,
  requests: Record<string, string>,
  spec: Partial<NonNullable<Pod['spec']>> = {},
  labels?: Record<string, string>,
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', ...(labels ? { labels } : {}) },
    spec: {
      containers: [{ name: 'app', image: 'nginx', resources: { requests } }],
      ...spec,
    },
  } as Pod;
}

/** A test cluster for the scheduler: a real apiserver with NODES, and orch-schedulers run in-process. */
export interface SchedulerCluster {
  api: TestAPIServer;
  rest: RestClient;
  /** Pods in `default`. */
  pods: TypedClient<Pod>;
  /**
   * Starts orch-scheduler against the apiserver (no secure port, no leader election unless `argv`
   * says otherwise: later flags win), without waiting for it; close stops it.
   */
  runScheduler(argv?: string[]): InProcessDaemon;
  /** Starts orch-scheduler as runScheduler does and waits until its caches synced. */
  startScheduler(argv?: string[]): Promise<InProcessDaemon>;
  /** What the schedulers wrote, in the order they were started. */
  log(): string;
  /** Stops the schedulers and the apiserver. */
  close(): Promise<void>;
}

/** Resolves once `scheduler` logged that its caches synced. */
export function cachesSynced(scheduler: InProcessDaemon): Promise<true> {
  return eventually(
    async () => (scheduler.out.some((l) => l.includes('Caches synced')) ? true : undefined),
    'startup',
  );
}

export interface SchedulerClusterOptions {
  /** The apiserver's admission plugins; none unless a test asks for some. */
  admissionPlugins?: string[];
  /** Feature gates set over the defaults, for the apiserver and every scheduler alike. */
  featureGates?: Record<string, boolean>;
}

/**
 * Starts an apiserver and registers NODES on it, their status written through nodes/status as a
 * node agent's is.
 */
export async function startSchedulerCluster(
  options: SchedulerClusterOptions = {},
): Promise<SchedulerCluster> {
  const gates = options.featureGates ?? {};
  const featureGates = new FeatureGate(DEFAULT_FEATURE_GATES);
  const errors = featureGates.set(gates);
  if (errors.length > 0) throw new Error(errors.join('; '));
  const gateFlags = Object.entries(gates).map(([name, on]) => `${name}=${on}`);
  const api = await startTestAPIServer({ admissionPlugins: options.admissionPlugins ?? [], featureGates });
  const rest = new RestClient(buildConfigFromFlags({ kubeconfig: api.kubeconfig }).config);
  const nodes = clientFor(rest, NodeKind);
  for (const n of NODES) {
    // Status is reset on create, as in Kubernetes; the node agent reports it through nodes/status.
    const created = await nodes.create(node(n));
    await nodes.updateStatus({ ...created, status: node(n).status });
  }
  const running: InProcessDaemon[] = [];
  const runScheduler = (argv: string[] = []): InProcessDaemon => {
    const daemon = runInProcessDaemon(schedulerDaemon(), [
      `--kubeconfig=${api.kubeconfig}`,
      '--secure-port=0',
      '--port=0',
      '--leader-elect=false',
      '-v=2',
      ...(gateFlags.length > 0 ? [`--feature-gates=${gateFlags.join(',')}`] : []),
      ...argv,
    ]);
    // runDaemon listens for signals once the daemon runs: stop only after the caches synced.
    const scheduler = {
      ...daemon,
      stop: async () => {
        await cachesSynced(daemon);
        return daemon.stop();
      },
    };
    running.push(scheduler);
    return scheduler;
  };
  const log = (): string => running.map((s) => s.out.join('')).join('');
  return {
    api,
    rest,
    pods: clientFor(rest, PodKind, { namespace: 'default' }),
    runScheduler,
    startScheduler: async (argv) => {
      const scheduler = runScheduler(argv);
      await cachesSynced(scheduler);
      return scheduler;
    },
    log,
    close: async () => {
      if (process.env.SCHED_DEBUG) console.log(log());
      try {
        await Promise.all(running.map((s) => s.stop()));
      } finally {
        rest.close();
        await api.close();
      }
    },
  };
}

/** The node pod `name` is bound to, if any. */
export async function nodeOf(cluster: SchedulerCluster, name: string): Promise<string | undefined> {
  return (await cluster.pods.get(name)).spec?.nodeName;
}

/** The nodes of pods `names`, once all are bound. */
export function bound(cluster: SchedulerCluster, names: string[]): Promise<string[]> {
  return eventually(
    async () => {
      const nodes = await Promise.all(names.map((name) => nodeOf(cluster, name)));
      return nodes.every((n) => n) ? (nodes as string[]) : undefined;
    },
    `${names.join(', ')} bound`,
  );
}

/** The PodScheduled condition of pod `name`, once it has one. */
export function podScheduled(cluster: SchedulerCluster, name: string) {
  return eventually(async () => {
    const p = await cluster.pods.get(name);
    return p.status?.conditions?.find((c) => c.type === 'PodScheduled');
  }, `the PodScheduled condition of ${name}`);
}

/** The first event in `default` with `reason` about the object `name`, once there is one. */
export function eventAbout(cluster: SchedulerCluster, reason: string, name: string) {
  const events = clientFor(cluster.rest, EventKind, { namespace: 'default' });
  return eventually(async () => {
    const list = await events.list();
    return list.items.find((e) => e.reason === reason && e.involvedObject?.name === name);
  }, `a ${reason} event about ${name}`);
}
