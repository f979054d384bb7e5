/** klog severities, in increasing order. */
export type Severity = 'INFO' | 'WARNING' | 'ERROR' | 'FATAL';

export const SEVERITY_NAMES: readonly Severity[] = ['INFO', 'WARNING', 'ERROR', 'FATAL'];

const two = (n: number): string => String(n).padStart(2, '0');

/** klog's text header: `Lmmdd hh:mm:ss.uuuuuu threadid file:line] ` (local time, id padded to 7). */
export function klogHeader(
  severity: Severity,
  time: Date,
  micros: number,
  threadId: number,
  file: string,
  line: number,
): string {
  const date = `${two(time.getMonth() + 1)}${two(time.getDate())}`;
  const clock = `${two(time.getHours())}:${two(time.getMinutes())}:${two(time.getSeconds())}`;
  const fraction = String(micros).padStart(6, '0');
  return `${severity[0]}${date} ${clock}.${fraction} ${String(threadId).padStart(7)} ${file}:${line}] `;
}
