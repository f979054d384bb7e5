import { isIPv6 } from 'node:net';
import { inclusiveRangeError, maxLenError, regexError } from './messages';

const NONE: readonly string[] = Object.freeze([]);

const portNameCharsetRegexp = /^[-a-z0-9]+$/;
const portNameOneLetterRegexp = /[a-z]/;

/**
 * An IANA_SVC_NAME (RFC 6335): at most 15 characters of `[-a-z0-9]`, at least one letter, no `--`,
 * not beginning or ending with `-`. Every failed rule is reported.
 */
export function isValidPortName(port: string): readonly string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!portNameCharsetRegexp.test(port)) {
    errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  }
  if (!portNameOneLetterRegexp.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port[0] === '-' || port[port.length - 1] === '-')) {
    errs.push('must not begin or end with a hyphen');
  }
  return errs.length > 0 ? errs : NONE;
}

/** A port number in 1..65535. */
export function isValidPortNum(port: number): readonly string[] {
  if (port >= 1 && port <= 65535 && Number.isInteger(port)) return NONE;
  return [inclusiveRangeError(1, 65535)];
}

const ipv4PartRegexp = /^[0-9]+$/;

/**
 * Whether `value` parses as an IP address the way Kubernetes does for legacy fields
 * (ParseIPSloppy): dotted IPv4 with decimal parts (leading zeros allowed), or IPv6 without a zone.
 */
export function parseIPSloppy(value: string): 4 | 6 | undefined {
  if (value.includes(':')) {
    return !value.includes('%') && isIPv6(value) ? 6 : undefined;
  }
  const parts = value.split('.');
  if (parts.length !== 4) return undefined;
  for (const p of parts) {
    if (!ipv4PartRegexp.test(p)) return undefined;
    if (Number(p) > 255) return undefined;
  }
  return 4;
}

/** An IPv4 or IPv6 address. */
export function isValidIP(value: string): readonly string[] {
  if (parseIPSloppy(value) !== undefined) return NONE;
  return ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
}

const percentFmt = '[0-9]+%';
const percentErrMsg = "a valid percent string must be a numeric string followed by an ending '%'";
const percentRegexp = new RegExp(`^${percentFmt}$`);

/** A percentage string such as `25%`. */
export function isValidPercent(percent: string): readonly string[] {
  if (percentRegexp.test(percent)) return NONE;
  return [regexError(percentErrMsg, percentFmt, '1%', '93%')];
}
