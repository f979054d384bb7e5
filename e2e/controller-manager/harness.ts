import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { formatTime, PodKind, type Pod } from '@orch/api';
import { eventually, startTestAPIServer, type TestAPIServer } from '@orch/apiserver';
import {
  clientFor,
  loadKubeconfigFile,
  restConfigFromKubeconfig,
  RestClient,
  SharedInformerFactory,
  type KubeObject,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { MemoryEventRecorder } from '@orch/component-base';
import { ControllerManager, type ControllerManagerOptions } from '@orch/controller-manager';

const run = promisify(execFile);

/** A test cluster: a real apiserver, the controllers in-process and a fake kubelet. */
export interface Cluster {
  api: TestAPIServer;
  rest: RestClient;
  manager: ControllerManager;
  /** Moves the controllers' clock forward. */
  advance(ms: number): void;
  kubectl(...args: string[]): Promise<string>;
  /** Pods the fake kubelet leaves alone (stay Pending) while true. */
  pauseKubelet(paused: boolean): void;
  close(): Promise<void>;
}

/** Run-to-completion pods with this annotation fail instead of succeeding. */
export const FAIL_ANNOTATION = 'e2e.orch.io/fail';

/** The status the fake kubelet writes for a pod: Running and Ready, or Succeeded for run-to-completion pods. */
export function kubeletStatus(pod: Pod, now: number): Record<string, unknown> {
  const t = formatTime(now);
  const names = (pod.spec?.containers ?? []).map((c) => c.name);
  if (pod.spec?.restartPolicy === 'Never' || pod.spec?.restartPolicy === 'OnFailure') {
    const fail = pod.metadata?.annotations?.[FAIL_ANNOTATION] === 'true';
    return {
      phase: fail ? 'Failed' : 'Succeeded',
      conditions: [
        { type: 'Initialized', status: 'True', lastTransitionTime: t },
        { type: 'Ready', status: 'False', reason: 'PodCompleted', lastTransitionTime: t },
        { type: 'PodScheduled', status: 'True', lastTransitionTime: t },
      ],
      containerStatuses: names.map((name) => ({
        name,
        ready: false,
        restartCount: 0,
        image: 'busybox',
        imageID: '',
        state: {
          terminated: {
            exitCode: fail ? 1 : 0,
            reason: fail ? 'Error' : 'Completed',
            startedAt: t,
            finishedAt: t,
          },
        },
      })),
    };
  }
  return {
    phase: 'Running',
    podIP: '10.0.0.1',
    startTime: t,
    conditions: [
      { type: 'Initialized', status: 'True', lastTransitionTime: t },
      { type: 'Ready', status: 'True', lastTransitionTime: t },
      { type: 'ContainersReady', status: 'True', lastTransitionTime: t },
      { type: 'PodScheduled', status: 'True', lastTransitionTime: t },
    ],
    containerStatuses: names.map((name) => ({
      name,
      ready: true,
      started: true,
      restartCount: 0,
      image: 'nginx',
      imageID: '',
      state: { running: { startedAt: t } },
    })),
  };
}

export async function startCluster(
  overrides: Partial<ControllerManagerOptions> = {},
  /** The apiserver's admission plugins; none unless a test asks for some. */
  admissionPlugins: string[] = [],
): Promise<Cluster> {
  // The controllers' feature gates are the apiserver's too, as a cluster's daemons share theirs.
  const api = await startTestAPIServer({
    admissionPlugins,
    ...(overrides.featureGates ? { featureGates: overrides.featureGates } : {}),
  });
  const { config } = restConfigFromKubeconfig(loadKubeconfigFile(api.kubeconfig));
  const rest = new RestClient({ ...config, qps: -1 });
  let offset = 0;
  const now = (): number => Date.now() + offset;
  const informers = new SharedInformerFactory(rest, {});
  const manager = new ControllerManager({
    // The fake kubelet posts no node status: node lifecycle, which would mark every test node
    // Unknown once a test moves the clock, runs where a test asks for it.
    controllers: ['*', '-nodelifecycle'],
    informers,
    clientFor: async () => rest,
    recorderFor: () => new MemoryEventRecorder(),
    workers: () => 5,
    logger: {
      info: () => {},
      warning: () => {},
      error: (m) => (process.env.E2E_LOG ? process.stderr.write(m + '\n') : undefined),
    },
    now,
    ...overrides,
  });
  await manager.start();

  // The fake kubelet.
  let paused = false;
  const kubeletInformers = new SharedInformerFactory(rest, {});
  const podInformer: SharedIndexInformer<Pod> = kubeletInformers.informerFor<Pod>({
    group: '',
    version: 'v1',
    resource: 'pods',
    namespaced: true,
  });
  const pods = clientFor(rest, PodKind);
  const pending = new Set<string>();
  const handle = (pod: Pod): void => {
    const key = `${pod.metadata?.namespace}/${pod.metadata?.name}`;
    if (
      paused ||
      pod.metadata?.deletionTimestamp ||
      pod.status?.phase === 'Running' ||
      pod.status?.phase === 'Succeeded'
    )
      return;
    if (pending.has(key)) return;
    pending.add(key);
    setTimeout(() => {
      pods
        .patch(
          pod.metadata?.name ?? '',
          'merge',
          { status: kubeletStatus(pod, Date.now()) },
          {
            namespace: pod.metadata?.namespace,
            subresource: 'status',
          },
        )
        .catch(() => undefined)
        .finally(() => pending.delete(key));
    }, 20);
  };
  podInformer.addEventHandler({ onAdd: handle, onUpdate: (_o, p) => handle(p) });
  kubeletInformers.start();

  return {
    api,
    rest,
    manager,
    advance: (ms) => {
      offset += ms;
    },
    kubectl: async (...args) => {
      const { stdout } = await run('kubectl', ['--kubeconfig', api.kubeconfig, ...args], { timeout: 30_000 });
      return stdout;
    },
    pauseKubelet: (p) => {
      paused = p;
      if (!p) for (const pod of podInformer.lister().list()) handle(pod);
    },
    close: async () => {
      await kubeletInformers.shutdown();
      await manager.stop();
      rest.close();
      await api.close();
    },
  };
}

/**
 * A pod in `default` on node-a with one container (port 8080, named http), running with `ip` and
 * ready or not, as a kubelet would report it (for tests that pause the fake kubelet).
 */
export async function runningPod(
  cluster: Cluster,
  name: string,
  labels: Record<string, string>,
  ip: string,
  ready = true,
): Promise<void> {
  await clientFor(cluster.rest, PodKind).create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels },
    spec: {
      nodeName: 'node-a',
      containers: [{ name: 'app', image: 'nginx', ports: [{ name: 'http', containerPort: 8080 }] }],
    },
  } as Pod);
  await setPodStatus(cluster, name, ip, ready);
}

