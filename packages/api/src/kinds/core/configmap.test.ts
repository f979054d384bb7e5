import { errorMessage } from '../../validation/field-error';
import { compileKind } from '../../validation/compile-kind';
import { ConfigMapKind, type ConfigMap } from './configmap';

// The checks the API server runs on a create (validate) and an update (validateUpdate).
const compiled = compileKind(ConfigMapKind);
const create = (cm: Partial<ConfigMap>): string[] =>
  compiled
    .validate({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'ns' }, ...cm })
    .map(errorMessage);
const update = (cm: Partial<ConfigMap>, old: Partial<ConfigMap>): string[] => {
  const wrap = (o: Partial<ConfigMap>): ConfigMap => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cfg', namespace: 'ns', uid: 'u1' },
    ...o,
  });
  return compiled.validateUpdate(wrap(cm), wrap(old)).map(errorMessage);
};

const KEY_MSG =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe('ConfigMap validation (ValidateConfigMap)', () => {
  it('accepts valid keys in data and binaryData', () => {
    expect(
      create({ data: { 'key.name': 'x', KEY_NAME: 'y', 'key-name': '' }, binaryData: { '.bin': b64('z') } }),
    ).toEqual([]);
    expect(create({})).toEqual([]);
  });

  it('rejects data keys that are not config keys, with IsConfigMapKey messages', () => {
    expect(create({ data: { 'a/b': 'x' } })).toEqual([`data[a/b]: Invalid value: "a/b": ${KEY_MSG}`]);
    expect(create({ data: { '': 'x' } })).toEqual([`data[]: Invalid value: "": ${KEY_MSG}`]);
    expect(create({ data: { '.': 'x' } })).toEqual([`data[.]: Invalid value: ".": must not be '.'`]);
    expect(create({ data: { '..': 'x' } })).toEqual([`data[..]: Invalid value: "..": must not be '..'`]);
    expect(create({ data: { '..a': 'x' } })).toEqual([
      `data[..a]: Invalid value: "..a": must not start with '..'`,
    ]);
    const long = 'k'.repeat(254);
    expect(create({ data: { [long]: 'x' } })).toEqual([
      `data[${long}]: Invalid value: "${long}": must be no more than 253 characters`,
    ]);
  });

  it('rejects binaryData keys the same way, under binaryData', () => {
    expect(create({ binaryData: { 'a/b': b64('x'), '..': b64('y') } })).toEqual([
      `binaryData[a/b]: Invalid value: "a/b": ${KEY_MSG}`,
      `binaryData[..]: Invalid value: "..": must not be '..'`,
    ]);
  });

  it('rejects a key present in both data and binaryData, on the data key', () => {
    expect(create({ data: { a: 'x', b: 'y' }, binaryData: { a: b64('x') } })).toEqual([
      'data[a]: Invalid value: "a": duplicate of key present in binaryData',
    ]);
  });

  it('bounds data and binaryData together to 1 MiB, reported on the whole object', () => {
    const half = 512 * 1024;
    // data counts UTF-8 bytes, binaryData the decoded bytes (not the base64 text).
    expect(
      create({ data: { a: 'x'.repeat(half) }, binaryData: { b: Buffer.alloc(half).toString('base64') } }),
    ).toEqual([]);
    expect(
      create({ data: { a: 'x'.repeat(half) }, binaryData: { b: Buffer.alloc(half + 1).toString('base64') } }),
    ).toEqual(['[]: Too long: must have at most 1048576 bytes']);
    // 'é' is two bytes in UTF-8.
    expect(create({ data: { a: 'é'.repeat(half + 1) } })).toEqual([
      '[]: Too long: must have at most 1048576 bytes',
    ]);
  });
});

describe('ConfigMap update (ValidateConfigMapUpdate)', () => {
  const frozen: Partial<ConfigMap> = { immutable: true, data: { a: 'one' }, binaryData: { b: b64('two') } };
  const IMMUTABLE = 'Forbidden: field is immutable when `immutable` is set';

  it('lets a mutable ConfigMap change its data and become immutable', () => {
    expect(update({ data: { a: 'changed' } }, { data: { a: 'one' } })).toEqual([]);
    expect(update({ immutable: true, data: { a: 'one' } }, { immutable: false, data: { a: 'one' } })).toEqual(
      [],
    );
  });

  it('freezes data and binaryData once immutable is set', () => {
    expect(update({ ...frozen, data: { a: 'changed' } }, frozen)).toEqual([`data: ${IMMUTABLE}`]);
    expect(update({ ...frozen, data: { a: 'one', extra: 'x' } }, frozen)).toEqual([`data: ${IMMUTABLE}`]);
    expect(update({ ...frozen, data: undefined }, frozen)).toEqual([`data: ${IMMUTABLE}`]);
    expect(update({ ...frozen, binaryData: { b: b64('other') } }, frozen)).toEqual([
      `binaryData: ${IMMUTABLE}`,
    ]);
  });

  it('keeps immutable true', () => {
    expect(update({ ...frozen, immutable: false }, frozen)).toEqual([`immutable: ${IMMUTABLE}`]);
    expect(update({ ...frozen, immutable: undefined }, frozen)).toEqual([`immutable: ${IMMUTABLE}`]);
    expect(update({ immutable: false, data: { a: 'changed' } }, frozen)).toEqual([
      `immutable: ${IMMUTABLE}`,
      `data: ${IMMUTABLE}`,
      `binaryData: ${IMMUTABLE}`,
    ]);
  });

  it('still allows metadata changes of an immutable ConfigMap', () => {
    expect(
      compiled
        .validateUpdate(
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'cfg', namespace: 'ns', labels: { a: 'b' } },
            ...frozen,
          },
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'ns' }, ...frozen },
        )
        .map(errorMessage),
    ).toEqual([]);
  });

  it('validates the new object as on create', () => {
    expect(update({ data: { 'a/b': 'x' } }, {})).toEqual([`data[a/b]: Invalid value: "a/b": ${KEY_MSG}`]);
  });
});

describe('ConfigMap table', () => {
  it('prints NAME DATA AGE, DATA a string column counting the keys of data and binaryData', () => {
    const data = ConfigMapKind.columns![1]!;
    expect([data.name, data.type]).toEqual(['Data', 'string']);
    expect(
      data.cell({ data: { a: 'x', b: 'y' }, binaryData: { c: b64('z') } } as ConfigMap, new Date()),
    ).toBe(3);
  });
});
