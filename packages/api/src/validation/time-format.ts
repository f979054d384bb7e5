import { remembering } from '../util/remembering';

/**
 * meta/v1 Time and MicroTime as Kubernetes serializes them: RFC 3339 in UTC, with second precision
 * (`2006-01-02T15:04:05Z`) for Time and microsecond precision (`2006-01-02T15:04:05.000000Z`) for
 * MicroTime. Parsing follows Go's time.Parse with the RFC 3339 layout: an upper-case `T`, `Z` or a
 * numeric offset, and an optional fraction of a second.
 */

const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;
const canonicalTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const canonicalMicroTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

interface Instant {
  /** Milliseconds since the epoch, whole seconds only. */
  seconds: number;
  /** The fraction of a second as written, up to 9 digits. */
  fraction: string;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function parse(value: string): Instant | undefined {
  const m = rfc3339.exec(value);
  if (m === null) return undefined;
  const year = +m[1]!;
  const month = +m[2]!;
  const day = +m[3]!;
  const hour = +m[4]!;
  const minute = +m[5]!;
  const second = +m[6]!;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offset = 0;
  if (m[8] !== undefined) {
    const oh = +m[9]!;
    const om = +m[10]!;
    if (oh > 23 || om > 59) return undefined;
    offset = (oh * 60 + om) * 60 * (m[8] === '-' ? -1 : 1);
  }
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, 0);
  return { seconds: utc.getTime() / 1000 - offset, fraction: (m[7] ?? '').slice(0, 9) };
}

function isoSeconds(seconds: number): string | undefined {
  const d = new Date(seconds * 1000);
  const year = d.getUTCFullYear();
  if (!Number.isFinite(seconds) || year < 0 || year > 9999) return undefined;
  return d.toISOString().slice(0, 19);
}

/** True when `value` parses as an RFC 3339 date-time. */
export function isRFC3339(value: string): boolean {
  return checkedTimes(value);
}

/**
 * Times checked lately: every write of an object validates its creationTimestamp and its
 * managedFields' times again, which change far less often than the object.
 */
const checkedTimes = remembering((value) => parse(value) !== undefined);

/**
 * The Time form of an RFC 3339 string (UTC, seconds), or undefined when it does not parse. Text
 * already in the canonical shape is returned as it is (its ranges are checked by {@link isRFC3339}).
 */
export function canonicalTimeString(value: string): string | undefined {
  if (canonicalTime.test(value)) return value;
  const t = parse(value);
  if (t === undefined) return undefined;
  const s = isoSeconds(t.seconds);
  return s === undefined ? undefined : `${s}Z`;
}

/** The MicroTime form of an RFC 3339 string (UTC, microseconds), or undefined when it does not parse. */
export function canonicalMicroTimeString(value: string): string | undefined {
  if (canonicalMicroTime.test(value)) return value;
  const t = parse(value);
  if (t === undefined) return undefined;
  const s = isoSeconds(t.seconds);
  return s === undefined ? undefined : `${s}.${t.fraction.slice(0, 6).padEnd(6, '0')}Z`;
}
