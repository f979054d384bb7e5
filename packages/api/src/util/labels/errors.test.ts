import { aggregate, goStringSlice, invalidValue, unsupportedValue } from './errors';

describe('label selector error texts', () => {
  it('renders field errors as Kubernetes', () => {
    expect(invalidValue(undefined, 'a b', 'bad')).toBe('<nil>: Invalid value: "a b": bad');
    expect(invalidValue('values', ['a', 'b'], 'bad')).toBe('values: Invalid value: []string{"a", "b"}: bad');
    expect(invalidValue('values', undefined, 'bad')).toBe('values: Invalid value: []string(nil): bad');
    expect(goStringSlice([])).toBe('[]string{}');
    expect(unsupportedValue('operator', 'x', ['a', 'b'])).toBe(
      'operator: Unsupported value: "x": supported values: "a", "b"',
    );
  });

  it.each<[string[], string]>([
    [['a'], 'a'],
    [['a', 'b'], '[a, b]'],
    [['a', 'a'], 'a'],
    [['a', 'b', 'a'], '[a, b]'],
  ])('aggregate(%j) = %j', (messages, text) => {
    expect(aggregate(messages)).toBe(text);
  });
});
