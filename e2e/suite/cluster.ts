import { join } from 'node:path';
import {
  EtcdCluster,
  daemonBin,
  freePort,
  startAPIServerProcess,
  startDaemon,
  type APIServerProcess,
  type DaemonProcess,
} from '@orch/apiserver';
import { loopbackDaemonArgs } from '@orch/component-base';

/** Leader election timings short enough for a test to watch a takeover. */
export const leaderElection = { leaseSeconds: 4, renewSeconds: 3, retrySeconds: 0.5 };

export interface SuiteCluster {
  api: APIServerProcess;
  etcd?: EtcdCluster;
  daemons: DaemonProcess[];
  /** Starts one more replica of a leader-elected daemon. */
  startReplica(kind: 'scheduler' | 'controller-manager'): Promise<DaemonProcess>;
  stop(): Promise<void>;
}

/**
 * The whole suite, every daemon its own process over HTTPS with its own credentials: orch-apiserver
 * (embedded store, or a 3-member etcd cluster), the controller manager, the scheduler and a node agent
 * with `nodes` simulated nodes.
 */
export async function startSuite(options: { etcd?: boolean; nodes?: number } = {}): Promise<SuiteCluster> {
  const etcd = options.etcd ? await EtcdCluster.start({ members: 3 }) : undefined;
  const api = await startAPIServerProcess(etcd ? { etcdServers: etcd.members.map((m) => m.clientUrl) } : {});
  const logs = join(api.dataDir, 'logs');
  const le = [
    `--leader-elect-lease-duration=${leaderElection.leaseSeconds}s`,
    `--leader-elect-renew-deadline=${leaderElection.renewSeconds}s`,
    `--leader-elect-retry-period=${leaderElection.retrySeconds * 1000}ms`,
  ];
  let replicas = 0;
  const startReplica = async (kind: 'scheduler' | 'controller-manager'): Promise<DaemonProcess> => {
    const kubeconfig = api.pki.kubeconfigs[kind]!;
    const port = await freePort();
    const name = `orch-${kind}-${replicas++}`;
    return startDaemon(
      name,
      daemonBin(kind, `orch-${kind}`),
      [
        ...loopbackDaemonArgs(kubeconfig, port, join(api.dataDir, 'pki', name)),
        ...le,
        // each controller acts as its own service account, bound to its own role, as kubeadm runs them
        ...(kind === 'controller-manager'
          ? [
              '--use-service-account-credentials',
              // claims of a kubernetes.io/host-path class get volumes, as under npm start
              '--enable-hostpath-provisioner',
              // token secrets get tokens the apiserver verifies with the public half of this key
              `--service-account-private-key-file=${api.pki.files.serviceAccountKey}`,
              `--root-ca-file=${api.pki.files.caCert}`,
            ]
          : // the scheduler's deprecated plain-HTTP port (default 10251) stays closed: replicas share the host
            ['--port=0']),
      ],
      logs,
    );
  };
  const daemons = [
    await startReplica('controller-manager'),
    await startReplica('scheduler'),
    startDaemon(
      'orch-node-agent',
      daemonBin('node-agent', 'orch-node-agent'),
      [
        `--kubeconfig=${api.pki.kubeconfigs['node-agent']}`,
        `--nodes=${options.nodes ?? 3}`,
        '--pod-run-duration=2s',
      ],
      logs,
    ),
  ];
  return {
    api,
    etcd,
    daemons,
    startReplica: async (kind) => {
      const d = await startReplica(kind);
      daemons.push(d);
      return d;
    },
    async stop() {
      await Promise.all(daemons.map((d) => d.stop()));
      await api.destroy();
      await etcd?.stop();
    },
  };
}
