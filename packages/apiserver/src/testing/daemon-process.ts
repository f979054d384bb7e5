import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import https from 'node:https';
import { join, resolve } from 'node:path';

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

/** Starts a daemon binary as its own process, its output appended to `<logDir>/<name>.log`. */
export function startDaemon(name: string, bin: string, args: string[], logDir: string): DaemonProcess {
  mkdirSync(logDir, { recursive: true });
  const log = join(logDir, `${name}.log`);
  const out = createWriteStream(log, { flags: 'a' });
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return {
    name,
    child,
    log,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
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
