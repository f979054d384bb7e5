import { controllerManagerDaemon } from '@orch/controller-manager';
import { runInProcessDaemon, type InProcessDaemon } from '../harness/inProcessDaemon';

/** orch-controller-manager run in the test's process, as its command line would run it. */
export type InProcessManager = InProcessDaemon;

/**
 * Runs orch-controller-manager with `argv` (no secure port, no leader election unless `argv` says
 * otherwise: later flags win), capturing its output; its exits are recorded, not taken.
 */
export function runInProcessManager(argv: readonly string[]): InProcessManager {
  return runInProcessDaemon(controllerManagerDaemon(), ['--secure-port=0', '--leader-elect=false', ...argv]);
}
