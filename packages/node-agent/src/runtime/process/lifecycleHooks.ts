import { spawn } from 'node:child_process';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Handler, Pod } from '@orch/api';
import { podDesc } from '../podTimeline';
import { resolvePort, type ProbeTarget } from './probes';

/** The kubelet's events and container state of failed hooks. */
export const FAILED_POST_START_HOOK = 'FailedPostStartHook';
export const FAILED_PRE_STOP_HOOK = 'FailedPreStopHook';
/** The reason a container waits with after its postStart hook failed. */
export const POST_START_HOOK_ERROR = 'PostStartHookError';
/** Event messages: the hook's own message stays out of events (it may hold secrets). */
export const POST_START_FAILED_MESSAGE = 'PostStartHook failed';
export const PRE_STOP_FAILED_MESSAGE = 'PreStopHook failed';

/** Most hook output kept. */
const MAX_OUTPUT = 10 * 1024;

export interface HookRun {
  pod: Pod;
  container: string;
  /** Aborts the hook (the container stopped, or its time is up): its processes are killed. */
  signal?: AbortSignal;
}

/** undefined: the hook succeeded; otherwise the kubelet's message of the failure. */
export type HookResult = string | undefined;

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

/** Runs `command` in the container's environment and directory: its error, or undefined on success. */
function execHook(
  command: readonly string[],
  target: ProbeTarget,
  signal: AbortSignal | undefined,
): Promise<{ error?: string; output: string }> {
  return new Promise((resolve) => {
    const [program, ...args] = command;
    let stdout = '';
    let stderr = '';
    const child = spawn(program ?? '', args, {
      env: target.env,
      cwd: target.cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const onAbort = () => killGroup(child.pid);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    child.stdout?.on('data', (chunk: Buffer) => {
      if (stdout.length < MAX_OUTPUT) stdout += chunk.toString('utf8');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_OUTPUT) stderr += chunk.toString('utf8');
    });
    let spawnError: string | undefined;
    child.on('error', (err: NodeJS.ErrnoException) => {
      spawnError =
        err.code === 'ENOENT'
          ? `exec: "${program ?? ''}": executable file not found in $PATH`
          : `exec: "${program ?? ''}": ${err.message}`;
      if (child.pid === undefined) {
        signal?.removeEventListener('abort', onAbort);
        resolve({ error: spawnError, output: '' });
      }
    });
    child.on('close', (code, sig) => {
      signal?.removeEventListener('abort', onAbort);
      const output = (stdout + stderr).slice(0, MAX_OUTPUT);
      if (spawnError) return resolve({ error: spawnError, output });
      const exitCode = code ?? 128 + (sig === 'SIGKILL' ? 9 : 15);
      if (exitCode === 0) return resolve({ output });
      resolve({ error: `command '${command.join(' ')}' exited with ${exitCode}: ${stderr}`, output });
    });
  });
}

/** A connection error worded as Go's net package words it. */
function dialError(err: NodeJS.ErrnoException, host: string, port: number): string {
  const addr = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (err.code === 'ECONNREFUSED') return `dial tcp ${addr}: connect: connection refused`;
  if (err.code === 'ENOTFOUND') return `dial tcp: lookup ${host}: no such host`;
  return err.message;
}

/** GETs the hook's URL; only a failed request fails the hook (any HTTP status is a success). */
function httpHook(
  action: NonNullable<Handler['httpGet']>,
  target: ProbeTarget,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  const port = resolvePort(action.port as number | string | undefined, target);
  if (port === undefined) return Promise.resolve(`unknown port ${String(action.port)}`);
  const scheme = (action.scheme ?? 'HTTP').toLowerCase();
  const host = action.host || target.host;
  const path = action.path || '/';
  const url = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}${path.startsWith('/') ? path : `/${path}`}`;
  const headers: Record<string, string> = { 'User-Agent': 'kube-lifecycle/1.0', Accept: '*/*' };
  for (const h of action.httpHeaders ?? []) headers[h.name] = h.value;
  return new Promise((resolve) => {
    const get = scheme === 'https' ? https.get : http.get;
    const options = { headers, agent: false, rejectUnauthorized: false, ...(signal ? { signal } : {}) };
    const req = get(url, options, (res) => {
      res.resume();
      res.on('end', () => resolve(undefined));
      res.on('error', () => resolve(undefined));
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve(`Get "${url}": ${err.name === 'AbortError' ? 'context canceled' : dialError(err, host, port)}`),
    );
  });
}

/**
 * Runs a postStart or preStop handler of a container as the kubelet's handler runner does: `exec`
 * runs the command in the container's environment and directory and fails on a non-zero exit;
 * `httpGet` fails only when the request does; any other handler cannot run. Resolves with the
 * kubelet's failure message, or undefined on success.
 */
export async function runLifecycleHook(
  handler: Handler,
  target: ProbeTarget,
  run: HookRun,
): Promise<HookResult> {
  const where = `for Container "${run.container}" in Pod "${podDesc(run.pod)}"`;
  if (handler.exec) {
    const command = handler.exec.command ?? [];
    const { error, output } = await execHook(command, target, run.signal);
    if (error === undefined) return undefined;
    return `Exec lifecycle hook ([${command.join(' ')}]) ${where} failed - error: ${error}, message: ${JSON.stringify(output)}`;
  }
  if (handler.httpGet) {
    const error = await httpHook(handler.httpGet, target, run.signal);
    if (error === undefined) return undefined;
    return `HTTP lifecycle hook (${handler.httpGet.path ?? ''}) ${where} failed - error: ${error}`;
  }
  return `Cannot run handler: invalid handler: ${JSON.stringify(handler)}`;
}

/** The least time the kubelet leaves a container between SIGTERM and SIGKILL after its preStop hook. */
export const MIN_GRACE_AFTER_PRE_STOP_MS = 2_000;

export interface PreStopRun {
  pod: Pod;
  container: string;
  /** The container's grace period. */
  graceMs: number;
  /** Settles when the container stops (the hook is then abandoned). */
  stopped: Promise<unknown>;
  /** The hook failed (the kubelet's FailedPreStopHook event). */
  onFailure: (message: string) => void;
}

/**
 * Runs a container's preStop hook within its grace period, as the kubelet's executePreStopHook: the
 * hook is given up (its processes killed, and it counts as failed) when the grace period is over or
 * the container stopped.
 * Resolves with the grace left for SIGTERM: what the hook left, but at least 2 seconds.
 */
export async function preStopGraceMs(
  handler: Handler,
  target: ProbeTarget,
  run: PreStopRun,
): Promise<number> {
  const started = Date.now();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), run.graceMs);
  void run.stopped.then(() => abort.abort());
  const failure = await runLifecycleHook(handler, target, {
    pod: run.pod,
    container: run.container,
    signal: abort.signal,
  });
  clearTimeout(timer);
  if (failure !== undefined) run.onFailure(failure);
  return Math.max(run.graceMs - (Date.now() - started), MIN_GRACE_AFTER_PRE_STOP_MS);
}
