import { parseLabelSelector } from './parser';
import { LabelSelectorError } from './errors';

const QNAME_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('parseLabelSelector: canonical string', () => {
  it.each<[string, string]>([
    ['', ''],
    ['   ', ''],
    ['x=a', 'x=a'],
    ['x==a', 'x==a'],
    ['x!=a', 'x!=a'],
    ['x=a,y=b,z=c', 'x=a,y=b,z=c'],
    ['z=c,x=a,y=b', 'x=a,y=b,z=c'],
    ['x!=a,y=b', 'x!=a,y=b'],
    ['x', 'x'],
    ['!x', '!x'],
    [' ! x ', '!x'],
    ['x>1', 'x>1'],
    ['x<1', 'x<1'],
    ['x>1,z<5', 'x>1,z<5'],
    ['x=', 'x='],
    ['x= ', 'x='],
    ['x=,z= ', 'x=,z='],
    ['x= ,z= ', 'x=,z='],
    ['  x  =  a  ', 'x=a'],
    ['\tx\n=\ra', 'x=a'],
    ['x in (b,a)', 'x in (a,b)'],
    ['x in ( a , b )', 'x in (a,b)'],
    ['x in(a)', 'x in (a)'],
    ['x in (a,a,b)', 'x in (a,b)'],
    ['x notin (c,b,a)', 'x notin (a,b,c)'],
    ['x in ()', 'x in ()'],
    ['x in (,)', 'x in ()'],
    ['x notin (,a)', 'x notin (,a)'],
    ['x in (a,)', 'x in (,a)'],
    ['x in (a,,b)', 'x in (,a,b)'],
    ['b in (x),a', 'a,b in (x)'],
    ['x,!y,z=1', 'x,!y,z=1'],
    ['z,!a', '!a,z'],
    // Keywords are plain identifiers where a key or value is expected.
    ['in', 'in'],
    ['in in (notin,in)', 'in in (in,notin)'],
    ['notin=in', 'notin=in'],
    [
      'example.com/app=web,app.kubernetes.io/name in (a,b)',
      'app.kubernetes.io/name in (a,b),example.com/app=web',
    ],
    ['x=a\0garbage', 'x=a'],
  ])('%j → %j', (input, canonical) => {
    const s = parseLabelSelector(input);
    expect(s.toString()).toBe(canonical);
    expect(s.empty()).toBe(canonical === '');
    // The canonical form parses back to itself.
    expect(parseLabelSelector(canonical).toString()).toBe(canonical);
  });
});

