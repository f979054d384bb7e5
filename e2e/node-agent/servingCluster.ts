import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  daemonBin,
  eventually,
  freePort,
  startAPIServerProcess,
  startDaemon,
  type APIServerProcess,
  type DaemonProcess,
} from '@orch/apiserver';
import { kubectl, type KubectlResult } from '../harness/kubectl';

/**
 * A real apiserver process that reaches node agents as a kubelet client, and node agent processes
 * serving their HTTPS port on loopback (logs, exec, port-forward), each with one node.
 */
export interface ServingCluster {
  api: APIServerProcess;
  /** The admin kubeconfig. */
  admin: string;
  /** kubectl as the admin. */
  run(args: string[], input?: string, timeoutMs?: number): Promise<KubectlResult>;
  /**
   * Starts a node agent with one node `<prefix>-0` and the given pod runtime, serving on a free
   * loopback port with the cluster CA for clients; resolves once the node reports that port.
   */
  startAgent(prefix: string, runtime: 'process' | 'simulated', extraArgs?: string[]): Promise<AgentProcess>;
  /** Stops the agents and the apiserver and removes their directories. */
  close(): Promise<void>;
}

/** A node agent of a serving cluster: its process, --root-dir and --port. */
export interface AgentProcess extends DaemonProcess {
  root: string;
  port: number;
}

export async function startServingCluster(name: string): Promise<ServingCluster> {
  const dataDir = mkdtempSync(join(tmpdir(), `orch-e2e-${name}-`));
  const pki = join(dataDir, 'pki');
  const api = await startAPIServerProcess({
    dataDir,
    args: [
      `--kubelet-client-certificate=${join(pki, 'apiserver-kubelet-client.crt')}`,
      `--kubelet-client-key=${join(pki, 'apiserver-kubelet-client.key')}`,
      '--kubelet-preferred-address-types=InternalIP',
    ],
  });
  const admin = api.pki.kubeconfigs.admin!;
  const run = (args: string[], input?: string, timeoutMs?: number) => kubectl(admin, args, input, timeoutMs);
  // no controller manager runs: the pods' service account is made here
  await run(['create', 'serviceaccount', 'default']);
  const agents: DaemonProcess[] = [];
  const roots: string[] = [];
  return {
    api,
    admin,
    run,
    startAgent: async (prefix, runtime, extraArgs = []) => {
      const root = mkdtempSync(join(tmpdir(), `orch-e2e-${name}-${prefix}-`));
      roots.push(root);
      const port = await freePort();
      const agent = startDaemon(
        'orch-node-agent',
        daemonBin('node-agent', 'orch-node-agent'),
        [
          `--kubeconfig=${api.pki.kubeconfigs['node-agent']}`,
          '--nodes=1',
          `--node-name-prefix=${prefix}`,
          `--pod-runtime=${runtime}`,
          `--root-dir=${root}`,
          `--port=${port}`,
          '--address=127.0.0.1',
          '--node-ip=127.0.0.1',
          `--client-ca-file=${api.pki.files.caCert}`,
          ...extraArgs,
        ],
        join(dataDir, `logs-${prefix}`),
      );
      agents.push(agent);
      await eventually(async () => {
        const r = await run([
          'get',
          'node',
          `${prefix}-0`,
          '-o',
          'jsonpath={.status.daemonEndpoints.kubeletEndpoint.Port}',
        ]);
        return r.code === 0 && r.stdout === String(port) ? true : undefined;
      }, `node ${prefix}-0 to register`);
      return { ...agent, root, port };
    },
    close: async () => {
      for (const agent of agents) await agent.stop();
      await api.destroy();
      for (const root of roots) rmSync(root, { recursive: true, force: true });
    },
  };
}

/** GET http://127.0.0.1:<port><path>: the status and body, or undefined while nothing answers. */
export function httpGet(port: number, path = '/'): Promise<{ status: number; body: string } | undefined> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, timeout: 5_000 }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', () => resolve(undefined));
    });
    req.on('error', () => resolve(undefined));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}
