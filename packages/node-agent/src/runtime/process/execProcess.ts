import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { ExecIO, ExecResult } from '../PodRunner';
import { startErrorMessage } from './ContainerProcess';

/** Where a container's processes run: its environment and working directory. */
export interface ContainerProcessContext {
  env: Record<string, string>;
  cwd: string;
}

/**
 * Runs `command` beside a container's process, with the container's environment and working
 * directory, as its own process group: the client's stdin feeds it, its output goes to the
 * client's stdout and stderr (both to stdout with a terminal, which the process runtime does not
 * allocate). Resolves with the exit code (128 + n when killed by signal n) once its output is
 * drained; a command that cannot start is an error worded as container runtimes word it. The group
 * is killed when the client goes away.
 */
export function execProcess(
  command: readonly string[],
  ctx: ContainerProcessContext,
  io: ExecIO,
): Promise<ExecResult> {
  const [program, ...args] = command;
  return new Promise<ExecResult>((resolve) => {
    const child = spawn(program ?? '', args, {
      env: ctx.env,
      cwd: ctx.cwd,
      detached: true,
      stdio: [io.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    let startError: string | undefined;
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone
      }
    };
    io.signal.addEventListener('abort', killGroup, { once: true });
    if (io.stdin && child.stdin) {
      child.stdin.on('error', () => undefined);
      io.stdin.pipe(child.stdin);
    }
    const out = io.stdout;
    const err = io.tty ? io.stdout : io.stderr;
    if (out) child.stdout?.pipe(out, { end: false });
    else child.stdout?.resume();
    if (err) child.stderr?.pipe(err, { end: false });
    else child.stderr?.resume();
    child.on('error', (e: NodeJS.ErrnoException) => {
      startError ??= startErrorMessage(command, e, ctx.cwd);
      if (child.pid === undefined) finish();
    });
    let exitCode = 0;
    child.on('exit', (code, signal) => {
      exitCode = code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
    });
    child.on('close', () => finish());
    let done = false;
    function finish(): void {
      if (done) return;
      done = true;
      io.signal.removeEventListener('abort', killGroup);
      if (io.stdin && child.stdin) io.stdin.unpipe(child.stdin);
      resolve(startError ? { error: `failed to exec in container: ${startError}` } : { exitCode });
    }
  });
}
