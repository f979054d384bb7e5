import { FieldSelectorError } from './escape';
import {
  checkSelectableFields,
  everythingFields,
  fieldSelectorFromSet,
  FieldSet,
  parseFieldSelector,
} from './selector';

describe('parseFieldSelector: canonical string and requirements', () => {
  it.each<[string, string, [string, string, string][]]>([
    ['', '', []],
    [',', '', []],
    ['a=b', 'a=b', [['a', '=', 'b']]],
    ['a==b', 'a=b', [['a', '=', 'b']]],
    ['a!=b', 'a!=b', [['a', '!=', 'b']]],
    ['a=', 'a=', [['a', '=', '']]],
    ['=b', '=b', [['', '=', 'b']]],
    [
      'c=d,a=b',
      'a=b,c=d',
      [
        ['a', '=', 'b'],
        ['c', '=', 'd'],
      ],
    ],
    [
      'a=b,c!=d,e==f',
      'a=b,c!=d,e=f',
      [
        ['a', '=', 'b'],
        ['c', '!=', 'd'],
        ['e', '=', 'f'],
      ],
    ],
    [
      'x=a,,y=b',
      'x=a,y=b',
      [
        ['x', '=', 'a'],
        ['y', '=', 'b'],
      ],
    ],
    ['metadata.name=web', 'metadata.name=web', [['metadata.name', '=', 'web']]],
    ['spec.nodeName=', 'spec.nodeName=', [['spec.nodeName', '=', '']]],
    ['a=b\\,c', 'a=b\\,c', [['a', '=', 'b,c']]],
    ['a=b\\=c', 'a=b\\=c', [['a', '=', 'b=c']]],
    ['a=b\\\\c', 'a=b\\\\c', [['a', '=', 'b\\c']]],
    [
      'a=\\,,b=\\=',
      'a=\\,,b=\\=',
      [
        ['a', '=', ','],
        ['b', '=', '='],
      ],
    ],
    // Spaces are kept: they are part of field names and values.
    [' a = b ', ' a = b ', [[' a ', '=', ' b ']]],
    // The first operator wins, scanning left to right.
    ['a!b=c', 'a!b=c', [['a!b', '=', 'c']]],
    ['a=!b', 'a=!b', [['a', '=', '!b']]],
  ])('%j', (input, canonical, reqs) => {
    const s = parseFieldSelector(input);
    expect(s.toString()).toBe(canonical);
    expect(s.empty()).toBe(reqs.length === 0);
    expect(s.requirements().map((r) => [r.field, r.operator, r.value])).toEqual(reqs);
    expect(parseFieldSelector(canonical).toString()).toBe(canonical);
  });

  it.each<[string, string]>([
    ['a', "invalid selector: 'a'; can't understand 'a'"],
    ['a=b,c', "invalid selector: 'a=b,c'; can't understand 'c'"],
    ['a!b', "invalid selector: 'a!b'; can't understand 'a!b'"],
    ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
    ['a==b==c', 'invalid field selector: unescaped character in value: 61'],
    ['a!=b!=c', 'invalid field selector: unescaped character in value: 61'],
    ['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
    ['a=\\b', 'invalid field selector: invalid escape sequence: \\b'],
    // The field name is not unescaped: the '=' after the backslash still splits the term.
    ['a\\=b=c', 'invalid field selector: unescaped character in value: 61'],
  ])('%j is rejected', (input, message) => {
    expect(() => parseFieldSelector(input)).toThrow(FieldSelectorError);
    expect(() => parseFieldSelector(input)).toThrow(message);
  });
});

describe('FieldsSelector.matches', () => {
  const pod: FieldSet = {
    'metadata.name': 'web-1',
    'metadata.namespace': 'default',
    'spec.nodeName': '',
    'status.phase': 'Running',
  };
  it.each<[string, FieldSet | undefined, boolean]>([
    ['', pod, true],
    ['', undefined, true],
    ['metadata.name=web-1', pod, true],
    ['metadata.name==web-1', pod, true],
    ['metadata.name=web-2', pod, false],
    ['metadata.name!=web-2', pod, true],
    ['metadata.name!=web-1', pod, false],
    ['metadata.name=web-1,status.phase=Running', pod, true],
    ['metadata.name=web-1,status.phase!=Running', pod, false],
    ['spec.nodeName=', pod, true],
    ['spec.nodeName!=', pod, false],
    // A missing field reads as ''.
    ['spec.missing=', pod, true],
    ['spec.missing!=x', pod, true],
    ['spec.missing=x', pod, false],
    ['metadata.name=web-1', undefined, false],
    ['constructor=', {}, true],
  ])('%j on pod → %j', (selector, fields, expected) => {
    expect(parseFieldSelector(selector).matches(fields)).toBe(expected);
  });
});

describe('other field selector helpers', () => {
  it('requiresExactMatch', () => {
    const s = parseFieldSelector('metadata.name=a,spec.nodeName!=b,status.phase==c');
    expect(s.requiresExactMatch('metadata.name')).toBe('a');
    expect(s.requiresExactMatch('status.phase')).toBe('c');
    expect(s.requiresExactMatch('spec.nodeName')).toBeUndefined();
    expect(s.requiresExactMatch('metadata.namespace')).toBeUndefined();
  });

  it('fieldSelectorFromSet', () => {
    const s = fieldSelectorFromSet({ 'spec.nodeName': 'n1', 'metadata.name': 'a,b' });
    expect(s.toString()).toBe('metadata.name=a\\,b,spec.nodeName=n1');
    expect(s.matches({ 'spec.nodeName': 'n1', 'metadata.name': 'a,b' })).toBe(true);
    expect(fieldSelectorFromSet({})).toBe(everythingFields());
    expect(fieldSelectorFromSet(null).empty()).toBe(true);
  });

  it('transform rewrites terms', () => {
    const s = parseFieldSelector('name=a,host!=b').transform((field, value) => ({
      field: field === 'name' ? 'metadata.name' : field === 'host' ? 'spec.nodeName' : field,
      value,
    }));
    expect(s.toString()).toBe('spec.nodeName!=b,metadata.name=a');
    expect(s.matches({ 'metadata.name': 'a', 'spec.nodeName': 'c' })).toBe(true);
  });

  it('checkSelectableFields', () => {
    const selectable = new Set(['metadata.name', 'metadata.namespace', 'spec.nodeName']);
    expect(() =>
      checkSelectableFields(parseFieldSelector('metadata.name=a,spec.nodeName='), selectable),
    ).not.toThrow();
    expect(() => checkSelectableFields(parseFieldSelector('metadata.name=a,spec.foo=b'), selectable)).toThrow(
      'field label not supported: spec.foo',
    );
  });
});
