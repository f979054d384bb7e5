import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureClusterPKI, type ClusterPKI } from '@orch/component-base';
import { daemonBin, keepLogs, startDaemon, waitHTTPS, type DaemonProcess } from './daemon-process';
import { freePort } from '../storage/testing/free-port';
import { apiserverNodeOptions } from '../server/node-options';

export interface APIServerProcess {
  url: string;
  port: number;
  dataDir: string;
  pki: ClusterPKI;
  /** The admin kubeconfig (system:masters) for kubectl. */
  kubeconfig: string;
  process: DaemonProcess;
  /** Stops the process and keeps the data directory (a restart finds the same state). */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the binary again on the same port and data, stopping it first if it still runs. */
  restart(): Promise<void>;
  /** Stops and removes the data directory. */
  destroy(): Promise<void>;
}

export interface APIServerProcessOptions {
  /** etcd client URLs; the embedded store when omitted. */
  etcdServers?: string[];
  args?: string[];
  dataDir?: string;
}

/**
 * orch-apiserver as its own process on a random loopback port, over HTTPS with a cluster PKI, run
 * with the node options of a deployed apiserver.
 */
export async function startAPIServerProcess(
  options: APIServerProcessOptions = {},
): Promise<APIServerProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'orch-e2e-'));
  const port = await freePort();
  const url = `https://127.0.0.1:${port}`;
  const pki = ensureClusterPKI(dataDir, url);
  const args = [
    `--secure-port=${port}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--tls-cert-file=${pki.files.apiserverCert}`,
    `--tls-private-key-file=${pki.files.apiserverKey}`,
    `--client-ca-file=${pki.files.caCert}`,
    `--service-account-key-file=${pki.files.serviceAccountPublicKey}`,
    `--service-account-signing-key-file=${pki.files.serviceAccountKey}`,
    '--service-account-issuer=https://orch.default.svc',
    '--authorization-mode=RBAC',
    ...(options.etcdServers
      ? ['--storage-backend=etcd3', `--etcd-servers=${options.etcdServers.join(',')}`]
      : ['--storage-backend=embedded', `--embedded-storage-dir=${join(dataDir, 'data')}`]),
    ...(options.args ?? []),
  ];
  const tls = { ca: pki.ca, cert: pki.admin.cert, key: pki.admin.key };
  const launch = async (): Promise<DaemonProcess> => {
    const p = startDaemon(
      'orch-apiserver',
      daemonBin('apiserver', 'orch-apiserver'),
      args,
      join(dataDir, 'logs'),
      apiserverNodeOptions,
    );
    await waitHTTPS(`${url}/readyz`, tls, 30_000, () => p.child.exitCode === null);
    return p;
  };
  const handle: APIServerProcess = {
    url,
    port,
    dataDir,
    pki,
    kubeconfig: pki.kubeconfigs.admin!,
    process: await launch(),
    async stop(signal = 'SIGTERM') {
      await handle.process.stop(signal);
    },
    async restart() {
      await handle.process.stop();
      handle.process = await launch();
    },
    async destroy() {
      await handle.process.stop();
      keepLogs(join(dataDir, 'logs'));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return handle;
}
