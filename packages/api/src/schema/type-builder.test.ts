import { Type as TypeBox, Kind, OptionalKind, TypeGuard } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Type } from './type-builder';

/** Own keys, symbols included, with their values: what a node is made of. */
function shape(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(shape);
  if (node === null || typeof node !== 'object') return node;
  return Reflect.ownKeys(node).map((key) => [
    String(key),
    shape((node as Record<string | symbol, unknown>)[key]),
  ]);
}

describe('Type (TypeBox-compatible node constructors)', () => {
  const cases: [string, unknown, unknown][] = [
    ['String', Type.String(), TypeBox.String()],
    ['String with options', Type.String({ format: 'date-time' }), TypeBox.String({ format: 'date-time' })],
    ['Integer', Type.Integer({ format: 'int32' }), TypeBox.Integer({ format: 'int32' })],
    ['Number', Type.Number({ format: 'double' }), TypeBox.Number({ format: 'double' })],
    ['Boolean', Type.Boolean(), TypeBox.Boolean()],
    ['Unknown', Type.Unknown({ type: 'object' }), TypeBox.Unknown({ type: 'object' })],
    [
      'Unsafe',
      Type.Unsafe<string>({ type: 'string', enum: ['a', 'b'] }),
      TypeBox.Unsafe<string>({ type: 'string', enum: ['a', 'b'] }),
    ],
    ['Array', Type.Array(Type.String()), TypeBox.Array(TypeBox.String())],
    [
      'Record',
      Type.Record(Type.String(), Type.Unknown(), { 'x-kubernetes-preserve-unknown-fields': true }),
      TypeBox.Record(TypeBox.String(), TypeBox.Unknown(), {
        'x-kubernetes-preserve-unknown-fields': true,
      }),
    ],
    [
      'Record without options',
      Type.Record(Type.String(), Type.Integer()),
      TypeBox.Record(TypeBox.String(), TypeBox.Integer()),
    ],
    ['Optional', Type.Optional(Type.Boolean()), TypeBox.Optional(TypeBox.Boolean())],
    [
      'Union',
      Type.Union([Type.Integer(), Type.String()], { 'x-kubernetes-int-or-string': true }),
      TypeBox.Union([TypeBox.Integer(), TypeBox.String()], { 'x-kubernetes-int-or-string': true }),
    ],
    ['Union of one', Type.Union([Type.String()]), TypeBox.Union([TypeBox.String()])],
    ['Union of none', Type.Union([]), TypeBox.Union([])],
    [
      'Object with required and optional properties',
      Type.Object(
        { name: Type.String(), replicas: Type.Optional(Type.Integer()) },
        { additionalProperties: true },
      ),
      TypeBox.Object(
        { name: TypeBox.String(), replicas: TypeBox.Optional(TypeBox.Integer()) },
        { additionalProperties: true },
      ),
    ],
    [
      'Object with only optional properties',
      Type.Object({ a: Type.Optional(Type.String()) }),
      TypeBox.Object({ a: TypeBox.Optional(TypeBox.String()) }),
    ],
  ];

  it.each(cases)('%s builds the node TypeBox builds', (_name, ours, theirs) => {
    expect(shape(ours)).toEqual(shape(theirs));
  });

  it('marks nodes with TypeBox’s own symbols, so its guards recognise them', () => {
    const node = Type.Object({ a: Type.Optional(Type.Array(Type.String())), b: Type.Integer() });
    expect(node[Kind]).toBe('Object');
    expect(node.properties.a[OptionalKind]).toBe('Optional');
    expect(TypeGuard.IsObject(node)).toBe(true);
    expect(TypeGuard.IsOptional(node.properties.a)).toBe(true);
    expect(TypeGuard.IsRecord(Type.Record(Type.String(), Type.String()))).toBe(true);
  });

  it('produces schemas TypeBox’s compiler checks as it checks its own', () => {
    const check = TypeCompiler.Compile(
      Type.Object({
        name: Type.String(),
        port: Type.Optional(Type.Union([Type.Integer(), Type.String()])),
        labels: Type.Optional(Type.Record(Type.String(), Type.String())),
      }),
    );
    expect(check.Check({ name: 'x', port: 80, labels: { a: 'b' } })).toBe(true);
    expect(check.Check({ name: 'x', port: 'http' })).toBe(true);
    expect(check.Check({ port: 80 })).toBe(false);
    expect(check.Check({ name: 'x', labels: { a: 1 } })).toBe(false);
    expect(check.Check({ name: 'x', port: 1.5 })).toBe(false);
  });

  it('leaves the node it makes optional unchanged', () => {
    const shared = Type.String();
    const optional = Type.Optional(shared);
    expect(optional).not.toBe(shared);
    expect(OptionalKind in shared).toBe(false);
  });
});
