import { parseDuration } from '@orch/component-base';
import { checkCronFields, isTimeZoneName } from '@orch/api';
import type { CronExpressionParser as Parser } from 'cron-parser';

/** A parsed schedule: the first activation strictly after a time. */
export interface Schedule {
  next(afterMs: number): number;
}

/**
 * The cron parser, loaded with the first schedule parsed: it brings a date library as large as the
 * rest of the controller manager's dependencies, which a cluster without CronJobs never needs.
 */
function cronParser(): typeof Parser {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('cron-parser') as typeof import('cron-parser')).CronExpressionParser;
}

/** The descriptors Kubernetes' cron parser (robfig/cron ParseStandard) accepts, as five fields. */
const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/**
 * Parses a CronJob schedule as Kubernetes does: five fields (minute hour day-of-month month
 * day-of-week), a descriptor (@hourly, @daily, ...) or `@every <duration>`, read in the IANA time
 * zone `timeZone` (UTC, this controller manager's, when not given). Throws with the parser's message.
 */
export function parseSchedule(spec: string, timeZone = 'UTC'): Schedule {
  const text = spec.trim();
  if (text.startsWith('@every ')) {
    let delay = parseDuration(text.slice('@every '.length).trim());
    if (delay < 1000) delay = 1000;
    delay -= delay % 1000;
    return { next: (after) => after - (after % 1000) + delay };
  }
  const expr = DESCRIPTORS[text] ?? text;
  if (text.startsWith('@') && !DESCRIPTORS[text]) throw new Error(`unrecognized descriptor: ${text}`);
  const fields = expr.split(/\s+/).filter(Boolean);
  if (fields.length !== 5) throw new Error(`expected exactly 5 fields, found ${fields.length}: ${text}`);
  if (!isTimeZoneName(timeZone)) throw new Error(`unknown time zone ${timeZone}`);
  checkCronFields(fields);
  const parser = cronParser();
  try {
    parser.parse(expr, { tz: timeZone });
  } catch {
    // fields Kubernetes reads but whose days never come (`0 0 31 2 *`): a schedule that never runs
    return { next: () => Number.POSITIVE_INFINITY };
  }
  return {
    next: (after) =>
      parser
        .parse(expr, { currentDate: new Date(after), tz: timeZone })
        .next()
        .getTime(),
  };
}

/** More missed start times than this is an error (Kubernetes' limit). */
export const MAX_MISSED_START_TIMES = 100;

/**
 * The schedule times between the last scheduled run (or the creation time) and now that have not
 * run, Kubernetes' getRecentUnmetScheduleTimes: with startingDeadlineSeconds only those within the
 * deadline count; more than 100 is an error.
 */
export function unmetScheduleTimes(
  schedule: Schedule,
  earliestMs: number,
  nowMs: number,
  startingDeadlineSeconds: number | undefined,
): number[] {
  let earliest = earliestMs;
  if (startingDeadlineSeconds !== undefined && startingDeadlineSeconds !== null) {
    const deadline = nowMs - startingDeadlineSeconds * 1000;
    if (deadline > earliest) earliest = deadline;
  }
  const starts: number[] = [];
  if (earliest > nowMs) return starts;
  for (let t = schedule.next(earliest); t <= nowMs; t = schedule.next(t)) {
    starts.push(t);
    if (starts.length > MAX_MISSED_START_TIMES) {
      throw new Error(
        'too many missed start time (> 100). Set or decrease .spec.startingDeadlineSeconds or check clock skew.',
      );
    }
  }
  return starts;
}

/** The name of the job of a scheduled time: `<cronjob>-<minutes since the epoch>`. */
export function jobNameFor(cronJobName: string, scheduledMs: number): string {
  return `${cronJobName}-${Math.floor(scheduledMs / 60_000)}`;
}

/** What a CronJob sync does about its schedule. */
export type RunDecision =
  | { action: 'none' }
  | { action: 'missed'; scheduled: number }
  | { action: 'forbidden'; scheduled: number }
  | { action: 'start'; scheduled: number; replaceActive: boolean };

/**
 * Kubernetes' decision for the latest unmet time: nothing to do; too late for
 * startingDeadlineSeconds; skipped because Forbid sees an active job; or start it (Replace first
 * deleting the active jobs).
 */
export function decideRun(
  unmet: readonly number[],
  nowMs: number,
  startingDeadlineSeconds: number | undefined,
  concurrencyPolicy: string | undefined,
  activeJobs: number,
): RunDecision {
  if (unmet.length === 0) return { action: 'none' };
  const scheduled = unmet[unmet.length - 1]!;
  if (
    startingDeadlineSeconds !== undefined &&
    startingDeadlineSeconds !== null &&
    scheduled + startingDeadlineSeconds * 1000 < nowMs
  ) {
    return { action: 'missed', scheduled };
  }
  const policy = concurrencyPolicy ?? 'Allow';
  if (policy === 'Forbid' && activeJobs > 0) return { action: 'forbidden', scheduled };
  return { action: 'start', scheduled, replaceActive: policy === 'Replace' && activeJobs > 0 };
}
