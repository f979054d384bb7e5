import { expandAll, expandEnv } from './expandEnv';

const vars = new Map([
  ['VAR_A', 'A'],
  ['VAR_B', 'B'],
  ['EMPTY', ''],
]);
const expand = (s: string) => expandEnv(s, (name) => vars.get(name));

describe('expandEnv', () => {
  it.each([
    ['$(VAR_A)', 'A'],
    ['___$(VAR_B)___', '___B___'],
    ['$(VAR_A)-$(VAR_B)', 'A-B'],
    ['x$(EMPTY)y', 'xy'],
    ['$(UNDEFINED)', '$(UNDEFINED)'],
    ['$(VAR_A) $(UNDEFINED) $(VAR_B)', 'A $(UNDEFINED) B'],
    ['$$(VAR_A)', '$(VAR_A)'],
    ['$$$(VAR_A)', '$A'],
    ['$$$$(VAR_A)', '$$(VAR_A)'],
    ['$$', '$'],
    ['$', '$'],
    ['foo$', 'foo$'],
    ['$VAR_A', '$VAR_A'],
    ['${VAR_A}', '${VAR_A}'],
    ['$(VAR_A', '$(VAR_A'],
    ['$()', '$()'],
    ['$(VAR_A)$(VAR_A)', 'AA'],
    ['no refs', 'no refs'],
  ])('%s -> %s', (input, want) => {
    expect(expand(input)).toBe(want);
  });

  it('does not expand the result of an expansion again', () => {
    expect(expandEnv('$(X)', (n) => (n === 'X' ? '$(Y)' : n === 'Y' ? 'y' : undefined))).toBe('$(Y)');
  });

  it('expands every element of a command', () => {
    expect(expandAll(['echo', '$(VAR_A)', '$$(VAR_B)'], vars)).toEqual(['echo', 'A', '$(VAR_B)']);
  });
});
