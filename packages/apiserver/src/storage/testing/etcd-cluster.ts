import { type ChildProcess, spawn } from 'node:child_process';
import { get, type IncomingMessage } from 'node:http';
import { get as getTLS } from 'node:https';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueCertificate } from '@orch/component-base';
import { freePort } from './free-port';

export interface EtcdMember {
  name: string;
  clientUrl: string;
  peerUrl: string;
  process: ChildProcess;
}

export interface EtcdClusterOptions {
  /** 1 or 3 members usually. Default 1. */
  members?: number;
  /** The etcd binary. Default `ETCD_BIN` or /usr/bin/etcd. */
  binary?: string;
  /** How long to wait for every member to report healthy. Default 30 s. */
  startTimeoutMs?: number;
  /**
   * Serve clients over TLS only (`https://` client URLs) and ask them for a certificate signed by
   * the cluster's own CA (`--client-cert-auth`); see {@link EtcdCluster.tls}.
   */
  tls?: boolean;
}

/** The PEM files of a TLS cluster: its CA and a client certificate it accepts. */
export interface EtcdClusterTLS {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
}

/**
 * Real etcd processes for tests: every member on random free loopback ports with its data in a
 * fresh temporary directory (under /dev/shm when present, so fsync costs nothing), tuned for quick
 * elections. `stop()` kills them and removes the data.
 */
export class EtcdCluster {
  readonly members: EtcdMember[] = [];
  /** The CA and a client certificate, when the cluster was started with `tls`. */
  tls: EtcdClusterTLS | undefined;
  private dataRoot = '';

  private constructor(private readonly binary: string) {}

  static async start(options: EtcdClusterOptions = {}): Promise<EtcdCluster> {
    const binary = options.binary ?? process.env.ETCD_BIN ?? '/usr/bin/etcd';
    // A free port found now may be taken by another process before etcd binds it: a member that
    // exits during start gets the whole cluster relaunched on new ports.
    for (let attempt = 1; ; attempt++) {
      const cluster = new EtcdCluster(binary);
      try {
        await cluster.launch(options.members ?? 1, options.startTimeoutMs ?? 30_000, options.tls ?? false);
        return cluster;
      } catch (error) {
        await cluster.stop();
        if (!(error instanceof MemberExited) || attempt >= 3) throw error;
      }
    }
  }

  /** Client URLs of the members that are running. */
  get endpoints(): string[] {
    return this.members.filter((m) => isRunning(m.process)).map((m) => m.clientUrl);
  }

  /** Index of the member that is the raft leader now (from its `etcd_server_is_leader` metric). */
  async leader(): Promise<number> {
    for (let i = 0; i < this.members.length; i++) {
      if (!isRunning(this.members[i].process)) continue;
      const metrics = await httpGet(`${this.members[i].clientUrl}/metrics`, this.tls);
      if (/^etcd_server_is_leader 1$/m.test(metrics ?? '')) return i;
    }
    throw new Error('no etcd member is leader');
  }

  /** Kills one member with SIGKILL and waits for the process to be gone. */
  async kill(index: number): Promise<void> {
    const member = this.members[index];
    if (!isRunning(member.process)) return;
    const exited = new Promise((resolve) => member.process.once('exit', resolve));
    member.process.kill('SIGKILL');
    await exited;
  }

  /** Kills every member and removes the data directory. */
  async stop(): Promise<void> {
    await Promise.all(this.members.map((_, i) => this.kill(i)));
    if (this.dataRoot) rmSync(this.dataRoot, { recursive: true, force: true });
  }

