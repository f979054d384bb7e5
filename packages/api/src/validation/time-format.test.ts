import { canonicalMicroTimeString, canonicalTimeString, isRFC3339 } from './time-format';

describe('time formats', () => {
  it.each([
    ['2024-02-29T23:59:59Z', '2024-02-29T23:59:59Z'],
    ['2024-02-29T23:59:59.999999999Z', '2024-02-29T23:59:59Z'],
    ['2024-03-01T01:00:00+01:00', '2024-03-01T00:00:00Z'],
    ['2023-12-31T23:30:00-01:00', '2024-01-01T00:30:00Z'],
  ])('Time %s -> %s', (input, expected) => {
    expect(canonicalTimeString(input)).toBe(expected);
  });

  it.each([
    ['2024-01-01T00:00:00Z', '2024-01-01T00:00:00.000000Z'],
    ['2024-01-01T00:00:00.5Z', '2024-01-01T00:00:00.500000Z'],
    ['2024-01-01T02:00:00.1234569+02:00', '2024-01-01T00:00:00.123456Z'],
  ])('MicroTime %s -> %s', (input, expected) => {
    expect(canonicalMicroTimeString(input)).toBe(expected);
  });

  it.each([
    '2023-02-29T00:00:00Z',
    '2024-01-01 00:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-01-01t00:00:00z',
    '2024-01-01T00:00:00',
    '',
  ])('rejects %s', (input) => {
    expect(isRFC3339(input)).toBe(false);
  });

  it('answers the same for a time asked again (valid times are remembered)', () => {
    for (let i = 0; i < 3; i++) {
      expect(isRFC3339('2024-02-29T23:59:59Z')).toBe(true);
      expect(isRFC3339('2023-02-29T00:00:00Z')).toBe(false);
    }
    // more distinct times than are remembered: each still answered by its own parse
    for (let s = 0; s < 5000; s++) {
      const t = new Date(Date.UTC(2024, 0, 1) + s * 1000).toISOString().slice(0, 19) + 'Z';
      expect(isRFC3339(t)).toBe(true);
    }
    expect(isRFC3339('2024-01-01T00:00:60Z')).toBe(false);
  });

  it('cannot canonicalize what does not parse', () => {
    expect(canonicalTimeString('2024-01-01 00:00:00Z')).toBeUndefined();
    expect(canonicalMicroTimeString('yesterday')).toBeUndefined();
  });
});