/** The status of pod `name` in `default`: running with `ip`, ready or not. */
export async function setPodStatus(
  cluster: Cluster,
  name: string,
  ip: string,
  ready: boolean,
): Promise<void> {
  await clientFor(cluster.rest, PodKind).patch(
    name,
    'merge',
    {
      status: {
        phase: 'Running',
        podIP: ip,
        podIPs: [{ ip }],
        conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
      },
    },
    { namespace: 'default', subresource: 'status' },
  );
}

/**
 * The object `name` in `default` once its status reports `expected` (each value compared as JSON)
 * for the object's current generation.
 */
export function statusReaching<T extends KubeObject & { status?: object }>(
  client: TypedClient<T>,
  name: string,
  expected: Partial<NonNullable<T['status']>>,
  timeoutMs = 45_000,
): Promise<T> {
  return eventually(
    async () => {
      const obj = await client.get(name, { namespace: 'default' });
      const status = (obj.status ?? {}) as Record<string, unknown>;
      const reached =
        status.observedGeneration === obj.metadata?.generation &&
        Object.entries(expected).every(([k, v]) => JSON.stringify(status[k]) === JSON.stringify(v));
      return reached ? obj : undefined;
    },
    `${name} to reach ${JSON.stringify(expected)}`,
    timeoutMs,
  );
}
