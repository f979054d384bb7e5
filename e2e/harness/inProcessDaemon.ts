import { EventEmitter } from 'node:events';
import { runDaemon, type DaemonSpec } from '@orch/component-base';

/** A daemon run in the test's process through runDaemon, as its command line would run it. */
export interface InProcessDaemon {
  /** What it wrote to stdout and stderr, in order. */
  out: string[];
  /** Emit SIGTERM/SIGINT here to stop it. */
  signals: EventEmitter;
  /** Its exit status, once it has ended. */
  done: Promise<number>;
  /** Sends SIGTERM and resolves with the exit status. */
  stop(): Promise<number>;
}

/** Runs the daemon `spec` with `argv`, capturing its output; its exits are recorded, not taken. */
export function runInProcessDaemon<C>(spec: DaemonSpec<C>, argv: readonly string[]): InProcessDaemon {
  const out: string[] = [];
  const signals = new EventEmitter();
  const done = runDaemon(spec, {
    argv,
    stdout: { write: (t: string) => out.push(t) },
    stderr: { write: (t: string) => out.push(t) },
    exit: () => undefined,
    signals,
  });
  return {
    out,
    signals,
    done,
    stop: () => {
      signals.emit('SIGTERM');
      return done;
    },
  };
}
