import { parseStrictJSON } from './strict-json';

describe('parseStrictJSON', () => {
  it('parses like JSON.parse and reports no duplicates for a clean body', () => {
    const text = '{"a":{"b":[1,{"c":"x\\"y"}]},"d":"{\\"e\\":1,\\"e\\":2}"}';
    expect(parseStrictJSON(text)).toEqual({ value: JSON.parse(text), duplicates: [] });
  });

  it.each([
    ['{"replicas":1,"replicas":2}', ['duplicate field "replicas"']],
    ['{"spec":{"replicas":1,"paused":true,"replicas":2}}', ['duplicate field "spec.replicas"']],
    [
      '{"spec":{"containers":[{"name":"a"},{"name":"b","image":"x","name":"c"}]}}',
      ['duplicate field "spec.containers[1].name"'],
    ],
    [
      '{"metadata":{"labels":{"app":"a","app":"b"}},"kind":"x","kind":"y"}',
      ['duplicate field "metadata.labels.app"', 'duplicate field "kind"'],
    ],
    ['{"a\\u0062":1,"ab":2}', ['duplicate field "ab"']],
    ['[{"a":1},{"a":2,"a":3}]', ['duplicate field "[1].a"']],
  ])('%s', (text, duplicates) => {
    const r = parseStrictJSON(text);
    expect(r.duplicates).toEqual(duplicates);
    expect(r.value).toEqual(JSON.parse(text));
  });

  it('keeps the last of duplicate keys, like Go', () => {
    expect(parseStrictJSON('{"a":1,"a":2}').value).toEqual({ a: 2 });
  });

  it('throws on malformed JSON', () => {
    expect(() => parseStrictJSON('{"a":')).toThrow(SyntaxError);
  });
});
