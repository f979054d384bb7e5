import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import https from 'node:https';
import { basename, dirname, join, resolve } from 'node:path';

/** The repository root (this file is packages/apiserver/{src,dist}/testing/). */
export const repoRoot = resolve(__dirname, '..', '..', '..', '..');

/** The built binary of a daemon (npm test builds every package before jest runs). */
export function daemonBin(pkg: string, name: string): string {
  return join(repoRoot, 'packages', pkg, 'dist', 'bin', `${name}.js`);
}

export interface DaemonProcess {
  name: string;
  child: ChildProcess;
  log: string;
  /** Sends a signal and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts a daemon binary as its own process, its output appended to `<logDir>/<name>.log`;
 * `nodeOptions` go to node before the binary (V8 options such as the apiserver's).
 */
export function startDaemon(
  name: string,
  bin: string,
  args: string[],
  logDir: string,
  nodeOptions: readonly string[] = [],
): DaemonProcess {
  mkdirSync(logDir, { recursive: true });
  const log = join(logDir, `${name}.log`);
  const out = createWriteStream(log, { flags: 'a' });
  const child = spawn(process.execPath, [...nodeOptions, bin, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  let stopping = false;
  const exited = new Promise<number | null>((r) =>
    child.once('exit', (code, signal) => {
      // a daemon that ends on its own is worth seeing in the test output: its log goes with the test
      if (!stopping) out.end(() => reportExit(name, code, signal, log));
      r(code);
    }),
  );
  return {
    name,
    child,
    log,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Prints the end of the log of a daemon that exited without being stopped. */
function reportExit(name: string, code: number | null, signal: NodeJS.Signals | null, log: string): void {
  let tail = '';
  try {
    tail = readFileSync(log, 'utf8').split('\n').slice(-30).join('\n');
  } catch {
    // the log directory was removed with its test
  }
  process.stderr.write(
    `${name} exited on its own (${signal ?? `code ${code}`}); the end of its log:\n${tail}\n`,
  );
}

/** Polls an HTTPS URL until it answers 200 (client certificate auth), or throws after `timeoutMs`. */
export async function waitHTTPS(
  url: string,
  tls: { ca: string; cert?: string; key?: string },
  timeoutMs = 30_000,
  alive: () => boolean = () => true,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((res) => {
      const req = https.get(url, { ...tls, timeout: 1000 }, (r) => {
        r.resume();
        res(r.statusCode === 200);
      });
      req.on('error', () => res(false));
      req.on('timeout', () => req.destroy());
    });
    if (ok) return;
    if (!alive()) throw new Error(`${url}: the process exited`);
    if (Date.now() > deadline) throw new Error(`${url} not ready after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Copies a log directory that is about to be removed to `$ORCH_E2E_KEEP_LOGS/<parent dir name>`
 * when that variable names a directory, so a failed run's daemon logs can be read afterwards.
 */
export function keepLogs(logDir: string): void {
  const keep = process.env.ORCH_E2E_KEEP_LOGS;
  if (!keep || !existsSync(logDir)) return;
  cpSync(logDir, join(keep, basename(dirname(logDir))), { recursive: true });
}
