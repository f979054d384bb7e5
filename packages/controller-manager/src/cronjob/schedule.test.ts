import { decideRun, jobNameFor, parseSchedule, unmetScheduleTimes } from './schedule';

const t = (s: string): number => Date.parse(s);

describe('parseSchedule', () => {
  test('five fields', () => {
    expect(parseSchedule('*/15 * * * *').next(t('2024-01-01T00:07:30Z'))).toBe(t('2024-01-01T00:15:00Z'));
    expect(parseSchedule('0 9 * * 1').next(t('2024-01-01T09:00:00Z'))).toBe(t('2024-01-08T09:00:00Z'));
  });

  test('descriptors and @every', () => {
    expect(parseSchedule('@hourly').next(t('2024-01-01T00:00:00Z'))).toBe(t('2024-01-01T01:00:00Z'));
    expect(parseSchedule('@daily').next(t('2024-01-01T10:00:00Z'))).toBe(t('2024-01-02T00:00:00Z'));
    expect(parseSchedule('@weekly').next(t('2024-01-01T00:00:00Z'))).toBe(t('2024-01-07T00:00:00Z'));
    expect(parseSchedule('@every 90s').next(t('2024-01-01T00:00:00.400Z'))).toBe(t('2024-01-01T00:01:30Z'));
  });

  test('in a time zone', () => {
    // 09:00 in New York is 14:00 UTC in winter and 13:00 UTC in summer
    const nineInNewYork = parseSchedule('0 9 * * *', 'America/New_York');
    expect(nineInNewYork.next(t('2024-01-01T00:00:00Z'))).toBe(t('2024-01-01T14:00:00Z'));
    expect(nineInNewYork.next(t('2024-07-01T00:00:00Z'))).toBe(t('2024-07-01T13:00:00Z'));
    expect(parseSchedule('0 9 * * *').next(t('2024-01-01T00:00:00Z'))).toBe(t('2024-01-01T09:00:00Z'));
    expect(() => parseSchedule('0 9 * * *', 'Mars/Olympus_Mons')).toThrow(
      'unknown time zone Mars/Olympus_Mons',
    );
  });

  test('rejects what the standard parser rejects', () => {
    expect(() => parseSchedule('* * * * * *')).toThrow('expected exactly 5 fields');
    expect(() => parseSchedule('61 * * * *')).toThrow();
    expect(() => parseSchedule('@fortnightly')).toThrow('unrecognized descriptor');
    expect(() => parseSchedule('0 0 * * 7')).toThrow('end of range (7) above maximum (6): 7');
    expect(() => parseSchedule('0 0 L * *')).toThrow('failed to parse int from L');
  });

  test('a schedule whose days never come never runs', () => {
    const never = parseSchedule('0 0 31 2 *');
    expect(never.next(t('2024-01-01T00:00:00Z'))).toBe(Number.POSITIVE_INFINITY);
    expect(
      unmetScheduleTimes(never, t('2024-01-01T00:00:00Z'), t('2030-01-01T00:00:00Z'), undefined),
    ).toEqual([]);
  });
});

describe('unmet schedule times', () => {
  const every = parseSchedule('* * * * *');

  test('every missed minute since the last run', () => {
    expect(
      unmetScheduleTimes(every, t('2024-01-01T00:00:00Z'), t('2024-01-01T00:03:30Z'), undefined),
    ).toEqual([t('2024-01-01T00:01:00Z'), t('2024-01-01T00:02:00Z'), t('2024-01-01T00:03:00Z')]);
    expect(
      unmetScheduleTimes(every, t('2024-01-01T00:00:00Z'), t('2024-01-01T00:00:59Z'), undefined),
    ).toEqual([]);
  });

  test('startingDeadlineSeconds limits how far back runs count', () => {
    expect(unmetScheduleTimes(every, t('2024-01-01T00:00:00Z'), t('2024-01-01T05:00:30Z'), 120)).toEqual([
      t('2024-01-01T04:59:00Z'),
      t('2024-01-01T05:00:00Z'),
    ]);
    // The deadline's own instant is not a run (the next time strictly after it is).
    expect(unmetScheduleTimes(every, t('2024-01-01T00:00:00Z'), t('2024-01-01T05:00:30Z'), 90)).toEqual([
      t('2024-01-01T05:00:00Z'),
    ]);
  });

  test('more than 100 missed start times is an error', () => {
    expect(() =>
      unmetScheduleTimes(every, t('2024-01-01T00:00:00Z'), t('2024-01-01T02:00:00Z'), undefined),
    ).toThrow(
      'too many missed start time (> 100). Set or decrease .spec.startingDeadlineSeconds or check clock skew.',
    );
    expect(
      unmetScheduleTimes(every, t('2024-01-01T00:00:00Z'), t('2024-01-01T01:40:00Z'), undefined),
    ).toHaveLength(100);
  });
});

describe('run decisions with a fake clock', () => {
  const now = t('2024-01-01T00:05:10Z');
  const unmet = [t('2024-01-01T00:04:00Z'), t('2024-01-01T00:05:00Z')];

  test('the latest unmet time runs; Allow overlaps with active jobs', () => {
    expect(decideRun(unmet, now, undefined, 'Allow', 2)).toEqual({
      action: 'start',
      scheduled: unmet[1],
      replaceActive: false,
    });
    expect(decideRun([], now, undefined, 'Allow', 0)).toEqual({ action: 'none' });
  });

  test('Forbid skips while a job is active', () => {
    expect(decideRun(unmet, now, undefined, 'Forbid', 1)).toEqual({
      action: 'forbidden',
      scheduled: unmet[1],
    });
    expect(decideRun(unmet, now, undefined, 'Forbid', 0)).toMatchObject({ action: 'start' });
  });

  test('Replace deletes the active jobs first', () => {
    expect(decideRun(unmet, now, undefined, 'Replace', 1)).toEqual({
      action: 'start',
      scheduled: unmet[1],
      replaceActive: true,
    });
    expect(decideRun(unmet, now, undefined, 'Replace', 0)).toMatchObject({ replaceActive: false });
  });

  test('too late for startingDeadlineSeconds is a missed run', () => {
    expect(decideRun(unmet, now, 5, 'Allow', 0)).toEqual({ action: 'missed', scheduled: unmet[1] });
    expect(decideRun(unmet, now, 10, 'Allow', 0)).toMatchObject({ action: 'start' });
  });

  test('job names are the scheduled minute since the epoch', () => {
    expect(jobNameFor('hello', t('2024-01-01T00:05:00Z'))).toBe('hello-28401125');
  });
});
