import { parseQuantity } from './parse';
import { newMilliQuantity, newQuantity, newScaledQuantity, Quantity } from './quantity';
import { QuantityFormat } from './format';

const q = parseQuantity;

describe('arithmetic', () => {
  it.each<[string, string, string, QuantityFormat]>([
    ['0.1', '0.2', '300m', 'DecimalSI'],
    ['1', '500m', '1500m', 'DecimalSI'],
    ['100m', '900m', '1', 'DecimalSI'],
    ['1Gi', '512Mi', '1536Mi', 'BinarySI'],
    ['512Mi', '512Mi', '1Gi', 'BinarySI'],
    ['0', '1Gi', '1Gi', 'BinarySI'],
    ['1Gi', '1', '1073741825', 'BinarySI'],
    ['1', '1Ki', '1025', 'DecimalSI'],
    ['1n', '1', '1000000001n', 'DecimalSI'],
    ['1e3', '1', '1001', 'DecimalExponent'],
    ['-1', '1', '0', 'DecimalSI'],
    ['4Ei', '4Ei', '8Ei', 'BinarySI'],
    ['123456789012345678901234567890', '1', '123456789012345678901234567891', 'DecimalSI'],
  ])('%j + %j = %j', (a, b, sum, format) => {
    const r = q(a).add(q(b));
    expect(r.toString()).toBe(sum);
    expect(r.format).toBe(format);
  });

  it.each<[string, string, string]>([
    ['1', '2', '-1'],
    ['1Gi', '1Gi', '0'],
    ['1Gi', '512Mi', '512Mi'],
    ['1', '100m', '900m'],
    ['0.3', '0.1', '200m'],
    ['0', '1Gi', '-1Gi'],
  ])('%j - %j = %j', (a, b, diff) => {
    expect(q(a).sub(q(b)).toString()).toBe(diff);
  });

  it('neg keeps the format', () => {
    expect(q('100m').neg().toString()).toBe('-100m');
    expect(q('1Gi').neg().toString()).toBe('-1Gi');
    expect(q('-1Gi').neg().format).toBe('BinarySI');
    expect(q('0').neg().toString()).toBe('0');
  });

  it('does not change its operands', () => {
    const a = q('1');
    a.add(q('1'));
    a.sub(q('1'));
    a.neg();
    expect(a.toString()).toBe('1');
  });

  it.each<[string, string, -1 | 0 | 1]>([
    ['1', '1000m', 0],
    ['1Ki', '1024', 0],
    ['1k', '1Ki', -1],
    ['1Ki', '1k', 1],
    ['-1', '1', -1],
    ['0', '-0', 0],
    ['1n', '0', 1],
    ['-1n', '0', -1],
    ['100m', '0.1', 0],
    ['1e3', '1k', 0],
    ['1e1000000000', '1', 1],
    ['1', '1e1000000000', -1],
    ['-1e1000000000', '1', -1],
    ['-1e1000000000', '-1', -1],
    ['-1', '-1e1000000000', 1],
    ['1e999999999', '1e1000000000', -1],
    ['123456789012345678901234567890', '123456789012345678901234567891', -1],
  ])('cmp(%j, %j) = %j', (a, b, expected) => {
    expect(q(a).cmp(q(b))).toBe(expected);
    expect(q(b).cmp(q(a))).toBe(expected === 0 ? 0 : -expected);
    expect(q(a).equal(q(b))).toBe(expected === 0);
  });
});

