import { parseCIDR, parseIPSloppy } from '../util/names';

const uuidRegexp = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32})$/i;
const hostnameLabel = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const macRegexp =
  /^(?:[0-9a-f]{2}(?:[:-][0-9a-f]{2}){5}|[0-9a-f]{2}(?:[:-][0-9a-f]{2}){7}|[0-9a-f]{2}(?:[:-][0-9a-f]{2}){19}|[0-9a-f]{4}(?:\.[0-9a-f]{4}){2,9})$/i;
const emailRegexp = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+$/;

/** A calendar date `YYYY-MM-DD` (Go's time.Parse with layout 2006-01-02). */
function isDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/**
 * The string formats Kubernetes checks in custom resources besides date-time and byte (the
 * OpenAPI library's registry): a value that is not one is refused with
 * `spec.x in body must be of type <format>: "<value>"`. Formats it does not know are informative.
 */
export const openAPIFormats: Readonly<Record<string, (value: string) => boolean>> = {
  uuid: (v) => uuidRegexp.test(v),
  email: (v) => emailRegexp.test(v),
  hostname: (v) => v.length <= 255 && v.split('.').every((label) => hostnameLabel.test(label)),
  ipv4: (v) => !v.includes(':') && parseIPSloppy(v) === 4,
  ipv6: (v) => v.includes(':') && parseIPSloppy(v) === 6,
  cidr: (v) => parseCIDR(v) !== undefined,
  mac: (v) => macRegexp.test(v),
  date: isDate,
};
