import { cronErrors } from '../validation/formats';

describe('CronJob schedules as Kubernetes reads them', () => {
  it.each([
    '*/5 * * * *',
    '0 0 * * 0-6',
    '15,45 9-17 * JAN-MAR mon-fri',
    '0 0 1/2 * *',
    '? * * * ?',
    '0 0 * * SUN',
    // days that never come make a schedule that never runs, not an invalid one
    '0 0 31 2 *',
    '0 0 30 2 *',
    '@daily',
    '@every 1h30m',
  ])('accepts %s', (schedule) => {
    expect(cronErrors(schedule)).toEqual([]);
  });

  it.each([
    ['0 0 * * 7', 'end of range (7) above maximum (6): 7'],
    ['0 0 * * 0-7', 'end of range (7) above maximum (6): 0-7'],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['0 0 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['0 0 5-1 * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['0 0 L * *', 'failed to parse int from L: strconv.Atoi: parsing "L": invalid syntax'],
    ['0 0 * * 5#3', 'failed to parse int from 5#3: strconv.Atoi: parsing "5#3": invalid syntax'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['*/2/3 * * * *', 'too many slashes: */2/3'],
    ['every minute', 'Expected exactly 5 fields, found 2: every minute'],
  ])('refuses %s: %s', (schedule, message) => {
    expect(cronErrors(schedule)).toEqual([message]);
  });
});
