import { isQualifiedName, isValidLabelValue } from '../names/identifiers';
import { aggregate, invalidValue, LabelSelectorError, unsupportedValue } from './errors';

/** Labels of an object: key to value. */
export type LabelSet = Readonly<Record<string, string>>;

/** Operators of a requirement, spelled as Kubernetes' selection.Operator. */
export type LabelOperator = '!' | '=' | '==' | 'in' | '!=' | 'notin' | 'exists' | 'gt' | 'lt';

/** Every operator, in the order Kubernetes lists them in "supported values". */
export const LABEL_OPERATORS: readonly LabelOperator[] = [
  'in',
  'notin',
  '=',
  '==',
  '!=',
  'exists',
  '!',
  'gt',
  'lt',
];

const hasOwn = Object.prototype.hasOwnProperty;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** Sets are used for values lists longer than this; short lists are scanned. */
const SET_THRESHOLD = 8;

/** Whether `s` is an optional sign and at least one decimal digit (scanned without a regex: hot path). */
function isDecimalInteger(s: string): boolean {
  const n = s.length;
  let i = 0;
  if (n > 0 && (s.charCodeAt(0) === 43 || s.charCodeAt(0) === 45)) i = 1;
  if (i === n) return false;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** strconv.ParseInt(s, 10, 64): the value, or undefined when `s` is not a base-10 int64. */
export function parseInt64(s: string): bigint | undefined {
  if (!isDecimalInteger(s)) return undefined;
  const v = BigInt(s);
  return v < INT64_MIN || v > INT64_MAX ? undefined : v;
}

function keyError(key: string, path: string | undefined): string | undefined {
  const errs = isQualifiedName(key);
  return errs.length === 0 ? undefined : invalidValue(path, key, errs.join('; '));
}

/** Validates a label key the way the selector parser does (no field path: `<nil>: Invalid value: ...`). */
export function validateLabelKey(key: string, path?: string): void {
  const err = keyError(key, path);
  if (err !== undefined) throw new LabelSelectorError(err);
}

function child(path: string | undefined, name: string): string {
  return path === undefined || path === '' ? name : `${path}.${name}`;
}

/**
 * One requirement of a label selector: `key op values`. Immutable; construct with
 * {@link newRequirement}, which validates like Kubernetes' labels.NewRequirement.
 */
export class LabelRequirement {
  private readonly valueSet: ReadonlySet<string> | undefined;
  /** gt/lt operand, exact; `undefined` when the value is not an int64 (the requirement then matches nothing). */
  private readonly bound: bigint | undefined;
  /** The operand as a number when exactly representable, for the common fast comparison. */
  private readonly boundNumber: number | undefined;
  private text: string | undefined;

  /** @internal use {@link newRequirement}; this constructor does not validate. */
  constructor(
    readonly key: string,
    readonly operator: LabelOperator,
    readonly values: readonly string[],
  ) {
    this.valueSet = values.length > SET_THRESHOLD ? new Set(values) : undefined;
    if ((operator === 'gt' || operator === 'lt') && values.length === 1) {
      this.bound = parseInt64(values[0]!);
      this.boundNumber =
        this.bound !== undefined && this.bound >= -(2n ** 53n) && this.bound <= 2n ** 53n
          ? Number(this.bound)
          : undefined;
    }
  }

  private hasValue(v: string): boolean {
    if (this.valueSet !== undefined) return this.valueSet.has(v);
    const vals = this.values;
    for (let i = 0; i < vals.length; i++) if (vals[i] === v) return true;
    return false;
  }

  /** Whether the labels satisfy this requirement. Does not allocate. */
  matches(labels: LabelSet | undefined): boolean {
    const op = this.operator;
    if (labels === undefined || !hasOwn.call(labels, this.key)) {
      return op === 'notin' || op === '!=' || op === '!';
    }
    const value = labels[this.key]!;
    switch (op) {
      case 'in':
      case '=':
      case '==':
        return this.hasValue(value);
      case 'notin':
      case '!=':
        return !this.hasValue(value);
      case 'exists':
        return true;
      case 'gt':
      case 'lt':
        return this.compare(value);
      default:
        return false;
    }
  }

  private compare(value: string): boolean {
    if (this.bound === undefined || !isDecimalInteger(value)) return false;
    const gt = this.operator === 'gt';
    // Up to 15 digits (plus sign) a number is exact; skip the bigint then.
    if (value.length <= 15 && this.boundNumber !== undefined) {
      const n = Number(value);
      return gt ? n > this.boundNumber : n < this.boundNumber;
    }
    const v = parseInt64(value);
    if (v === undefined) return false;
    return gt ? v > this.bound : v < this.bound;
  }

  /** Kubernetes' string form: `a=b`, `a!=b`, `a in (x,y)`, `!a`, `a>1`; values sorted. */
  toString(): string {
    if (this.text !== undefined) return this.text;
    let s = this.operator === '!' ? '!' + this.key : this.key;
    switch (this.operator) {
      case '=':
        s += '=';
        break;
      case '==':
        s += '==';
        break;
      case '!=':
        s += '!=';
        break;
      case 'in':
        s += ' in (';
        break;
      case 'notin':
        s += ' notin (';
        break;
      case 'gt':
        s += '>';
        break;
      case 'lt':
        s += '<';
        break;
      default:
        return (this.text = s);
    }
    s += this.values.length === 1 ? this.values[0] : [...this.values].sort().join(',');
    if (this.operator === 'in' || this.operator === 'notin') s += ')';
    return (this.text = s);
  }
}

/**
 * A validated requirement (labels.NewRequirement). Throws {@link LabelSelectorError} with
 * Kubernetes' aggregated field errors, e.g.
 * `values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty`.
 * `path` prefixes the field paths (none by default, as in Kubernetes' parser).
 */
export function newRequirement(
  key: string,
  operator: LabelOperator,
  values: readonly string[] | undefined,
  path?: string,
): LabelRequirement {
  const errs: string[] = [];
  const kErr = keyError(key, child(path, 'key'));
  if (kErr !== undefined) errs.push(kErr);
  const valuesPath = child(path, 'values');
  const vals = values ?? [];
  switch (operator) {
    case 'in':
    case 'notin':
      if (vals.length === 0) {
        errs.push(invalidValue(valuesPath, values, "for 'in', 'notin' operators, values set can't be empty"));
      }
      break;
    case '=':
    case '==':
    case '!=':
      if (vals.length !== 1) {
        errs.push(invalidValue(valuesPath, values, 'exact-match compatibility requires one single value'));
      }
      break;
    case 'exists':
    case '!':
      if (vals.length !== 0) {
        errs.push(invalidValue(valuesPath, values, 'values set must be empty for exists and does not exist'));
      }
      break;
    case 'gt':
    case 'lt':
      if (vals.length !== 1) {
        errs.push(
          invalidValue(valuesPath, values, "for 'Gt', 'Lt' operators, exactly one value is required"),
        );
      }
      for (let i = 0; i < vals.length; i++) {
        if (parseInt64(vals[i]!) === undefined) {
          errs.push(
            invalidValue(
              `${valuesPath}[${i}]`,
              vals[i],
              "for 'Gt', 'Lt' operators, the value must be an integer",
            ),
          );
        }
      }
      break;
    default:
      errs.push(unsupportedValue(child(path, 'operator'), operator, LABEL_OPERATORS));
  }
  for (let i = 0; i < vals.length; i++) {
    const vErrs = isValidLabelValue(vals[i]!);
    if (vErrs.length > 0) errs.push(invalidValue(`${valuesPath}[${i}][${key}]`, vals[i], vErrs.join('; ')));
  }
  if (errs.length > 0) throw new LabelSelectorError(aggregate(errs));
  return new LabelRequirement(key, operator, [...vals]);
}
