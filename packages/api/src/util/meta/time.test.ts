import { formatMicroTime, formatTime, nowMicroTime, nowTime, parseTime } from './time';

describe('formatTime', () => {
  it.each<[Date | number | string, string]>([
    [new Date(Date.UTC(2006, 0, 2, 15, 4, 5)), '2006-01-02T15:04:05Z'],
    [Date.UTC(2006, 0, 2, 15, 4, 5, 999), '2006-01-02T15:04:05Z'],
    [0, '1970-01-01T00:00:00Z'],
    ['2006-01-02T08:04:05-07:00', '2006-01-02T15:04:05Z'],
    [Date.UTC(9999, 11, 31, 23, 59, 59), '9999-12-31T23:59:59Z'],
  ])('%j → %j', (t, text) => {
    expect(formatTime(t)).toBe(text);
  });

  it('rejects invalid times', () => {
    expect(() => formatTime('not a time')).toThrow(RangeError);
  });
});

describe('formatMicroTime', () => {
  it.each<[number, number | undefined, string]>([
    [Date.UTC(2006, 0, 2, 15, 4, 5), undefined, '2006-01-02T15:04:05.000000Z'],
    [Date.UTC(2006, 0, 2, 15, 4, 5, 123), undefined, '2006-01-02T15:04:05.123000Z'],
    [Date.UTC(2006, 0, 2, 15, 4, 5, 123), 456, '2006-01-02T15:04:05.123456Z'],
    [Date.UTC(2006, 0, 2, 15, 4, 5, 1), 7, '2006-01-02T15:04:05.001007Z'],
  ])('%j + %jµs → %j', (t, micros, text) => {
    expect(formatMicroTime(t, micros)).toBe(text);
  });
});

describe('now', () => {
  it('nowTime formats the given clock', () => {
    expect(nowTime(() => Date.UTC(2020, 1, 29, 1, 2, 3, 4))).toBe('2020-02-29T01:02:03Z');
  });

  it('nowMicroTime is the current time with six digits', () => {
    const before = Date.now();
    const text = nowMicroTime();
    const after = Date.now();
    expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    const ms = parseTime(text);
    expect(ms).toBeGreaterThanOrEqual(before - 5);
    expect(ms).toBeLessThanOrEqual(after + 5);
  });
});

describe('parseTime', () => {
  it.each<[string, number]>([
    ['2006-01-02T15:04:05Z', Date.UTC(2006, 0, 2, 15, 4, 5)],
    ['2006-01-02t15:04:05z', Date.UTC(2006, 0, 2, 15, 4, 5)],
    ['2006-01-02T15:04:05.123456Z', Date.UTC(2006, 0, 2, 15, 4, 5, 123)],
    ['2006-01-02T15:04:05.1Z', Date.UTC(2006, 0, 2, 15, 4, 5, 100)],
    ['2006-01-02T08:04:05-07:00', Date.UTC(2006, 0, 2, 15, 4, 5)],
    ['2006-01-02T20:34:05+05:30', Date.UTC(2006, 0, 2, 15, 4, 5)],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
    ['0001-01-01T00:00:00Z', -62135596800000],
  ])('%j', (text, ms) => {
    expect(parseTime(text)).toBe(ms);
  });

  it.each<[string]>([
    [''],
    ['2006-01-02'],
    ['2006-01-02 15:04:05Z'],
    ['2006-01-02T15:04:05'],
    ['2006-13-02T15:04:05Z'],
    ['2023-02-29T00:00:00Z'],
    ['2006-01-02T24:00:00Z'],
    ['2006-01-02T15:04:05.Z'],
  ])('%j is rejected', (text) => {
    expect(() => parseTime(text)).toThrow(RangeError);
  });
});