describe('values', () => {
  it.each<[string, number, number]>([
    ['0', 0, 0],
    ['1', 1, 1000],
    ['100m', 1, 100],
    ['1m', 1, 1],
    ['1500m', 2, 1500],
    ['1.5', 2, 1500],
    ['-1.5', -2, -1500],
    ['1n', 1, 1],
    ['-1n', -1, -1],
    ['999n', 1, 1],
    ['1000001n', 1, 2],
    ['1Gi', 1073741824, 1073741824000],
    ['1e3', 1000, 1000000],
    ['2k', 2000, 2000000],
    ['9223372036854775807', Number(2n ** 63n - 1n), Number((2n ** 63n - 1n) * 1000n)],
  ])('%j: value %d, milliValue %d', (input, value, milli) => {
    expect(q(input).value()).toBe(value);
    expect(q(input).milliValue()).toBe(milli);
  });

  it('scaledValue and scaledBigInt', () => {
    expect(q('1Gi').scaledValue(6)).toBe(1074);
    expect(q('1500m').scaledValue(-6)).toBe(1500000);
    expect(q('9223372036854775807').scaledBigInt(0)).toBe(9223372036854775807n);
    expect(q('1n').scaledBigInt(-9)).toBe(1n);
    expect(q('1e1000000000').value()).toBe(Infinity);
    expect(q('-1e1000000000').value()).toBe(-Infinity);
    expect(q('1').scaledValue(1000000000)).toBe(1);
  });

  it('isZero and sign', () => {
    for (const z of ['0', '0Mi', '-0', '0.0', '0e9', 'm']) expect(q(z).isZero()).toBe(true);
    expect(q('1n').isZero()).toBe(false);
    expect(q('-1n').sign()).toBe(-1);
    expect(q('0').sign()).toBe(0);
    expect(q('1Ki').sign()).toBe(1);
  });

  it('asApproximateFloat64', () => {
    expect(q('1.5').asApproximateFloat64()).toBe(1.5);
    expect(q('100m').asApproximateFloat64()).toBeCloseTo(0.1, 12);
    expect(q('1Gi').asApproximateFloat64()).toBe(1073741824);
    expect(q('1e3').asApproximateFloat64()).toBe(1000);
  });

  it('serializes as its string', () => {
    expect(JSON.stringify({ cpu: q('0.5'), memory: q('1024Mi') })).toBe('{"cpu":"500m","memory":"1Gi"}');
  });
});

describe('constructors', () => {
  it.each<[Quantity, string]>([
    [newQuantity(0, 'DecimalSI'), '0'],
    [newQuantity(5, 'BinarySI'), '5'],
    [newQuantity(1024, 'BinarySI'), '1Ki'],
    [newQuantity(1073741824, 'BinarySI'), '1Gi'],
    [newQuantity(300 * 1024 * 1024, 'BinarySI'), '300Mi'],
    [newQuantity(1025, 'BinarySI'), '1025'],
    [newQuantity(1000, 'DecimalSI'), '1k'],
    [newQuantity(12345n, 'DecimalSI'), '12345'],
    [newMilliQuantity(1500, 'DecimalSI'), '1500m'],
    [newMilliQuantity(1000, 'DecimalSI'), '1'],
    [newMilliQuantity(500, 'BinarySI'), '500m'],
    [newScaledQuantity(1, 9), '1G'],
    [newScaledQuantity(1000, 6), '1G'],
    [newScaledQuantity(1000000000, 0), '1G'],
    [newScaledQuantity(1, -3), '1m'],
    [newScaledQuantity(80, -3), '80m'],
    [newScaledQuantity(1080, -3), '1080m'],
    [newScaledQuantity(108, -2), '1080m'],
    [newScaledQuantity(10800, -4), '1080m'],
    [newScaledQuantity(300, 6), '300M'],
    [newScaledQuantity(1, 12), '1T'],
    [newScaledQuantity(1234567, 6), '1234567M'],
    [newScaledQuantity(1234567, -3, 'BinarySI'), '1234567m'],
    [newScaledQuantity(3, 3), '3k'],
    [newScaledQuantity(1, 9, 'DecimalExponent'), '1e9'],
    [newScaledQuantity(1, -3, 'DecimalExponent'), '1e-3'],
    [newScaledQuantity(1000000, 3, 'DecimalExponent'), '1e9'],
    [newScaledQuantity(1, -9), '1n'],
    // Finer than 1n rounds up, as parsing does.
    [newScaledQuantity(1, -12), '1n'],
  ])('%s', (quantity, text) => {
    expect(quantity.toString()).toBe(text);
  });

  it('rejects unsafe numbers', () => {
    expect(() => newQuantity(1.5, 'DecimalSI')).toThrow(RangeError);
    expect(() => newQuantity(2 ** 60, 'DecimalSI')).toThrow(RangeError);
    expect(newQuantity(2n ** 60n, 'BinarySI').toString()).toBe('1Ei');
  });
});
