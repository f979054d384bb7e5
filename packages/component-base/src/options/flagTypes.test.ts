import { flagCodec, isCIDR, parseGoBool, zeroValue, type FlagType } from './flagTypes';

const parse = (type: FlagType, text: string, previous?: unknown): unknown =>
  flagCodec(type).parse(text, previous as never);
const print = (type: FlagType, value: unknown): string => flagCodec(type).format(value as never);

describe('flag types: parse and print', () => {
  it('bool accepts Go ParseBool spellings', () => {
    for (const t of ['1', 't', 'T', 'true', 'TRUE', 'True']) expect(parse('bool', t)).toBe(true);
    for (const f of ['0', 'f', 'F', 'false', 'FALSE', 'False']) expect(parse('bool', f)).toBe(false);
    expect(() => parse('bool', 'yes')).toThrow('strconv.ParseBool: parsing "yes": invalid syntax');
    expect(print('bool', true)).toBe('true');
    expect(flagCodec('bool').boolLike).toBe(true);
  });

  it('int32 is range checked', () => {
    expect(parse('int32', '2147483647')).toBe(2147483647);
    expect(parse('int32', '-2147483648')).toBe(-2147483648);
    expect(() => parse('int32', '2147483648')).toThrow('value out of range');
    expect(() => parse('int32', '1.5')).toThrow('invalid syntax');
    expect(() => parse('int32', 'abc')).toThrow('strconv.ParseInt: parsing "abc": invalid syntax');
    expect(print('int32', 42)).toBe('42');
  });

  it('uint rejects negatives', () => {
    expect(parse('uint', '1800')).toBe(1800);
    expect(() => parse('uint', '-1')).toThrow('strconv.ParseUint: parsing "-1": invalid syntax');
  });

  it('int accepts any safe integer', () => {
    expect(parse('int', '70000')).toBe(70000);
    expect(parse('int', '-1')).toBe(-1);
  });

  it('float32 and float parse decimals and exponents', () => {
    expect(parse('float32', '0.55')).toBe(0.55);
    expect(parse('float32', '1e2')).toBe(100);
    expect(() => parse('float32', '1e39')).toThrow('value out of range');
    expect(parse('float', '1e39')).toBe(1e39);
    expect(() => parse('float', 'x')).toThrow('strconv.ParseFloat: parsing "x": invalid syntax');
    expect(print('float32', 0.01)).toBe('0.01');
  });

  it('string is taken verbatim and shown quoted in help', () => {
    expect(parse('string', ' a b ')).toBe(' a b ');
    expect(flagCodec('string').quoteDefault).toBe(true);
  });

  it('string lists split on commas and append on repetition', () => {
    const first = parse('stringList', 'a,b');
    expect(first).toEqual(['a', 'b']);
    expect(parse('stringList', 'c', first)).toEqual(['a', 'b', 'c']);
    expect(parse('stringList', '')).toEqual([]);
    expect(print('stringList', ['/healthz', '/readyz'])).toBe('[/healthz,/readyz]');
  });

  it('duration parses Go syntax into milliseconds and prints canonically', () => {
    expect(parse('duration', '1h30m')).toBe(5_400_000);
    expect(print('duration', 90_000)).toBe('1m30s');
    expect(() => parse('duration', '10')).toThrow('missing unit');
  });

  it('ip accepts IPv4, IPv6 and blank (all interfaces) only', () => {
    expect(parse('ip', '')).toBe('');
    expect(parse('ip', '127.0.0.1')).toBe('127.0.0.1');
    expect(parse('ip', '::1')).toBe('::1');
    expect(() => parse('ip', '300.1.1.1')).toThrow('failed to parse IP: "300.1.1.1"');
    expect(() => parse('ip', 'localhost')).toThrow('failed to parse IP');
  });

  it('cidr and cidr lists validate each entry', () => {
    expect(parse('cidr', '10.0.0.0/8')).toBe('10.0.0.0/8');
    expect(() => parse('cidr', '10.0.0.0/33')).toThrow('invalid CIDR address: 10.0.0.0/33');
    expect(parse('cidrList', '10.0.0.0/8,fd00::/64')).toEqual(['10.0.0.0/8', 'fd00::/64']);
    expect(() => parse('cidrList', '10.0.0.0/8,nope')).toThrow('invalid CIDR address: nope');
    expect(print('cidrList', ['1.0.0.0/8', '2.0.0.0/8'])).toBe('1.0.0.0/8,2.0.0.0/8');
    expect(isCIDR('::/0')).toBe(true);
    expect(isCIDR('1.2.3.4')).toBe(false);
  });

  it('mapStringBool reads A=true,B=false and merges repetitions', () => {
    const first = parse('mapStringBool', 'A=true,B=false');
    expect(first).toEqual({ A: true, B: false });
    expect(parse('mapStringBool', 'C=1', first)).toEqual({ A: true, B: false, C: true });
    expect(() => parse('mapStringBool', 'A')).toThrow('missing bool value for A');
    expect(() => parse('mapStringBool', 'A=maybe')).toThrow('invalid value of A=maybe');
    expect(print('mapStringBool', { B: false, A: true })).toBe('A=true,B=false');
  });

  it('namedCertKey reads cert,key[:names] and repeats', () => {
    const one = parse('namedCertKey', 'cert.pem,key.pem');
    expect(one).toEqual([{ certFile: 'cert.pem', keyFile: 'key.pem', names: [] }]);
    const two = parse('namedCertKey', 'a.crt,a.key:*.example.com,foo.io', one);
    expect(two).toEqual([
      { certFile: 'cert.pem', keyFile: 'key.pem', names: [] },
      { certFile: 'a.crt', keyFile: 'a.key', names: ['*.example.com', 'foo.io'] },
    ]);
    expect(() => parse('namedCertKey', 'only.pem')).toThrow(
      'expected comma separated certificate and key file paths',
    );
    expect(print('namedCertKey', two)).toBe('[cert.pem,key.pem;a.crt,a.key:*.example.com,foo.io]');
  });

  it('severity accepts names and numbers', () => {
    expect(parse('severity', 'INFO')).toBe(0);
    expect(parse('severity', 'warning')).toBe(1);
    expect(parse('severity', 'ERROR')).toBe(2);
    expect(parse('severity', '3')).toBe(3);
    expect(() => parse('severity', '4')).toThrow('unknown severity');
    expect(print('severity', 2)).toBe('2');
  });

  it('level is a non-negative integer shown as Level in help', () => {
    expect(parse('level', '4')).toBe(4);
    expect(() => parse('level', '-1')).toThrow('invalid syntax');
    expect(flagCodec('level').typeName).toBe('Level');
  });

  it('traceLocation is file:N', () => {
    expect(parse('traceLocation', 'server.ts:42')).toEqual({ file: 'server.ts', line: 42 });
    expect(parse('traceLocation', ':0')).toEqual({ file: '', line: 0 });
    expect(() => parse('traceLocation', 'server.ts')).toThrow('syntax error: expect file.go:234');
    expect(print('traceLocation', { file: 'a.ts', line: 7 })).toBe('a.ts:7');
    expect(print('traceLocation', zeroValue('traceLocation'))).toBe(':0');
  });

  it('moduleSpec is pattern=N,...', () => {
    expect(parse('moduleSpec', 'server=2,lease*=4')).toEqual([
      { pattern: 'server', level: 2 },
      { pattern: 'lease*', level: 4 },
    ]);
    expect(() => parse('moduleSpec', 'server')).toThrow('expect comma-separated list of pattern=N');
    expect(() => parse('moduleSpec', 'server=x')).toThrow('expect comma-separated list of pattern=N');
    expect(print('moduleSpec', [{ pattern: 'a', level: 1 }])).toBe('a=1');
  });

  it('version accepts booleans and raw', () => {
    expect(parse('version', 'true')).toBe('true');
    expect(parse('version', 'raw')).toBe('raw');
    expect(() => parse('version', 'other')).toThrow('invalid syntax');
  });

  it('parseGoBool is exported for reuse', () => {
    expect(parseGoBool('t')).toBe(true);
  });
});