  private async launch(count: number, timeoutMs: number, tls: boolean): Promise<void> {
    const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
    this.dataRoot = mkdtempSync(join(base, 'orch-etcd-'));
    const tlsFlags = tls ? this.writeTLS() : [];
    const specs: { name: string; clientUrl: string; peerUrl: string }[] = [];
    for (let i = 0; i < count; i++) {
      specs.push({
        name: `m${i}`,
        clientUrl: `${tls ? 'https' : 'http'}://127.0.0.1:${await freePort()}`,
        peerUrl: `http://127.0.0.1:${await freePort()}`,
      });
    }
    const initialCluster = specs.map((s) => `${s.name}=${s.peerUrl}`).join(',');
    for (const spec of specs) {
      const child = spawn(
        this.binary,
        [
          `--name=${spec.name}`,
          `--data-dir=${join(this.dataRoot, spec.name)}`,
          `--listen-client-urls=${spec.clientUrl}`,
          `--advertise-client-urls=${spec.clientUrl}`,
          `--listen-peer-urls=${spec.peerUrl}`,
          `--initial-advertise-peer-urls=${spec.peerUrl}`,
          `--initial-cluster=${initialCluster}`,
          '--initial-cluster-state=new',
          `--initial-cluster-token=${this.dataRoot}`,
          '--heartbeat-interval=50',
          '--election-timeout=500',
          '--snapshot-count=5000',
          '--logger=zap',
          '--log-outputs=stderr',
          '--log-level=error',
          ...tlsFlags,
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-4000);
      });
      child.once('exit', (code) => {
        if (code !== null && code !== 0)
          process.stderr.write(`etcd ${spec.name} exited ${code}: ${stderr}\n`);
      });
      this.members.push({ ...spec, process: child });
    }
    const deadline = Date.now() + timeoutMs;
    for (const member of this.members) await waitHealthy(member, deadline, this.tls);
  }

  /** A CA, a serving certificate for 127.0.0.1 and a client certificate; etcd's flags for them. */
  private writeTLS(): string[] {
    const ca = issueCertificate({ commonName: 'etcd-ca', usage: 'ca' });
    const serving = issueCertificate(
      { commonName: 'etcd', ips: ['127.0.0.1'], dnsNames: ['localhost'], usage: 'server' },
      ca,
    );
    const client = issueCertificate({ commonName: 'orch-apiserver', usage: 'client' }, ca);
    const write = (name: string, pem: string) => {
      const path = join(this.dataRoot, name);
      writeFileSync(path, pem, { mode: 0o600 });
      return path;
    };
    this.tls = { ca: Buffer.from(ca.cert), cert: Buffer.from(client.cert), key: Buffer.from(client.key) };
    return [
      `--cert-file=${write('server.crt', serving.cert)}`,
      `--key-file=${write('server.key', serving.key)}`,
      `--trusted-ca-file=${write('ca.crt', ca.cert)}`,
      '--client-cert-auth',
    ];
  }
}

/** A member process ended before it became healthy (e.g. its port was taken meanwhile). */
class MemberExited extends Error {
  constructor(name: string) {
    super(`etcd member ${name} exited during start`);
  }
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

async function waitHealthy(member: EtcdMember, deadline: number, tls?: EtcdClusterTLS): Promise<void> {
  for (;;) {
    if (!isRunning(member.process)) throw new MemberExited(member.name);
    if (await healthy(member.clientUrl, tls)) return;
    if (Date.now() > deadline) throw new Error(`etcd member ${member.name} not healthy in time`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function healthy(clientUrl: string, tls?: EtcdClusterTLS): Promise<boolean> {
  return /"health":\s*"true"/.test((await httpGet(`${clientUrl}/health`, tls)) ?? '');
}

/**
 * GET on a fresh connection (no keep-alive, so nothing lingers after the test), with the client
 * certificate over TLS; undefined on failure.
 */
function httpGet(url: string, tls?: EtcdClusterTLS): Promise<string | undefined> {
  return new Promise((resolve) => {
    const options = { agent: false as const, timeout: 1000 };
    const onResponse = (res: IncomingMessage) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve(body));
      res.on('error', () => resolve(undefined));
    };
    const req = tls
      ? getTLS(url, { ...options, ca: tls.ca, cert: tls.cert, key: tls.key }, onResponse)
      : get(url, options, onResponse);
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
  });
}
