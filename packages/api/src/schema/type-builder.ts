/**
 * The TypeBox node constructors the field vocabulary uses, built here rather than imported from
 * '@sinclair/typebox' at runtime: loading TypeBox's entry point evaluates some two hundred modules
 * (about 10 MB resident in every daemon), while kind declarations need only these few shapes.
 *
 * Every constructor returns exactly the node TypeBox 0.34 returns for the same call (same keys, same
 * `TypeBox.Kind` / `TypeBox.Optional` symbols, options spread first), so TypeBox's static types,
 * guards and compilers keep treating the nodes as their own. schema/type-builder.test.ts compares
 * each constructor with TypeBox's.
 */
import type {
  SchemaOptions,
  ObjectOptions,
  StringOptions,
  NumberOptions,
  ArrayOptions,
  UnsafeOptions,
  TArray,
  TBoolean,
  TInteger,
  TNumber,
  TObject,
  TOptional,
  TProperties,
  TRecord,
  TSchema,
  TString,
  TUnion,
  TUnknown,
  TUnsafe,
} from '@sinclair/typebox';

/** TypeBox's kind symbol (registered globally, shared with the library). */
const KindSymbol = Symbol.for('TypeBox.Kind');
/** TypeBox's optional-property marker. */
const OptionalSymbol = Symbol.for('TypeBox.Optional');
/** The key pattern TypeBox gives a record keyed by any string. */
const anyStringKey = '^(.*)$';

function create<T>(schema: object, options?: object): T {
  return (options !== undefined ? { ...options, ...schema } : schema) as T;
}

function isOptional(node: TSchema): boolean {
  return (node as unknown as Record<symbol, unknown>)[OptionalSymbol] === 'Optional';
}

export const Type = {
  String(options?: StringOptions): TString {
    return create({ [KindSymbol]: 'String', type: 'string' }, options);
  },
  Integer(options?: NumberOptions): TInteger {
    return create({ [KindSymbol]: 'Integer', type: 'integer' }, options);
  },
  Number(options?: NumberOptions): TNumber {
    return create({ [KindSymbol]: 'Number', type: 'number' }, options);
  },
  Boolean(options?: SchemaOptions): TBoolean {
    return create({ [KindSymbol]: 'Boolean', type: 'boolean' }, options);
  },
  Unknown(options?: SchemaOptions): TUnknown {
    return create({ [KindSymbol]: 'Unknown' }, options);
  },
  Unsafe<T>(options: UnsafeOptions = {}): TUnsafe<T> {
    const kind = (options as Record<symbol, unknown>)[KindSymbol] ?? 'Unsafe';
    return create({ [KindSymbol]: kind }, options);
  },
  Array<T extends TSchema>(items: T, options?: ArrayOptions): TArray<T> {
    return create({ [KindSymbol]: 'Array', type: 'array', items }, options);
  },
  /** A record keyed by any string (TypeBox's `Record(String(), value)`). */
  Record<T extends TSchema>(_key: TString, value: T, options: ObjectOptions = {}): TRecord<TString, T> {
    return create(
      { [KindSymbol]: 'Record', type: 'object', patternProperties: { [anyStringKey]: value } },
      options,
    );
  },
  Optional<T extends TSchema>(schema: T): TOptional<T> {
    return { ...schema, [OptionalSymbol]: 'Optional' } as TOptional<T>;
  },
  Union<T extends TSchema[]>(types: [...T], options?: SchemaOptions): TUnion<T> {
    if (types.length === 0) return create({ [KindSymbol]: 'Never', not: {} }, options);
    if (types.length === 1) return create(types[0]!, options);
    return create({ [KindSymbol]: 'Union', anyOf: types }, options);
  },
  Object<P extends TProperties>(properties: P, options?: ObjectOptions): TObject<P> {
    const required = Object.keys(properties).filter((key) => !isOptional(properties[key]!));
    const schema =
      required.length > 0
        ? { [KindSymbol]: 'Object', type: 'object', required, properties }
        : { [KindSymbol]: 'Object', type: 'object', properties };
    return create(schema, options);
  },
};
