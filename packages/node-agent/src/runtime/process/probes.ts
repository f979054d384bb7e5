import { spawn } from 'node:child_process';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import type { Container, Probe } from '@orch/api';
import type { Clock } from '../../scheduling/Clock';

export interface ProbeResult {
  success: boolean;
  /** Why it failed (the kubelet's probe output). */
  message: string;
}

/** Where a probe runs: the container's environment and directory, its ports on the loopback. */
export interface ProbeTarget {
  container: Pick<Container, 'ports'>;
  env: Record<string, string>;
  cwd: string;
  /** The host a probe without `host` connects to. */
  host: string;
}

/** Probe defaults (the API defaults them too; these cover objects that skipped defaulting). */
export const PROBE_DEFAULTS = {
  periodSeconds: 10,
  timeoutSeconds: 1,
  successThreshold: 1,
  failureThreshold: 3,
};

/** Most probe output kept in a failure message. */
const MAX_PROBE_OUTPUT = 10 * 1024;

/** A probe or hook port: a number, or the name of one of the container's ports. */
export function resolvePort(port: number | string | undefined, target: ProbeTarget): number | undefined {
  if (typeof port === 'number') return port;
  if (port === undefined) return undefined;
  if (/^\d+$/.test(port)) return Number(port);
  return target.container.ports?.find((p) => p.name === port)?.containerPort;
}

function execProbe(command: readonly string[], target: ProbeTarget, timeoutMs: number): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const [program, ...args] = command;
    let output = '';
    let timedOut = false;
    const child = spawn(program ?? '', args, {
      env: target.env,
      cwd: target.cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: Buffer) => {
      if (output.length < MAX_PROBE_OUTPUT) output += chunk.toString('utf8');
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Gone already.
        }
      }
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ success: false, message: `exec: "${program ?? ''}": ${err.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) resolve({ success: false, message: `command timed out after ${timeoutMs / 1000}s` });
      else resolve({ success: code === 0, message: output.slice(0, MAX_PROBE_OUTPUT) });
    });
  });
}

function httpProbe(
  action: NonNullable<Probe['httpGet']>,
  target: ProbeTarget,
  timeoutMs: number,
): Promise<ProbeResult> {
  const port = resolvePort(action.port as number | string | undefined, target);
  if (port === undefined)
    return Promise.resolve({ success: false, message: `unknown port ${String(action.port)}` });
  const scheme = (action.scheme ?? 'HTTP').toLowerCase();
  const host = action.host || target.host;
  const path = action.path || '/';
  const url = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}${path.startsWith('/') ? path : `/${path}`}`;
  const headers: Record<string, string> = { 'User-Agent': 'kube-probe/1.0', Accept: '*/*' };
  for (const h of action.httpHeaders ?? []) headers[h.name] = h.value;
  return new Promise((resolve) => {
    const get = scheme === 'https' ? https.get : http.get;
    const req = get(url, { headers, timeout: timeoutMs, rejectUnauthorized: false }, (res) => {
      res.resume();
      const code = res.statusCode ?? 0;
      resolve(
        code >= 200 && code < 400
          ? { success: true, message: '' }
          : { success: false, message: `HTTP probe failed with statuscode: ${code}` },
      );
    });
    req.on('timeout', () => req.destroy(new Error(`Get "${url}": context deadline exceeded`)));
    req.on('error', (err) => resolve({ success: false, message: `Get "${url}": ${err.message}` }));
  });
}

function tcpProbe(
  action: NonNullable<Probe['tcpSocket']>,
  target: ProbeTarget,
  timeoutMs: number,
): Promise<ProbeResult> {
  const port = resolvePort(action.port as number | string | undefined, target);
  if (port === undefined)
    return Promise.resolve({ success: false, message: `unknown port ${String(action.port)}` });
  const host = action.host || target.host;
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(timeoutMs);
    socket.on('connect', () => {
      socket.destroy();
      resolve({ success: true, message: '' });
    });
    socket.on('timeout', () => {
      socket.destroy();
      resolve({ success: false, message: `dial tcp ${host}:${port}: i/o timeout` });
    });
    socket.on('error', (err) =>
      resolve({ success: false, message: `dial tcp ${host}:${port}: ${err.message}` }),
    );
  });
}

/** Runs a probe's handler once. */
export function runProbe(probe: Probe, target: ProbeTarget): Promise<ProbeResult> {
  const timeoutMs = (probe.timeoutSeconds || PROBE_DEFAULTS.timeoutSeconds) * 1000;
  if (probe.exec) return execProbe(probe.exec.command ?? [], target, timeoutMs);
  if (probe.httpGet) return httpProbe(probe.httpGet, target, timeoutMs);
  if (probe.tcpSocket) return tcpProbe(probe.tcpSocket, target, timeoutMs);
  return Promise.resolve({ success: false, message: 'probe handler not supported by the process runtime' });
}

export type ProbeKind = 'startup' | 'liveness' | 'readiness';

export interface ProbeWorkerOptions {
  kind: ProbeKind;
  probe: Probe;
  target: ProbeTarget;
  clock: Clock;
  /** When the container started. */
  startedAt: number;
  /** Whether the probe may run now (liveness and readiness wait for the startup probe). */
  gate: () => boolean;
  /** The probe's result changed after reaching its threshold. */
  onResult: (success: boolean, message: string) => void;
  /** Any failed attempt (the kubelet's Unhealthy event). */
  onFailure?: (message: string) => void;
}

/**
 * A probe of one container run, as the kubelet's prober worker: every periodSeconds after
 * initialDelaySeconds; a result counts once it repeated successThreshold (success) or
 * failureThreshold (failure) times in a row. Stops when told or after a startup probe succeeds.
 */
export class ProbeWorker {
  private timer: unknown;
  private stopped = false;
  private last: boolean | undefined;
  private run = 0;
  private reported: boolean | undefined;

  constructor(private readonly opts: ProbeWorkerOptions) {
    const delay = (opts.probe.initialDelaySeconds ?? 0) * 1000;
    this.arm(Math.max(0, opts.startedAt + delay - opts.clock.now()));
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) this.opts.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  private arm(delayMs: number): void {
    if (this.stopped) return;
    this.timer = this.opts.clock.setTimer(() => void this.tick(), delayMs);
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    const period = (this.opts.probe.periodSeconds || PROBE_DEFAULTS.periodSeconds) * 1000;
    if (!this.opts.gate()) return this.arm(period);
    const result = await runProbe(this.opts.probe, this.opts.target);
    if (this.stopped) return;
    this.run = result.success === this.last ? this.run + 1 : 1;
    this.last = result.success;
    if (!result.success) this.opts.onFailure?.(result.message);
    const threshold = result.success
      ? this.opts.probe.successThreshold || PROBE_DEFAULTS.successThreshold
      : this.opts.probe.failureThreshold || PROBE_DEFAULTS.failureThreshold;
    if (this.run >= threshold && (this.reported !== result.success || !result.success)) {
      this.reported = result.success;
      if (!result.success) this.run = 0;
      this.opts.onResult(result.success, result.message);
      if (result.success && this.opts.kind === 'startup') return this.stop();
    }
    this.arm(period);
  }
}
