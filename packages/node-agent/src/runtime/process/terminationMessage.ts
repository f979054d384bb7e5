import { promises as fs } from 'node:fs';
import type { PodStatus } from '@orch/api';

/** Most bytes read from a termination message file (its end). */
export const MAX_TERMINATION_MESSAGE_BYTES = 4096;
/** Most bytes of termination messages in one pod status, shared evenly by its containers. */
export const MAX_POD_TERMINATION_MESSAGE_BYTES = 12 * 1024;
/** FallbackToLogsOnError: the log's last lines, at most this many... */
export const FALLBACK_LOG_LINES = 80;
/** ...and at most this many bytes. */
export const FALLBACK_LOG_BYTES = 2048;

/** The default terminationMessagePath, which the process runtime maps to a file of its own. */
export const DEFAULT_TERMINATION_MESSAGE_PATH = '/dev/termination-log';

/** The last `max` bytes of `buf`. */
function lastBytes(buf: Buffer, max: number): Buffer {
  return buf.length > max ? buf.subarray(buf.length - max) : buf;
}

/**
 * The termination message in `file`: its last 4096 bytes; empty when the file is missing or was not
 * written since `sinceMs` (a message left by an earlier run does not count).
 */
export async function readTerminationMessageFile(file: string, sinceMs = 0): Promise<string> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile() || stat.mtimeMs < sinceMs) return '';
    const handle = await fs.open(file, 'r');
    try {
      const length = Math.min(stat.size, MAX_TERMINATION_MESSAGE_BYTES);
      const buf = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buf, 0, length, stat.size - length);
      return buf.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    return `Error on reading termination log ${file}: ${(err as Error).message}`;
  }
}

/** The last log chunk FallbackToLogsOnError reports: the last 80 lines, at most their last 2048 bytes. */
export function logFallbackMessage(logTail: Buffer): string {
  let lines = 0;
  // A final newline ends the last line rather than starting another.
  let i = logTail.length - 1;
  if (i >= 0 && logTail[i] === 0x0a) i--;
  for (; i >= 0; i--) {
    if (logTail[i] === 0x0a) {
      lines++;
      if (lines === FALLBACK_LOG_LINES) break;
    }
  }
  return lastBytes(logTail.subarray(i + 1), FALLBACK_LOG_BYTES).toString('utf8');
}

/**
 * The message of a terminated container: the termination message file's, or with
 * FallbackToLogsOnError, the end of its log when the file gave nothing and the container failed.
 */
export function terminationMessage(opts: {
  fileMessage: string;
  policy: string | undefined;
  exitCode: number;
  logTail: Buffer;
}): string {
  if (opts.fileMessage !== '') return opts.fileMessage;
  if (opts.policy === 'FallbackToLogsOnError' && opts.exitCode !== 0) return logFallbackMessage(opts.logTail);
  return '';
}

type ContainerStatus = NonNullable<PodStatus['containerStatuses']>[number];

/**
 * Cuts the termination messages of a pod's statuses so that they fit 12 KiB together: each
 * container (init or not) gets an even share, for its state and for its last state.
 */
export function limitTerminationMessages(status: PodStatus): void {
  const all: ContainerStatus[] = [
    ...(status.initContainerStatuses ?? []),
    ...(status.containerStatuses ?? []),
  ];
  if (all.length === 0) return;
  const share = Math.floor(MAX_POD_TERMINATION_MESSAGE_BYTES / all.length);
  for (const c of all) {
    for (const state of [c.state, c.lastState]) {
      const t = state?.terminated;
      if (!t?.message) continue;
      const buf = Buffer.from(t.message, 'utf8');
      if (buf.length > share) t.message = buf.subarray(0, share).toString('utf8');
    }
  }
}
