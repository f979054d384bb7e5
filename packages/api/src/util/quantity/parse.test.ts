import {
  parseQuantity,
  QUANTITY_FORMAT_ERROR,
  QUANTITY_SUFFIX_ERROR,
  QuantityError,
  tryParseQuantity,
} from './parse';
import { QuantityFormat } from './format';

describe('parseQuantity: canonical string and format', () => {
  it.each<[string, string, QuantityFormat]>([
    // Zero, in any spelling.
    ['0', '0', 'DecimalSI'],
    ['0n', '0', 'DecimalSI'],
    ['0m', '0', 'DecimalSI'],
    ['0k', '0', 'DecimalSI'],
    ['0Ki', '0', 'BinarySI'],
    ['0e3', '0', 'DecimalExponent'],
    ['-0', '0', 'DecimalSI'],
    ['000', '0', 'DecimalSI'],
    ['0.0', '0', 'DecimalSI'],
    ['m', '0', 'DecimalSI'],
    ['.', '0', 'DecimalSI'],
    ['+', '0', 'DecimalSI'],
    // DecimalSI.
    ['1n', '1n', 'DecimalSI'],
    ['50u', '50u', 'DecimalSI'],
    ['1m', '1m', 'DecimalSI'],
    ['100m', '100m', 'DecimalSI'],
    ['500m', '500m', 'DecimalSI'],
    ['1', '1', 'DecimalSI'],
    ['-1', '-1', 'DecimalSI'],
    ['1.5', '1500m', 'DecimalSI'],
    ['0.1', '100m', 'DecimalSI'],
    ['.5', '500m', 'DecimalSI'],
    ['1000m', '1', 'DecimalSI'],
    ['1000000000m', '1M', 'DecimalSI'],
    ['1000000000n', '1', 'DecimalSI'],
    ['1500m', '1500m', 'DecimalSI'],
    ['1000', '1k', 'DecimalSI'],
    ['1k', '1k', 'DecimalSI'],
    ['500M', '500M', 'DecimalSI'],
    ['1000M', '1G', 'DecimalSI'],
    ['1G', '1G', 'DecimalSI'],
    ['1T', '1T', 'DecimalSI'],
    ['1P', '1P', 'DecimalSI'],
    ['1E', '1E', 'DecimalSI'],
    ['10E', '10E', 'DecimalSI'],
    ['-1.5', '-1500m', 'DecimalSI'],
    ['123456789012345678901234567890', '123456789012345678901234567890', 'DecimalSI'],
    ['0.000000001', '1n', 'DecimalSI'],
    // Finer than 1n rounds up, away from zero.
    ['0.0000000001', '1n', 'DecimalSI'],
    ['-0.0000000001', '-1n', 'DecimalSI'],
    ['1.0000000001', '1000000001n', 'DecimalSI'],
    ['0.1n', '1n', 'DecimalSI'],
    ['1.5n', '2n', 'DecimalSI'],
    // BinarySI.
    ['1Ki', '1Ki', 'BinarySI'],
    ['5Ki', '5Ki', 'BinarySI'],
    ['-1Ki', '-1Ki', 'BinarySI'],
    ['100Mi', '100Mi', 'BinarySI'],
    ['1000Mi', '1000Mi', 'BinarySI'],
    ['1024Mi', '1Gi', 'BinarySI'],
    ['1536Mi', '1536Mi', 'BinarySI'],
    ['8Gi', '8Gi', 'BinarySI'],
    ['1Gi', '1Gi', 'BinarySI'],
    ['0.5Gi', '512Mi', 'BinarySI'],
    ['1.5Gi', '1536Mi', 'BinarySI'],
    ['1.5Ki', '1536', 'BinarySI'],
    ['0.5Ki', '512', 'BinarySI'],
    ['1Ti', '1Ti', 'BinarySI'],
    ['1Pi', '1Pi', 'BinarySI'],
    ['1Ei', '1Ei', 'BinarySI'],
    ['1025Ki', '1025Ki', 'BinarySI'],
    ['123456Gi', '123456Gi', 'BinarySI'],
    // 1.1Ki is 1126.4: not a whole number, so it prints as decimal.
    ['1.1Ki', '1126400m', 'BinarySI'],
    // A fraction of a binary unit below 1 becomes decimal.
    ['0.0001Ki', '102400u', 'DecimalSI'],
    // BinarySI magnitudes are capped at 2^63-1.
    ['8Ei', '9223372036854775807', 'BinarySI'],
    ['16Ei', '9223372036854775807', 'BinarySI'],
    ['-8Ei', '-9223372036854775807', 'BinarySI'],
    ['1024Ei', '9223372036854775807', 'BinarySI'],
    ['7Ei', '7Ei', 'BinarySI'],
    // DecimalExponent.
    ['1e3', '1e3', 'DecimalExponent'],
    ['2e3', '2e3', 'DecimalExponent'],
    ['1e-3', '1e-3', 'DecimalExponent'],
    ['1e-9', '1e-9', 'DecimalExponent'],
    ['1e+3', '1e+3', 'DecimalExponent'],
    ['1E3', '1E3', 'DecimalExponent'],
    ['1e0', '1e0', 'DecimalExponent'],
    ['1.0e0', '1', 'DecimalExponent'],
    ['1e1', '10', 'DecimalExponent'],
    ['1e2', '100', 'DecimalExponent'],
    ['10e2', '1e3', 'DecimalExponent'],
    ['1.5e3', '1500', 'DecimalExponent'],
    ['10e-1', '1', 'DecimalExponent'],
    ['12e-4', '1200e-6', 'DecimalExponent'],
    ['1e30', '1e30', 'DecimalExponent'],
    ['1e-10', '1e-9', 'DecimalExponent'],
    // The exponent is narrowed to 32 bits as Kubernetes does: 2^31 wraps to -2^31, then rounds up to 1n.
    ['1e2147483648', '1e-9', 'DecimalExponent'],
    ['1e2147483647', '10e2147483646', 'DecimalExponent'],
  ])('%j → %j (%s)', (input, canonical, format) => {
    const q = parseQuantity(input);
    expect(q.toString()).toBe(canonical);
    expect(q.format).toBe(format);
    // The canonical form is stable.
    expect(parseQuantity(canonical).toString()).toBe(canonical);
    expect(parseQuantity(canonical).cmp(q)).toBe(0);
  });

  it.each<[string]>([['+1'], ['001'], ['+1Ki'], ['00100m']])(
    '%j is printed as given (Kubernetes keeps text already in canonical units)',
    (input) => {
      expect(parseQuantity(input).toString()).toBe(input);
    },
  );
});

