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

/** An address's family and value: IPv4 in 32 bits, IPv6 in 128 (an embedded dotted IPv4 included). */
function ipBits(value: string): { family: 4 | 6; bits: bigint } | undefined {
  const family = parseIPSloppy(value);
  if (family === 4) {
    return { family, bits: value.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n) };
  }
  if (family !== 6) return undefined;
  let text = value;
  const dotted = text.lastIndexOf(':');
  const tail = text.slice(dotted + 1);
  if (tail.includes('.')) {
    const v4 = ipBits(tail);
    if (!v4 || v4.family !== 4) return undefined;
    const hi = Number(v4.bits >> 16n).toString(16);
    const lo = Number(v4.bits & 0xffffn).toString(16);
    text = `${text.slice(0, dotted + 1)}${hi}:${lo}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const groups = (part: string | undefined): string[] => (part ? part.split(':') : []);
  const left = groups(head);
  const right = groups(rest);
  const all =
    rest === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return { family, bits: all.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n) };
}

/** A CIDR (ParseCIDRSloppy): its family, network (the address with the host bits cleared) and prefix length. */
export function parseCIDR(value: string): { family: 4 | 6; network: bigint; prefix: number } | undefined {
  const slash = value.indexOf('/');
  if (slash < 0) return undefined;
  const ip = ipBits(value.slice(0, slash));
  const bits = value.slice(slash + 1);
  if (!ip || !/^\d{1,3}$/.test(bits)) return undefined;
  const width = ip.family === 4 ? 32 : 128;
  const prefix = Number(bits);
  if (prefix > width) return undefined;
  const hostBits = BigInt(width - prefix);
  return { family: ip.family, network: (ip.bits >> hostBits) << hostBits, prefix };
}

/** A CIDR such as 10.9.8.0/24 or 2001:db8::/64. */
export function isValidCIDR(value: string): readonly string[] {
  if (parseCIDR(value) !== undefined) return NONE;
  return ['must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'];
}

/** Whether the CIDR `inner` is a strict subset of the CIDR `outer` (both valid). */
export function isStrictSubnet(outer: string, inner: string): boolean {
  const o = parseCIDR(outer);
  const i = parseCIDR(inner);
  if (!o || !i || o.family !== i.family || i.prefix <= o.prefix) return false;
  const hostBits = BigInt((o.family === 4 ? 32 : 128) - o.prefix);
  return (i.network >> hostBits) << hostBits === o.network;
}

const percentFmt = '[0-9]+%';
const percentErrMsg = "a valid percent string must be a numeric string followed by an ending '%'";
const percentRegexp = new RegExp(`^${percentFmt}$`);

/** A percentage string such as `25%`. */
export function isValidPercent(percent: string): readonly string[] {
  if (percentRegexp.test(percent)) return NONE;
  return [regexError(percentErrMsg, percentFmt, '1%', '93%')];
}
