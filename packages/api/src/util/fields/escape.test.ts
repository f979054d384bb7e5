import { escapeFieldValue, FieldSelectorError, unescapeFieldValue } from './escape';

describe('escapeFieldValue / unescapeFieldValue', () => {
  it.each<[string, string]>([
    ['', ''],
    ['a', 'a'],
    ['=', '\\='],
    [',', '\\,'],
    ['\\', '\\\\'],
    ['\\=\\,\\', '\\\\\\=\\\\\\,\\\\'],
    ['a=b,c', 'a\\=b\\,c'],
    ['!', '!'],
    ['héllo', 'héllo'],
  ])('%j ⇄ %j', (raw, escaped) => {
    expect(escapeFieldValue(raw)).toBe(escaped);
    expect(unescapeFieldValue(escaped)).toBe(raw);
  });

  it.each<[string, string]>([
    ['=', 'invalid field selector: unescaped character in value: 61'],
    [',', 'invalid field selector: unescaped character in value: 44'],
    ['a=b', 'invalid field selector: unescaped character in value: 61'],
    ['\\', 'invalid field selector: invalid escape sequence: \\'],
    ['a\\', 'invalid field selector: invalid escape sequence: \\'],
    ['\\a', 'invalid field selector: invalid escape sequence: \\a'],
    ['\\!', 'invalid field selector: invalid escape sequence: \\!'],
    ['\\é', 'invalid field selector: invalid escape sequence: \\é'],
  ])('%j is rejected', (value, message) => {
    expect(() => unescapeFieldValue(value)).toThrow(FieldSelectorError);
    expect(() => unescapeFieldValue(value)).toThrow(message);
  });
});
