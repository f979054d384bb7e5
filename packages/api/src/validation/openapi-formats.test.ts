import { openAPIFormats } from './openapi-formats';

describe('the string formats checked in custom resources', () => {
  it.each([
    [
      'uuid',
      ['6ba7b810-9dad-11d1-80b4-00c04fd430c8', '6BA7B8109DAD11D180B400C04FD430C8'],
      ['6ba7b810', 'not-a-uuid'],
    ],
    ['email', ['a@example.com', 'first.last+tag@sub.example.org'], ['not-an-email', 'a@', '@b', 'a b@c']],
    ['hostname', ['example.com', 'a-b.c', 'localhost'], ['-a.com', 'a_b.com', `${'a'.repeat(64)}.com`]],
    ['ipv4', ['10.0.0.1'], ['10.0.0.256', '::1', 'x']],
    ['ipv6', ['::1', '2001:db8::ffff'], ['10.0.0.1', '2001:db8::g']],
    ['cidr', ['10.0.0.0/8', '2001:db8::/64'], ['10.0.0.0', '10.0.0.0/33']],
    ['mac', ['00:1a:2b:3c:4d:5e', '00-1A-2B-3C-4D-5E'], ['00:1a:2b:3c:4d', 'zz:1a:2b:3c:4d:5e']],
    ['date', ['2024-02-29', '1999-12-31'], ['2024-13-45', '2023-02-29', '2024-1-1']],
  ])('%s', (format, good, bad) => {
    const check = openAPIFormats[format]!;
    for (const v of good) expect([v, check(v)]).toEqual([v, true]);
    for (const v of bad) expect([v, check(v)]).toEqual([v, false]);
  });
});