describe('parseQuantity: texts parsed again', () => {
  it('answers the same quantity for a text seen before, also past the texts remembered', () => {
    const first = parseQuantity('250m');
    // odd milli-values are written as they are
    for (let i = 0; i < 5000; i++) expect(parseQuantity(`${2 * i + 1}m`).toString()).toBe(`${2 * i + 1}m`);
    const again = parseQuantity('250m');
    expect(again.toString()).toBe('250m');
    expect(again.cmp(first)).toBe(0);
    expect(parseQuantity('1.5Gi').toString()).toBe('1536Mi');
    expect(parseQuantity('1.5Gi').toString()).toBe('1536Mi');
  });
});

describe('parseQuantity: errors', () => {
  it.each<[string, string]>([
    ['', QUANTITY_FORMAT_ERROR],
    ['abc', QUANTITY_FORMAT_ERROR],
    ['1.2.3', QUANTITY_FORMAT_ERROR],
    [' 1', QUANTITY_FORMAT_ERROR],
    ['1 ', QUANTITY_FORMAT_ERROR],
    ['1Kib', QUANTITY_FORMAT_ERROR],
    ['1e1.5', QUANTITY_FORMAT_ERROR],
    ['1,000', QUANTITY_FORMAT_ERROR],
    ['0x10', QUANTITY_FORMAT_ERROR],
    ['1ki', QUANTITY_SUFFIX_ERROR],
    ['1e', QUANTITY_SUFFIX_ERROR],
    ['1E+', QUANTITY_SUFFIX_ERROR],
    ['1m3', QUANTITY_SUFFIX_ERROR],
    ['1Mi1', QUANTITY_SUFFIX_ERROR],
    ['1ee3', QUANTITY_SUFFIX_ERROR],
    ['1KiB'.slice(0, 3) + 'i', QUANTITY_SUFFIX_ERROR],
    ['--1', QUANTITY_SUFFIX_ERROR],
    ['1e99999999999999999999', QUANTITY_SUFFIX_ERROR],
  ])('%j', (input, message) => {
    expect(() => parseQuantity(input)).toThrow(QuantityError);
    expect(() => parseQuantity(input)).toThrow(message);
    expect(tryParseQuantity(input)).toBeUndefined();
  });

  it('has the exact Kubernetes messages', () => {
    expect(QUANTITY_FORMAT_ERROR).toBe(
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
    expect(QUANTITY_SUFFIX_ERROR).toBe("unable to parse quantity's suffix");
  });
});
