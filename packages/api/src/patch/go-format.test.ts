import { goFloat, goSprint, goTypeName } from './go-format';
import { goStableSort } from './go-stable-sort';
import { yamlText } from './yaml-text';

describe('goSprint prints decoded JSON as Go prints it with %v', () => {
  it.each([
    [{ name: 'a', image: 'x' }, 'map[image:x name:a]'],
    [{ b: { c: [1, 'two', null] }, a: true }, 'map[a:true b:map[c:[1 two <nil>]]]'],
    [[], '[]'],
    [null, '<nil>'],
    [8080, '8080'],
    [1.5, '1.5'],
  ])('%j → %s', (value, text) => {
    expect(goSprint(value)).toBe(text);
  });

  it('prints float64 values as strconv does (exponent from 1e+06 and below 1e-04)', () => {
    expect(goFloat(1000000)).toBe('1e+06');
    expect(goFloat(123456789)).toBe('1.23456789e+08');
    expect(goFloat(999999)).toBe('999999');
    expect(goFloat(0.0001)).toBe('0.0001');
    expect(goFloat(0.00001)).toBe('1e-05');
    expect(goSprint([1000000, 80], 'float64')).toBe('[1e+06 80]');
    expect(goSprint([1000000], 'int64')).toBe('[1000000]');
  });

  it('names Go types as reflect does', () => {
    expect(goTypeName({})).toBe('map[string]interface {}');
    expect(goTypeName([])).toBe('[]interface {}');
    expect(goTypeName('x')).toBe('string');
    expect(goTypeName(1)).toBe('int64');
    expect(goTypeName(null)).toBe('%!s(<nil>)');
  });
});

describe('goStableSort', () => {
  it('sorts stably like a merge sort for consistent orderings, across block merges', () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (const n of [0, 1, 5, 19, 20, 21, 40, 77, 200]) {
      const items = Array.from({ length: n }, (_, i) => ({ key: Math.floor(random() * 10), i }));
      const expected = [...items].sort((a, b) => a.key - b.key);
      expect(goStableSort([...items], (a, b) => a.key < b.key)).toEqual(expected);
    }
  });

  it('keeps Go insertion order for an ordering that answers true for unknown items', () => {
    const order = ['b', 'a'];
    const less = (x: string, y: string): boolean => {
      const ix = order.indexOf(x);
      const iy = order.indexOf(y);
      return ix >= 0 && iy >= 0 ? ix < iy : true;
    };
    // Insertion sort moves an element left while less(current, previous) holds.
    expect(goStableSort(['a', 'z', 'b'], less)).toEqual(['b', 'z', 'a']);
  });
});

describe('yamlText', () => {
  it('prints objects as Kubernetes clients do in messages', () => {
    expect(
      yamlText({
        spec: { containers: [{ name: 'app', image: 'nginx:1.20', args: ['--port', '80'] }], replicas: 3 },
        metadata: { labels: { 'app.kubernetes.io/name': 'web', on: 'yes' }, finalizers: [] },
        $retainKeys: ['type'],
        value: null,
      }),
    ).toBe(
      [
        '$retainKeys:',
        '- type',
        'metadata:',
        '  finalizers: []',
        '  labels:',
        '    app.kubernetes.io/name: web',
        '    "on": "yes"',
        'spec:',
        '  containers:',
        '  - args:',
        '    - --port',
        '    - "80"',
        '    image: nginx:1.20',
        '    name: app',
        '  replicas: 3',
        'value: null',
        '',
      ].join('\n'),
    );
  });
});
