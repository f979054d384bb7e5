import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import type { ExecIO, ExecResult } from '../PodRunner';
import type { ContainerLog } from './ContainerLog';

/** How a container's process ended. */
export interface ContainerExit {
  /** The exit code; 128 + n for a process killed by signal n, as container runtimes report it. */
  exitCode: number;
  /** Set when the process could not be started at all (exit code 128). */
  startError?: string;
}

export interface ContainerProcessOptions {
  /** The program and its arguments. */
  argv: readonly string[];
  env: Record<string, string>;
  cwd: string;
  log: ContainerLog;
  /** The container's stdin stays open for attach (spec stdin); closed after the first attach with `stdinOnce`. */
  stdin?: boolean;
  stdinOnce?: boolean;
}

type OutputListener = (stream: 'stdout' | 'stderr', chunk: Buffer) => void;

/** The message of a process that cannot start, worded as container runtimes word it. */
export function startErrorMessage(argv: readonly string[], err: NodeJS.ErrnoException, cwd: string): string {
  const program = argv[0] ?? '';
  if (err.code === 'ENOENT') {
    return program.includes('/')
      ? `exec: "${program}": stat ${program}: no such file or directory`
      : `exec: "${program}": executable file not found in $PATH`;
  }
  if (err.code === 'EACCES') return `exec: "${program}": permission denied`;
  return `exec: "${program}" in ${cwd}: ${err.message}`;
}

/**
 * One run of a container: a child process leading its own process group (the container's
 * processes), stdin closed unless the container keeps it open for attach, stdout and stderr into the
 * container's log and to the clients attached. When the main process
 * exits, whatever else runs in its group is killed, as a container's processes die with it.
 */
export class ContainerProcess {
  readonly exited: Promise<ContainerExit>;
  private readonly child: ChildProcess;
  private done = false;
  private readonly listeners = new Set<OutputListener>();
  private attachedOnce = false;

  constructor(opts: ContainerProcessOptions) {
    const [program, ...args] = opts.argv;
    this.child = spawn(program ?? '', args, {
      env: opts.env,
      cwd: opts.cwd,
      detached: true,
      stdio: [opts.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    this.child.stdin?.on('error', () => undefined);
    const output = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
      opts.log.write(stream, chunk);
      for (const listener of this.listeners) listener(stream, chunk);
    };
    this.child.stdout?.on('data', output('stdout'));
    this.child.stderr?.on('data', output('stderr'));
    this.stdinOnce = opts.stdinOnce ?? false;
    this.exited = new Promise<ContainerExit>((resolve) => {
      let result: ContainerExit | undefined;
      this.child.on('error', (err: NodeJS.ErrnoException) => {
        result ??= { exitCode: 128, startError: startErrorMessage(opts.argv, err, opts.cwd) };
        if (this.child.pid === undefined) this.finish(resolve, result, opts.log);
      });
      this.child.on('exit', (code, signal) => {
        result ??= {
          exitCode: code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0),
        };
        this.signalGroup('SIGKILL');
      });
      this.child.on('close', () => this.finish(resolve, result ?? { exitCode: 128 }, opts.log));
    });
  }

  private readonly stdinOnce: boolean;

  /**
   * Attaches a client (kubectl attach): what the container writes from now on goes to the client's
   * stdout and stderr (both to stdout with a terminal), and the client's stdin to the container's
   * when the container keeps it open. Ends when the container exits or the client goes away; the
   * container's stdin is closed when the first client's stdin ends if it is stdinOnce.
   */
  attach(io: ExecIO): Promise<ExecResult> {
    return new Promise((resolve) => {
      const listener: OutputListener = (stream, chunk) => {
        const out = stream === 'stderr' && !io.tty ? io.stderr : io.stdout;
        out?.write(chunk);
      };
      const stdin = this.child.stdin;
      const first = !this.attachedOnce;
      this.attachedOnce = true;
      const stdinEnded = () => {
        if (first && this.stdinOnce) stdin?.end();
      };
      const finish = () => {
        this.listeners.delete(listener);
        if (io.stdin && stdin) {
          io.stdin.unpipe(stdin);
          io.stdin.off('end', stdinEnded);
        }
        io.signal.removeEventListener('abort', finish);
        resolve({ exitCode: 0 });
      };
      if (!this.running) return finish();
      this.listeners.add(listener);
      if (io.stdin && stdin && !stdin.writableEnded) {
        io.stdin.pipe(stdin, { end: false });
        io.stdin.once('end', stdinEnded);
      } else io.stdin?.resume();
      io.signal.addEventListener('abort', finish);
      void this.exited.then(finish);
    });
  }

  /** The main process's id; undefined when it did not start. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Whether the process is still running. */
  get running(): boolean {
    return (
      !this.done &&
      this.child.pid !== undefined &&
      this.child.exitCode === null &&
      this.child.signalCode === null
    );
  }

  /**
   * Sends `signal` to the container's main process, as a runtime stops a container through its
   * first process; SIGKILL goes to every process of the container.
   */
  kill(signal: NodeJS.Signals): void {
    if (this.done) return;
    if (signal === 'SIGKILL') return this.signalGroup(signal);
    try {
      this.child.kill(signal);
    } catch {
      // Gone already.
    }
  }

  private signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is gone.
    }
  }

  private finish(resolve: (exit: ContainerExit) => void, exit: ContainerExit, log: ContainerLog): void {
    if (this.done) return;
    this.done = true;
    void log.close().then(() => resolve(exit));
  }
}
