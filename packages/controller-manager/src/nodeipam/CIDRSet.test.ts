import { parseCIDR } from '@orch/api';
import { CIDR_RANGE_EXHAUSTED, CIDRSet, formatIP } from './CIDRSet';

function set(cidr: string, mask: number): CIDRSet {
  return new CIDRSet({ ...parseCIDR(cidr)!, text: cidr }, mask);
}

describe('CIDRSet', () => {
  test('hands out the node CIDRs in order, then says the range is exhausted', () => {
    const s = set('10.0.0.0/22', 24);
    expect(s.maxCIDRs).toBe(4);
    expect([s.allocateNext(), s.allocateNext(), s.allocateNext(), s.allocateNext()]).toEqual([
      '10.0.0.0/24',
      '10.0.1.0/24',
      '10.0.2.0/24',
      '10.0.3.0/24',
    ]);
    expect(() => s.allocateNext()).toThrow(CIDR_RANGE_EXHAUSTED);
  });

  test('a released CIDR is free again, handed out after those not used yet', () => {
    const s = set('10.0.0.0/22', 24);
    s.allocateNext();
    s.allocateNext();
    s.release('10.0.0.0/24');
    expect(s.allocated).toBe(1);
    expect(s.allocateNext()).toBe('10.0.2.0/24');
    expect(s.allocateNext()).toBe('10.0.3.0/24');
    expect(s.allocateNext()).toBe('10.0.0.0/24');
    expect(() => s.allocateNext()).toThrow(CIDR_RANGE_EXHAUSTED);
  });

  test('occupied CIDRs are skipped: a node CIDR, a smaller range, a larger range', () => {
    const s = set('10.0.0.0/16', 24);
    s.occupy('10.0.0.0/24');
    s.occupy('10.0.1.128/25');
    expect(s.allocateNext()).toBe('10.0.2.0/24');
    const t = set('10.0.0.0/22', 24);
    t.occupy('10.0.0.0/23');
    expect(t.allocated).toBe(2);
    expect(t.allocateNext()).toBe('10.0.2.0/24');
    const u = set('10.0.0.0/22', 24);
    u.occupy('10.0.0.0/8');
    expect(() => u.allocateNext()).toThrow(CIDR_RANGE_EXHAUSTED);
  });

  test('a CIDR outside the cluster CIDR cannot be occupied or released', () => {
    const s = set('10.0.0.0/16', 24);
    expect(s.overlaps('10.1.0.0/24')).toBe(false);
    expect(s.overlaps('10.0.0.0/8')).toBe(true);
    expect(() => s.occupy('10.1.0.0/24')).toThrow(
      'cidr 10.1.0.0/24 is out the range of cluster cidr 10.0.0.0/16',
    );
    expect(() => s.release('fd00::/64')).toThrow('is out the range of cluster cidr');
  });

  test('IPv6 node CIDRs are printed as Go prints them', () => {
    const s = set('fd00:10::/56', 64);
    expect(s.allocateNext()).toBe('fd00:10::/64');
    expect(s.allocateNext()).toBe('fd00:10:0:1::/64');
    expect(formatIP(6, 1n)).toBe('::1');
    expect(formatIP(6, 0x20010db8000000000001000000000001n)).toBe('2001:db8::1:0:0:1');
    expect(formatIP(4, 0x0a000102n)).toBe('10.0.1.2');
  });
});
