import {
  formatLabels,
  formatLabelSelector,
  labelSelectorAsSelector,
  LabelSelectorLike,
  labelSelectorToString,
  labelSetToString,
  selectorFromSet,
  validatedSelectorFromSet,
} from './labelSelector';
import { newRequirement } from './requirement';
import { everythingLabels, nothingLabels } from './selector';

const QNAME_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('labelSelectorAsSelector', () => {
  it.each<[string, LabelSelectorLike | null | undefined, string, Record<string, string>, boolean]>([
    ['nil selects nothing', null, '', {}, false],
    ['undefined selects nothing', undefined, '', { a: 'b' }, false],
    ['empty selects everything', {}, '', {}, true],
    ['empty lists select everything', { matchLabels: {}, matchExpressions: [] }, '', { a: 'b' }, true],
    ['null lists select everything', { matchLabels: null, matchExpressions: null }, '', {}, true],
    ['matchLabels sorted', { matchLabels: { b: '2', a: '1' } }, 'a=1,b=2', { a: '1', b: '2' }, true],
    ['matchLabels mismatch', { matchLabels: { a: '1' } }, 'a=1', { a: '2' }, false],
    [
      'In',
      { matchExpressions: [{ key: 'k', operator: 'In', values: ['c', 'a'] }] },
      'k in (a,c)',
      { k: 'c' },
      true,
    ],
    [
      'NotIn',
      { matchExpressions: [{ key: 'k', operator: 'NotIn', values: ['a'] }] },
      'k notin (a)',
      {},
      true,
    ],
    ['Exists', { matchExpressions: [{ key: 'k', operator: 'Exists' }] }, 'k', { k: '' }, true],
    [
      'Exists with empty values',
      { matchExpressions: [{ key: 'k', operator: 'Exists', values: [] }] },
      'k',
      {},
      false,
    ],
    ['DoesNotExist', { matchExpressions: [{ key: 'k', operator: 'DoesNotExist' }] }, '!k', {}, true],
    [
      'mixed',
      {
        matchLabels: { foo: 'bar' },
        matchExpressions: [{ key: 'baz', operator: 'In', values: ['qux', 'norf'] }],
      },
      'baz in (norf,qux),foo=bar',
      { foo: 'bar', baz: 'norf' },
      true,
    ],
  ])('%s', (_name, ls, str, labels, matches) => {
    const s = labelSelectorAsSelector(ls);
    expect(s.toString()).toBe(str);
    expect(s.matches(labels)).toBe(matches);
    expect(labelSelectorToString(ls)).toBe(str);
  });

  it.each<[string, LabelSelectorLike, string]>([
    [
      'unknown operator',
      { matchExpressions: [{ key: 'a', operator: 'Foo' }] },
      '"Foo" is not a valid label selector operator',
    ],
    [
      'operator is case sensitive',
      { matchExpressions: [{ key: 'a', operator: 'in', values: ['x'] }] },
      '"in" is not a valid label selector operator',
    ],
    [
      'Exists with values',
      { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] },
      'values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist',
    ],
    [
      'DoesNotExist with values',
      { matchExpressions: [{ key: 'a', operator: 'DoesNotExist', values: ['x', 'y'] }] },
      'values: Invalid value: []string{"x", "y"}: values set must be empty for exists and does not exist',
    ],
    [
      'In without values',
      { matchExpressions: [{ key: 'a', operator: 'In' }] },
      "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    ],
    [
      'NotIn with empty values',
      { matchExpressions: [{ key: 'a', operator: 'NotIn', values: [] }] },
      "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    ],
    [
      'bad matchLabels key',
      { matchLabels: { 'a b': 'c' } },
      `key: Invalid value: "a b": name part ${QNAME_MSG}`,
    ],
    [
      'bad matchLabels value',
      { matchLabels: { a: 'b c' } },
      `values[0][a]: Invalid value: "b c": ${LABEL_VALUE_MSG}`,
    ],
    [
      'several errors aggregate',
      { matchExpressions: [{ key: 'a b', operator: 'In', values: [] }] },
      `[key: Invalid value: "a b": name part ${QNAME_MSG}, values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty]`,
    ],
  ])('%s', (_name, ls, message) => {
    expect(() => labelSelectorAsSelector(ls)).toThrow(message);
    expect(() => labelSelectorAsSelector(ls)).toThrow(
      expect.objectContaining({ message }) as unknown as Error,
    );
    expect(formatLabelSelector(ls)).toBe('<error>');
  });
});

describe('formatLabelSelector', () => {
  it.each<[LabelSelectorLike | null, string]>([
    [null, '<none>'],
    [{}, '<none>'],
    [{ matchLabels: { app: 'web' } }, 'app=web'],
  ])('%j → %j', (ls, text) => {
    expect(formatLabelSelector(ls)).toBe(text);
  });
});

describe('newRequirement', () => {
  it.each<[string, string, string[] | undefined, string]>([
    [
      'a',
      'foo',
      [],
      'operator: Unsupported value: "foo": supported values: "in", "notin", "=", "==", "!=", "exists", "!", "gt", "lt"',
    ],
    [
      'a',
      '=',
      ['1', '2'],
      'values: Invalid value: []string{"1", "2"}: exact-match compatibility requires one single value',
    ],
    ['a', '!=', [], 'values: Invalid value: []string{}: exact-match compatibility requires one single value'],
    [
      'a',
      'gt',
      ['1', '2'],
      `values: Invalid value: []string{"1", "2"}: for 'Gt', 'Lt' operators, exactly one value is required`,
    ],
    [
      'a',
      'lt',
      ['x'],
      `values[0]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    [
      'a',
      'in',
      [],
      `values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty`,
    ],
    ['', 'exists', [], `key: Invalid value: "": name part must be non-empty; name part ${QNAME_MSG}`],
    ['a', '=', ['"q"'], `values[0][a]: Invalid value: "\\"q\\"": ${LABEL_VALUE_MSG}`],
  ])('%j %j %j', (key, op, values, message) => {
    expect(() => newRequirement(key, op as never, values)).toThrow(
      expect.objectContaining({ message }) as unknown as Error,
    );
  });

  it('prefixes paths', () => {
    expect(() => newRequirement('a', 'in', [], 'spec.selector.matchExpressions[0]')).toThrow(
      "spec.selector.matchExpressions[0].values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty",
    );
  });

  it('keeps values in the given order but prints them sorted', () => {
    const r = newRequirement('a', 'in', ['z', 'b']);
    expect(r.values).toEqual(['z', 'b']);
    expect(r.toString()).toBe('a in (b,z)');
  });
});

describe('selectors from sets', () => {
  it('selectorFromSet matches exactly, sorted, without validation', () => {
    const s = selectorFromSet({ b: '2', a: '1' });
    expect(s.toString()).toBe('a=1,b=2');
    expect(s.matches({ a: '1', b: '2', c: '3' })).toBe(true);
    expect(s.matches({ a: '1' })).toBe(false);
    expect(selectorFromSet({ 'a b': 'c d' }).matches({ 'a b': 'c d' })).toBe(true);
    expect(selectorFromSet({}).empty()).toBe(true);
    expect(selectorFromSet(undefined).matches({})).toBe(true);
  });

  it('validatedSelectorFromSet validates', () => {
    expect(validatedSelectorFromSet({ a: '1' }).toString()).toBe('a=1');
    expect(() => validatedSelectorFromSet({ a: 'b c' })).toThrow(
      `values[0][a]: Invalid value: "b c": ${LABEL_VALUE_MSG}`,
    );
  });

  it('labelSetToString and formatLabels', () => {
    expect(labelSetToString({ b: '2', a: '1' })).toBe('a=1,b=2');
    expect(labelSetToString({})).toBe('');
    expect(formatLabels({ b: '2', a: '1' })).toBe('a=1,b=2');
    expect(formatLabels({})).toBe('<none>');
    expect(formatLabels(undefined)).toBe('<none>');
  });
});

describe('everything and nothing', () => {
  it('behave as Kubernetes', () => {
    expect(everythingLabels().matches({})).toBe(true);
    expect(everythingLabels().empty()).toBe(true);
    expect(nothingLabels().matches({ a: 'b' })).toBe(false);
    expect(nothingLabels().empty()).toBe(false);
    expect(nothingLabels().toString()).toBe('');
    expect(nothingLabels().requirements().selectable).toBe(false);
    expect(nothingLabels().add(newRequirement('a', 'exists', []))).toBe(nothingLabels());
  });

  it('add keeps requirements sorted and does not change the original', () => {
    const base = selectorFromSet({ m: '1' });
    const added = base.add(newRequirement('z', 'exists', []), newRequirement('a', '!', []));
    expect(added.toString()).toBe('!a,m=1,z');
    expect(base.toString()).toBe('m=1');
  });
});
