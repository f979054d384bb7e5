import { cidrWithin, ipv4Hosts, ipv4InCIDR, parseCIDR } from './cidr';

test('parseCIDR reads IPv4 and IPv6 CIDRs and rejects anything else', () => {
  expect(parseCIDR('10.244.0.0/16')).toEqual({ family: 'ipv4', address: '10.244.0.0', prefix: 16 });
  expect(parseCIDR('fd00::/48')).toEqual({ family: 'ipv6', address: 'fd00::', prefix: 48 });
  for (const bad of ['10.0.0.0', '10.0.0.0/33', '10.0.0.0/x', 'host/8', 'fd00::/129', '1.2.3.4/8/1'])
    expect(() => parseCIDR(bad)).toThrow(`invalid CIDR address: ${bad}`);
});

test('cidrWithin: a subnet of the same family no larger than one of the outer ranges', () => {
  expect(cidrWithin('10.244.3.0/24', ['10.244.0.0/16'])).toBe(true);
  expect(cidrWithin('10.244.0.0/16', ['10.244.0.0/16'])).toBe(true);
  expect(cidrWithin('10.0.0.0/8', ['10.244.0.0/16'])).toBe(false);
  expect(cidrWithin('10.245.0.0/24', ['10.244.0.0/16'])).toBe(false);
  expect(cidrWithin('fd00:0:0:1::/64', ['10.244.0.0/16', 'fd00::/48'])).toBe(true);
  expect(cidrWithin('10.244.0.0/24', [])).toBe(false);
});

test('ipv4Hosts leaves out network and broadcast addresses except for /31 and /32', () => {
  const pool = ipv4Hosts('127.0.1.0/24');
  expect(pool.at(0)).toBe('127.0.1.1');
  expect(pool.last - pool.first + 1).toBe(254);
  expect(pool.at(253)).toBe('127.0.1.254');
  // A base address inside the range counts from the range's start.
  expect(ipv4Hosts('127.0.1.77/30').at(0)).toBe('127.0.1.77');
  const single = ipv4Hosts('127.0.9.9/32');
  expect([single.first === single.last, single.at(0)]).toEqual([true, '127.0.9.9']);
  expect(ipv4Hosts('127.0.9.8/31').at(1)).toBe('127.0.9.9');
  expect(() => ipv4Hosts('fd00::/64')).toThrow('not an IPv4 CIDR');
});

test('ipv4InCIDR', () => {
  expect(ipv4InCIDR('127.0.1.200', '127.0.1.0/24')).toBe(true);
  expect(ipv4InCIDR('127.0.2.1', '127.0.1.0/24')).toBe(false);
  expect(ipv4InCIDR('not-an-ip', '127.0.1.0/24')).toBe(false);
});
