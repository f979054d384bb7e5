import { jsonSyntaxError, summarizeBody } from './json-syntax-error';

const syntax = (text: string | Buffer): string | undefined =>
  jsonSyntaxError(typeof text === 'string' ? Buffer.from(text) : text);

describe('jsonSyntaxError', () => {
  it.each([
    ['', 'unexpected end of JSON input'],
    ['  ', 'unexpected end of JSON input'],
    ['{"apiVersion":', 'unexpected end of JSON input'],
    ['{"a":"unterminated', 'unexpected end of JSON input'],
    ['[1,2', 'unexpected end of JSON input'],
    ['-', 'unexpected end of JSON input'],
    ['tr', 'unexpected end of JSON input'],
    ['xyz', "invalid character 'x' looking for beginning of value"],
    ['[1,]', "invalid character ']' looking for beginning of value"],
    ['{"a":}', "invalid character '}' looking for beginning of value"],
    ['{a:1}', "invalid character 'a' looking for beginning of object key string"],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ["{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', "invalid character '\"' after object key:value pair"],
    ['{"a":01}', "invalid character '1' after object key:value pair"],
    ['[1 2]', "invalid character '2' after array element"],
    ['{"a":1}x', "invalid character 'x' after top-level value"],
    ['{"a":1}}', "invalid character '}' after top-level value"],
    ['12 3', "invalid character '3' after top-level value"],
    ['{"a":tru}', "invalid character '}' in literal true (expecting 'e')"],
    ['{"a":fals3}', "invalid character '3' in literal false (expecting 'e')"],
    ['{"a":nil}', "invalid character 'i' in literal null (expecting 'u')"],
    ['{"a":-x}', "invalid character 'x' in numeric literal"],
    ['{"a":1.}', "invalid character '}' after decimal point in numeric literal"],
    ['{"a":1e}', "invalid character '}' in exponent of numeric literal"],
    ['{"a":1e+}', "invalid character '}' in exponent of numeric literal"],
    ['{"a":"\\q"}', "invalid character 'q' in string escape code"],
    ['{"a":"\\u12g4"}', "invalid character 'g' in \\u hexadecimal character escape"],
    ['{"a":"x\ny"}', "invalid character '\\n' in string literal"],
    ['{"a":"x\ty"}', "invalid character '\\t' in string literal"],
    ['{"a":"\u0001"}', "invalid character '\\x01' in string literal"],
    ['{"a":\\}', "invalid character '\\\\' looking for beginning of value"],
  ])('%j: %s', (text, message) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(syntax(text)).toBe(message);
  });

  it('names a stray non-ASCII byte by its first byte, as a code point', () => {
    expect(syntax('{"a":é}')).toBe("invalid character 'Ã' looking for beginning of value");
    expect(syntax(Buffer.from([0x7b, 0x80, 0x7d]))).toBe(
      "invalid character '\\u0080' looking for beginning of object key string",
    );
  });

  it.each([
    '{"a":[1,2.5e3,-0,0.5,1E-2,true,false,null,"x\\u00e9\\n\\"",{}],"b":{"c":[]}}',
    '12',
    ' -0.5e+7 ',
    '"text"',
    '[]',
    ' { } ',
  ])('finds nothing wrong in valid JSON %j', (text) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(syntax(text)).toBeUndefined();
  });

  it('agrees with the native parser on which texts are JSON, over many generated texts', () => {
    // a deterministic generator, so that a failure repeats
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const alphabet = [
      '{',
      '}',
      '[',
      ']',
      ':',
      ',',
      '"',
      '"a"',
      '1',
      '0',
      '-',
      '.',
      'e',
      '+',
      'true',
      'nul',
      ' ',
      '\\',
      'x',
    ];
    let invalid = 0;
    for (let round = 0; round < 20_000; round++) {
      let text = '';
      for (let i = next(12); i >= 0; i--) text += alphabet[next(alphabet.length)];
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
        invalid++;
      }
      expect([text, syntax(text) === undefined]).toEqual([text, parses]);
    }
    expect(invalid).toBeGreaterThan(1000);
  });
});

describe('summarizeBody', () => {
  it('shows an empty body, an object start as text and anything else as hex, cut at 30 bytes', () => {
    expect(summarizeBody(Buffer.alloc(0))).toBe('<empty>');
    expect(summarizeBody(Buffer.from('{"apiVersion":'))).toBe('{"apiVersion":');
    expect(summarizeBody(Buffer.from('{"apiVersion":"v1","kind":"ConfigMap"'))).toBe(
      '{"apiVersion":"v1","kind":"Con ...',
    );
    expect(summarizeBody(Buffer.from('xyz'))).toBe('78797a');
    expect(summarizeBody(Buffer.from('x'.repeat(31)))).toBe(`${'78'.repeat(30)} ...`);
  });
});
