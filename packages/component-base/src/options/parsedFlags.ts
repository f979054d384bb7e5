import type { FlagSpec } from './flagSpec';
import { FlagError } from './flagError';
import { flagCodec, type FlagType, type FlagTypeMap } from './flagTypes';

/** The parsed, typed values of every declared flag (defaults for those not given). */
export class ParsedFlags {
  private readonly values = new Map<string, unknown>();
  private readonly explicitly = new Set<string>();

  constructor(private readonly specs: ReadonlyMap<string, FlagSpec>) {
    for (const spec of specs.values()) this.values.set(spec.name, structuredClone(spec.default));
  }

  /** The declaration of a flag, or undefined. */
  spec(name: string): FlagSpec | undefined {
    return this.specs.get(name);
  }

  /** Every declaration, in declaration order. */
  allSpecs(): FlagSpec[] {
    return [...this.specs.values()];
  }

  /** True when the flag is declared. */
  has(name: string): boolean {
    return this.specs.has(name);
  }

  /** True when the flag was given on the command line. */
  changed(name: string): boolean {
    return this.explicitly.has(name);
  }

  /** Parses `text` into the flag as one command-line occurrence (lists append after the first). */
  setText(name: string, text: string): void {
    const spec = this.require(name);
    const codec = flagCodec(spec.type);
    const previous = this.explicitly.has(name) ? this.values.get(name) : undefined;
    let value: unknown;
    try {
      value = codec.parse(text, previous as never);
    } catch (err) {
      throw new FlagError(
        `invalid argument "${text}" for "${flagDisplayName(spec)}" flag: ${(err as Error).message}`,
      );
    }
    this.values.set(name, value);
    this.explicitly.add(name);
  }

  /** Replaces a value without marking the flag as given (used for config files). */
  setDefault(name: string, value: unknown): void {
    this.require(name);
    this.values.set(name, value);
  }

  /** The value of a flag, checked against the expected type. */
  get<T extends FlagType>(name: string, type: T): FlagTypeMap[T] {
    const spec = this.require(name);
    if (spec.type !== type) throw new Error(`flag --${name} is of type ${spec.type}, not ${type}`);
    return this.values.get(name) as FlagTypeMap[T];
  }

  /** The value of a flag whatever its type. */
  value(name: string): unknown {
    this.require(name);
    return this.values.get(name);
  }

  bool(name: string): boolean {
    return this.get(name, 'bool');
  }

  string(name: string): string {
    const spec = this.require(name);
    if (spec.type === 'string' || spec.type === 'ip' || spec.type === 'cidr')
      return this.values.get(name) as string;
    throw new Error(`flag --${name} is of type ${spec.type}, not string`);
  }

  strings(name: string): string[] {
    const spec = this.require(name);
    if (spec.type === 'stringList' || spec.type === 'cidrList') return this.values.get(name) as string[];
    throw new Error(`flag --${name} is of type ${spec.type}, not a string list`);
  }

  /** Numeric flags (int, int32, uint, float32, float, level, severity). */
  number(name: string): number {
    const spec = this.require(name);
    if (['int', 'int32', 'uint', 'float32', 'float', 'level', 'severity'].includes(spec.type)) {
      return this.values.get(name) as number;
    }
    throw new Error(`flag --${name} is of type ${spec.type}, not a number`);
  }

  /** Duration flags, in milliseconds. */
  duration(name: string): number {
    return this.get(name, 'duration');
  }

  /** The printed form of a flag's current value. */
  format(name: string): string {
    const spec = this.require(name);
    return flagCodec(spec.type).format(this.values.get(name) as never);
  }

  /** Every value keyed by flag name. */
  toObject(): Record<string, unknown> {
    return Object.fromEntries(this.values);
  }

  private require(name: string): FlagSpec {
    const spec = this.specs.get(name);
    if (!spec) throw new Error(`flag --${name} is not declared`);
    return spec;
  }
}

/** `--name` as users type it. */
export function flagDisplayName(spec: FlagSpec): string {
  return `--${spec.name}`;
}
