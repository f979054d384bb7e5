import {
  isStrictSubnet,
  isValidCIDR,
  isValidIP,
  isValidPercent,
  isValidPortName,
  isValidPortNum,
  parseCIDR,
  parseIPSloppy,
} from './network';

describe('isValidPortName', () => {
  const charset = 'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)';
  const letter = 'must contain at least one letter (a-z)';
  const hyphens = 'must not contain consecutive hyphens';
  const edge = 'must not begin or end with a hyphen';
  it.each<[string, string[]]>([
    ['a', []],
    ['http', []],
    ['a-b', []],
    ['a-1-b', []],
    ['abcdefghijklmno', []],
    ['1a', []],
    ['', [charset, letter]],
    ['1', [letter]],
    ['123', [letter]],
    ['A', [charset, letter]],
    ['HTTP', [charset, letter]],
    ['a_b', [charset]],
    ['a--b', [hyphens]],
    ['-a', [edge]],
    ['a-', [edge]],
    ['-', [letter, edge]],
    ['--', [letter, hyphens, edge]],
    ['abcdefghijklmnop', ['must be no more than 15 characters']],
    ['1234567890123456', ['must be no more than 15 characters', letter]],
  ])('%j', (value, expected) => {
    expect(isValidPortName(value)).toEqual(expected);
  });
});

describe('isValidPortNum', () => {
  it.each<[number, string[]]>([
    [1, []],
    [80, []],
    [65535, []],
    [0, ['must be between 1 and 65535, inclusive']],
    [-1, ['must be between 1 and 65535, inclusive']],
    [65536, ['must be between 1 and 65535, inclusive']],
    [1.5, ['must be between 1 and 65535, inclusive']],
  ])('%j', (value, expected) => {
    expect(isValidPortNum(value)).toEqual(expected);
  });
});

describe('isValidIP', () => {
  const msg = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
  it.each<[string, 4 | 6 | undefined]>([
    ['1.2.3.4', 4],
    ['0.0.0.0', 4],
    ['255.255.255.255', 4],
    ['001.002.003.004', 4],
    ['::', 6],
    ['::1', 6],
    ['2001:db8::ffff', 6],
    ['::ffff:1.2.3.4', 6],
    ['fe80::1%eth0', undefined],
    ['', undefined],
    ['1.2.3', undefined],
    ['1.2.3.4.5', undefined],
    ['256.0.0.0', undefined],
    ['1.2.3.-4', undefined],
    ['1.2.3.4/24', undefined],
    [' 1.2.3.4', undefined],
    ['a.b.c.d', undefined],
    ['2001:db8:::1', undefined],
    ['hostname', undefined],
  ])('%j', (value, family) => {
    expect(parseIPSloppy(value)).toBe(family);
    expect(isValidIP(value)).toEqual(family === undefined ? [msg] : []);
  });
});

describe('isValidPercent', () => {
  const msg =
    "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";
  it.each<[string, string[]]>([
    ['0%', []],
    ['25%', []],
    ['100%', []],
    ['1000%', []],
    ['', [msg]],
    ['%', [msg]],
    ['25', [msg]],
    ['-1%', [msg]],
    ['1.5%', [msg]],
    ['25 %', [msg]],
    ['25%%', [msg]],
  ])('%j', (value, expected) => {
    expect(isValidPercent(value)).toEqual(expected);
  });
});

describe('parseCIDR', () => {
  it.each<[string, ReturnType<typeof parseCIDR>]>([
    ['10.9.8.0/24', { family: 4, network: 0x0a090800n, prefix: 24 }],
    ['10.9.8.7/24', { family: 4, network: 0x0a090800n, prefix: 24 }],
    ['0.0.0.0/0', { family: 4, network: 0n, prefix: 0 }],
    ['2001:db8::/64', { family: 6, network: 0x20010db8n << 96n, prefix: 64 }],
    ['::ffff:10.0.0.1/128', { family: 6, network: (0xffffn << 32n) | 0x0a000001n, prefix: 128 }],
    ['::/0', { family: 6, network: 0n, prefix: 0 }],
    ['10.9.8.0', undefined],
    ['10.9.8.0/33', undefined],
    ['2001:db8::/129', undefined],
    ['10.9.8/24', undefined],
    ['10.9.8.0/x', undefined],
  ])('%s', (value, expected) => {
    expect(parseCIDR(value)).toEqual(expected);
  });

  it('gives the message Kubernetes gives for a bad CIDR', () => {
    expect(isValidCIDR('10.0.0.0/8')).toEqual([]);
    expect(isValidCIDR('10.0.0.0')).toEqual([
      'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ]);
  });

  it.each<[string, string, boolean]>([
    ['10.0.0.0/8', '10.1.0.0/16', true],
    ['10.0.0.0/8', '10.0.0.0/8', false],
    ['10.0.0.0/8', '11.0.0.0/16', false],
    ['10.0.0.0/16', '10.0.0.0/8', false],
    ['2001:db8::/32', '2001:db8:1::/48', true],
    ['2001:db8::/32', '10.0.0.0/16', false],
  ])('%s strictly holds %s: %s', (outer, inner, expected) => {
    expect(isStrictSubnet(outer, inner)).toBe(expected);
  });
});
