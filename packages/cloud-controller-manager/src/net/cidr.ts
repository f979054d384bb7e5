import { BlockList, isIP } from 'node:net';

/** A parsed CIDR: its address family, base address and prefix length. */
export interface CIDR {
  family: 'ipv4' | 'ipv6';
  address: string;
  prefix: number;
}

/** Parses `a.b.c.d/n` or an IPv6 CIDR; throws on anything else. */
export function parseCIDR(text: string): CIDR {
  const [address = '', bits = '', extra] = text.trim().split('/');
  const version = isIP(address);
  const prefix = Number(bits);
  const max = version === 6 ? 128 : 32;
  if (extra !== undefined || version === 0 || !/^\d+$/.test(bits) || prefix > max)
    throw new Error(`invalid CIDR address: ${text}`);
  return { family: version === 6 ? 'ipv6' : 'ipv4', address, prefix };
}

/** Whether `inner` lies entirely inside one of `outer`. */
export function cidrWithin(inner: string, outer: readonly string[]): boolean {
  const i = parseCIDR(inner);
  return outer.some((o) => {
    const c = parseCIDR(o);
    if (c.family !== i.family || i.prefix < c.prefix) return false;
    const list = new BlockList();
    list.addSubnet(c.address, c.prefix, c.family);
    return list.check(i.address, i.family);
  });
}

function ipv4ToNumber(address: string): number {
  return address.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
}

function numberToIPv4(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

/**
 * The usable host addresses of an IPv4 CIDR in order (the network and broadcast addresses left
 * out for prefixes shorter than /31).
 */
export function ipv4Hosts(cidr: string): { first: number; last: number; at(i: number): string } {
  const c = parseCIDR(cidr);
  if (c.family !== 'ipv4') throw new Error(`not an IPv4 CIDR: ${cidr}`);
  const size = 2 ** (32 - c.prefix);
  const base = ipv4ToNumber(c.address) - (ipv4ToNumber(c.address) % size);
  const first = size > 2 ? base + 1 : base;
  const last = size > 2 ? base + size - 2 : base + size - 1;
  return { first, last, at: (i) => numberToIPv4(first + i) };
}

/** Whether an IPv4 address lies in an IPv4 CIDR. */
export function ipv4InCIDR(address: string, cidr: string): boolean {
  if (isIP(address) !== 4) return false;
  const c = parseCIDR(cidr);
  const list = new BlockList();
  list.addSubnet(c.address, c.prefix, c.family);
  return list.check(address, 'ipv4');
}
