import { goKind } from './json-value';

/**
 * How Go's fmt prints decoded JSON with `%v`: strategic merge patch errors embed values printed this
 * way (`map[image:nginx]`), and list diffs order items by their `%v` text.
 *
 * `numbers` says how numbers were decoded: the apiserver keeps integers as int64 ('int64'), while
 * clients decode every number as float64 ('float64', printed `1e+06` from a million on).
 */
export type NumberDecoding = 'int64' | 'float64';

export function goSprint(value: unknown, numbers: NumberDecoding = 'int64'): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) {
    let s = '[';
    for (let i = 0; i < value.length; i++) s += (i === 0 ? '' : ' ') + goSprint(value[i], numbers);
    return s + ']';
  }
  switch (typeof value) {
    case 'object': {
      const map = value as Record<string, unknown>;
      const keys = Object.keys(map).sort();
      return `map[${keys.map((k) => `${k}:${goSprint(map[k], numbers)}`).join(' ')}]`;
    }
    case 'number':
      return numbers === 'int64' && Number.isInteger(value) ? goInt(value) : goFloat(value);
    case 'string':
      return value;
    default:
      return String(value);
  }
}

function goInt(value: number): string {
  return Math.abs(value) < 1e21 ? String(value) : BigInt(value).toString();
}

/** strconv.FormatFloat(v, 'g', -1, 64): shortest digits, exponent form below 1e-4 and from 1e+06. */
export function goFloat(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : value < 0 ? '-Inf' : 'NaN';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa, expText] = value.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    const digits = String(Math.abs(exp)).padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  return String(value);
}

/** The Go type name reflect prints for a decoded JSON value (`%s` of reflect.TypeOf). */
export function goTypeName(value: unknown): string {
  switch (goKind(value)) {
    case 'map':
      return 'map[string]interface {}';
    case 'slice':
      return '[]interface {}';
    case 'nil':
      return '%!s(<nil>)';
    default:
      return goKind(value);
  }
}
