import { formatDuration, parseDuration } from './duration';

describe('parseDuration', () => {
  it.each([
    ['1m0s', 60_000],
    ['15s', 15_000],
    ['1h30m', 5_400_000],
    ['500ms', 500],
    ['1.5s', 1500],
    ['2h45m30.5s', 9_930_500],
    ['100us', 0.1],
    ['100µs', 0.1],
    ['10ns', 0.00001],
    ['0', 0],
    ['-5s', -5000],
    ['8760h0m0s', 31_536_000_000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBeCloseTo(ms, 9);
  });

  it.each([
    ['', 'time: invalid duration ""'],
    ['5', 'time: missing unit in duration "5"'],
    ['abc', 'time: invalid duration "abc"'],
    ['1d', 'time: invalid duration "1d"'],
    ['1m-1s', 'time: invalid duration "1m-1s"'],
  ])('rejects %j', (text, message) => {
    expect(() => parseDuration(text)).toThrow(message);
  });
});

describe('formatDuration prints Go canonical form', () => {
  it.each([
    [0, '0s'],
    [2_000, '2s'],
    [10_000, '10s'],
    [60_000, '1m0s'],
    [300_000, '5m0s'],
    [5_400_000, '1h30m0s'],
    [43_200_000, '12h0m0s'],
    [31_536_000_000, '8760h0m0s'],
    [1_500, '1.5s'],
    [500, '500ms'],
    [1.5, '1.5ms'],
    [0.001, '1µs'],
    [0.000001, '1ns'],
    [-90_000, '-1m30s'],
  ])('%d ms → %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('round-trips through parseDuration', () => {
    for (const text of ['1m0s', '15s', '1h30m0s', '500ms', '12h0m0s', '3.25s']) {
      expect(formatDuration(parseDuration(text))).toBe(text);
    }
  });
});