describe('parseLabelSelector: errors', () => {
  it.each<[string, string]>([
    ['x=a,', "found '', expected: identifier after ','"],
    ['x=a,,y=b', "found ',', expected: identifier after ','"],
    [',x=a', "found ',', expected: !, identifier, or 'end of string'"],
    ['=a', "found '=', expected: !, identifier, or 'end of string'"],
    ['(', "found '(', expected: !, identifier, or 'end of string'"],
    ['x==a==b', "found '==', expected: ',' or 'end of string'"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    ['x= a b', "found 'b', expected: ',' or 'end of string'"],
    ['x in (a) y', "found 'y', expected: ',' or 'end of string'"],
    ['x y', "unable to parse requirement: found 'y', expected: in, notin, =, ==, !=, gt, lt"],
    ['x (', "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt"],
    ['x>=1', "unable to parse requirement: found '=', expected: identifier"],
    ['x=(', "unable to parse requirement: found '(', expected: identifier"],
    ['x!=!', "unable to parse requirement: found '!', expected: identifier"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['!!x', "unable to parse requirement: found '!', expected: identifier"],
    ['!!', "unable to parse requirement: found '!', expected: identifier"],
    ['x in a', "unable to parse requirement: found 'a' expected: '('"],
    ['x in', "unable to parse requirement: found '' expected: '('"],
    ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['x in (a b)', "unable to parse requirement: found 'b', expected: ',' or ')'"],
    ['x in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['x in (', "unable to parse requirement: found '', expected: ',', ')' or identifier"],
    ['x in (a,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
    ['x in (,', "unable to parse requirement: found '', expected: ',', or identifier"],
    ['a$b', `unable to parse requirement: <nil>: Invalid value: "a$b": name part ${QNAME_MSG}`],
    [
      'app:monolith',
      `unable to parse requirement: <nil>: Invalid value: "app:monolith": name part ${QNAME_MSG}`,
    ],
    [
      `${'k'.repeat(64)}=v`,
      `unable to parse requirement: <nil>: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 characters`,
    ],
    ['x=a||y=b', `unable to parse requirement: values[0][x]: Invalid value: "a||y": ${LABEL_VALUE_MSG}`],
    [
      `x=${'v'.repeat(64)}`,
      `unable to parse requirement: values[0][x]: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`,
    ],
    ['x in (a,b$)', `unable to parse requirement: values[1][x]: Invalid value: "b$": ${LABEL_VALUE_MSG}`],
    [
      'x<a',
      `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    [
      'x>1.1',
      `unable to parse requirement: values[0]: Invalid value: "1.1": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    [
      'x>1_',
      `unable to parse requirement: [values[0]: Invalid value: "1_": for 'Gt', 'Lt' operators, the value must be an integer, values[0][x]: Invalid value: "1_": ${LABEL_VALUE_MSG}]`,
    ],
    ['x<-1', `unable to parse requirement: values[0][x]: Invalid value: "-1": ${LABEL_VALUE_MSG}`],
    [
      'x>',
      `unable to parse requirement: values[0]: Invalid value: "": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
  ])('%j', (input, message) => {
    expect(() => parseLabelSelector(input)).toThrow(LabelSelectorError);
    expect(() => parseLabelSelector(input)).toThrow(expect.objectContaining({ message }) as unknown as Error);
  });
});

describe('parseLabelSelector: matches', () => {
  it.each<[string, Record<string, string> | undefined, boolean]>([
    ['', undefined, true],
    ['', { x: 'y' }, true],
    ['x=y', { x: 'y' }, true],
    ['x=y', { x: 'y', z: 'w' }, true],
    ['x=y', { x: 'z' }, false],
    ['x=y', {}, false],
    ['x=y', undefined, false],
    ['x==y', { x: 'y' }, true],
    ['x!=y', { x: 'y' }, false],
    ['x!=y', { x: 'z' }, true],
    ['x!=y', {}, true],
    ['x=', { x: '' }, true],
    ['x=', {}, false],
    ['x!=', {}, true],
    ['x in (a,b)', { x: 'a' }, true],
    ['x in (a,b)', { x: 'b' }, true],
    ['x in (a,b)', { x: 'c' }, false],
    ['x in (a,b)', {}, false],
    ['x in ()', { x: '' }, true],
    ['x notin (a,b)', { x: 'a' }, false],
    ['x notin (a,b)', { x: 'c' }, true],
    ['x notin (a,b)', {}, true],
    ['x in (a,b,c,d,e,f,g,h,i,j)', { x: 'j' }, true],
    ['x in (a,b,c,d,e,f,g,h,i,j)', { x: 'k' }, false],
    ['x notin (a,b,c,d,e,f,g,h,i,j)', { x: 'j' }, false],
    ['x', { x: '' }, true],
    ['x', { y: 'x' }, false],
    ['!x', { x: '' }, false],
    ['!x', { y: 'x' }, true],
    ['x>1', { x: '2' }, true],
    ['x>1', { x: '1' }, false],
    ['x>1', { x: '+2' }, true],
    ['x>1', { x: '02' }, true],
    ['x>1', { x: 'a' }, false],
    ['x>1', { x: '2.5' }, false],
    ['x>1', { x: '' }, false],
    ['x>1', {}, false],
    ['x<1', { x: '-5' }, true],
    ['x<1', { x: '1' }, false],
    ['x<1', {}, false],
    ['x>1', { x: '9223372036854775807' }, true],
    ['x>1', { x: '9223372036854775808' }, false],
    ['x<1', { x: '-9223372036854775808' }, true],
    ['x<1', { x: '-9223372036854775809' }, false],
    ['x>9007199254740992', { x: '9007199254740993' }, true],
    ['x<9007199254740993', { x: '9007199254740992' }, true],
    ['x>9223372036854775806', { x: '9223372036854775807' }, true],
    ['x>0', { x: '00000000000000000000000001' }, true],
    ['x=a,y=b', { x: 'a', y: 'b' }, true],
    ['x=a,y=b', { x: 'a', y: 'c' }, false],
    ['x=a,!z', { x: 'a', z: '' }, false],
    // Keys are looked up as own properties only.
    ['constructor', {}, false],
    ['toString=x', {}, false],
    ['!hasOwnProperty', {}, true],
  ])('%j on %j → %j', (selector, labels, expected) => {
    expect(parseLabelSelector(selector).matches(labels)).toBe(expected);
  });
});

describe('LabelsSelector methods', () => {
  it('lists requirements sorted by key', () => {
    const { requirements, selectable } = parseLabelSelector('z=1,a in (y,x),!m').requirements();
    expect(selectable).toBe(true);
    expect(requirements.map((r) => [r.key, r.operator, r.values])).toEqual([
      ['a', 'in', ['x', 'y']],
      ['m', '!', []],
      ['z', '=', ['1']],
    ]);
  });

  it('requiresExactMatch', () => {
    const s = parseLabelSelector('a=1,b==2,c in (3),d in (4,5),e!=6,f');
    expect(s.requiresExactMatch('a')).toBe('1');
    expect(s.requiresExactMatch('b')).toBe('2');
    expect(s.requiresExactMatch('c')).toBe('3');
    expect(s.requiresExactMatch('d')).toBeUndefined();
    expect(s.requiresExactMatch('e')).toBeUndefined();
    expect(s.requiresExactMatch('f')).toBeUndefined();
    expect(s.requiresExactMatch('g')).toBeUndefined();
  });
});
