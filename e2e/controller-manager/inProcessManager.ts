import { EventEmitter } from 'node:events';
import { runDaemon } from '@orch/component-base';
import { controllerManagerDaemon } from '@orch/controller-manager';

/** orch-controller-manager run in the test's process, as its command line would run it. */
export interface InProcessManager {
  /** What it wrote to stdout and stderr, in order. */
  out: string[];
  /** Emit SIGTERM/SIGINT here to stop it. */
  signals: EventEmitter;
  /** Its exit status, once it has ended. */
  done: Promise<number>;
  /** Sends SIGTERM and resolves with the exit status. */
  stop(): Promise<number>;
}

/**
 * Runs orch-controller-manager with `argv` (no secure port, no leader election unless `argv` says
 * otherwise: later flags win), capturing its output; its exits are recorded, not taken.
 */
export function runInProcessManager(argv: readonly string[]): InProcessManager {
  const out: string[] = [];
  const signals = new EventEmitter();
  const done = runDaemon(controllerManagerDaemon(), {
    argv: ['--secure-port=0', '--leader-elect=false', ...argv],
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
