import { getScaledValueFromIntOrPercent, IntOrStringError, IntOrStringValue } from './scaledValue';

describe('getScaledValueFromIntOrPercent', () => {
  it.each<[IntOrStringValue, number, boolean, number]>([
    [123, 0, false, 123],
    [123, 1000, true, 123],
    [0, 10, true, 0],
    ['90%', 100, true, 90],
    ['90%', 95, true, 86],
    ['90%', 95, false, 85],
    ['25%', 1, true, 1],
    ['25%', 1, false, 0],
    ['25%', 10, true, 3],
    ['25%', 10, false, 2],
    ['100%', 7, false, 7],
    ['0%', 7, true, 0],
    ['150%', 4, true, 6],
    ['-90%', 100, true, -90],
    ['-25%', 10, true, -2],
    ['-25%', 10, false, -3],
    ['+10%', 10, true, 1],
    ['010%', 10, true, 1],
    // value*total is computed before dividing by 100, so these stay exact.
    ['33%', 300, true, 99],
    ['29%', 100, true, 29],
  ])('%j of %d (roundUp=%j) = %d', (value, total, roundUp, expected) => {
    expect(getScaledValueFromIntOrPercent(value, total, roundUp)).toBe(expected);
  });

  it.each<[IntOrStringValue | null | undefined, string]>([
    [null, 'nil value for IntOrString'],
    [undefined, 'nil value for IntOrString'],
    ['90', 'invalid value for IntOrString: invalid type: string is not a percentage'],
    ['x', 'invalid value for IntOrString: invalid type: string is not a percentage'],
    ['90#', 'invalid value for IntOrString: invalid type: string is not a percentage'],
    ['', 'invalid value for IntOrString: invalid type: string is not a percentage'],
    ['%', 'invalid value for IntOrString: invalid value "%": strconv.Atoi: parsing "": invalid syntax'],
    ['#%', 'invalid value for IntOrString: invalid value "#%": strconv.Atoi: parsing "#": invalid syntax'],
    ['x%', 'invalid value for IntOrString: invalid value "x%": strconv.Atoi: parsing "x": invalid syntax'],
    [
      '1.5%',
      'invalid value for IntOrString: invalid value "1.5%": strconv.Atoi: parsing "1.5": invalid syntax',
    ],
    [' 5%', 'invalid value for IntOrString: invalid value " 5%": strconv.Atoi: parsing " 5": invalid syntax'],
    ['5%%', 'invalid value for IntOrString: invalid value "5%%": strconv.Atoi: parsing "5%": invalid syntax'],
    [
      '99999999999999999999%',
      'invalid value for IntOrString: invalid value "99999999999999999999%": strconv.Atoi: parsing "99999999999999999999": value out of range',
    ],
    [
      {} as unknown as IntOrStringValue,
      'invalid value for IntOrString: invalid type: neither int nor percentage',
    ],
  ])('%j is rejected', (value, message) => {
    expect(() => getScaledValueFromIntOrPercent(value, 10, true)).toThrow(IntOrStringError);
    expect(() => getScaledValueFromIntOrPercent(value, 10, true)).toThrow(
      expect.objectContaining({ message }) as unknown as Error,
    );
  });
});
