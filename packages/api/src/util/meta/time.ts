/*
 * metav1.Time and metav1.MicroTime text forms: RFC 3339 in UTC, `2006-01-02T15:04:05Z` (seconds)
 * and `2006-01-02T15:04:05.000000Z` (microseconds).
 */

function toDate(t: Date | number | string): Date {
  const d = t instanceof Date ? t : new Date(t);
  if (Number.isNaN(d.getTime())) throw new RangeError(`invalid time: ${String(t)}`);
  return d;
}

/** A time as metav1.Time serializes it: UTC, whole seconds (truncated), `Z`. */
export function formatTime(t: Date | number | string): string {
  return toDate(t).toISOString().slice(0, 19) + 'Z';
}

/**
 * A time as metav1.MicroTime serializes it: UTC, six fraction digits, `Z`. A Date holds
 * milliseconds; `micros` (0-999) adds the microseconds within that millisecond.
 */
export function formatMicroTime(t: Date | number | string, micros = 0): string {
  const iso = toDate(t).toISOString();
  return `${iso.slice(0, 23)}${String(Math.trunc(micros)).padStart(3, '0')}Z`;
}

/** The current time as metav1.Time (`now()` for tests). */
export function nowTime(now: () => number = Date.now): string {
  return formatTime(now());
}

/** The current time as metav1.MicroTime, with microseconds from the high-resolution clock. */
export function nowMicroTime(): string {
  const micros = performance.timeOrigin * 1000 + Math.floor(performance.now() * 1000);
  const ms = Math.floor(micros / 1000);
  return formatMicroTime(ms, micros - ms * 1000);
}

const rfc3339Regexp = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Parses an RFC 3339 time (with optional fraction and offset) as Go's time.Parse(RFC3339) reads
 * Time and MicroTime; returns epoch milliseconds. Throws RangeError on other text.
 */
export function parseTime(s: string): number {
  const m = rfc3339Regexp.exec(s);
  if (m === null) throw new RangeError(`invalid RFC 3339 time: ${JSON.stringify(s)}`);
  const [, y, mo, d, h, mi, sec, frac, zone] = m;
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(sec);
  const daysInMonth = new Date(Date.UTC(Number(y), month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59) {
    throw new RangeError(`invalid RFC 3339 time: ${JSON.stringify(s)}`);
  }
  let ms = Date.UTC(Number(y), month - 1, day, hour, minute, second);
  // Date.UTC maps years 0-99 to 1900-1999.
  if (Number(y) < 100) {
    const dt = new Date(ms);
    dt.setUTCFullYear(Number(y));
    ms = dt.getTime();
  }
  if (frac !== undefined) ms += Number(frac.slice(1, 4).padEnd(3, '0'));
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone![0] === '-' ? -1 : 1;
    const offset = Number(zone!.slice(1, 3)) * 60 + Number(zone!.slice(4, 6));
    ms -= sign * offset * 60_000;
  }
  return ms;
}
