import { remembering } from './remembering';

describe('remembering', () => {
  it('computes each argument once, false and undefined answers too, and not a call that throws', () => {
    const calls: string[] = [];
    const f = remembering((k: string) => {
      calls.push(k);
      if (k === 'bad') throw new Error('bad');
      return k === 'no' ? false : k === 'none' ? undefined : k.length;
    });
    for (let i = 0; i < 2; i++) {
      expect(f('abc')).toBe(3);
      expect(f('no')).toBe(false);
      expect(f('none')).toBeUndefined();
      expect(() => f('bad')).toThrow('bad');
    }
    expect(calls).toEqual(['abc', 'no', 'none', 'bad', 'bad']);
  });

  it('holds at most `kept` answers, forgetting them all for the next', () => {
    const calls: string[] = [];
    const f = remembering((k: string) => calls.push(k), 2);
    f('a');
    f('b');
    f('a');
    expect(calls).toEqual(['a', 'b']);
    f('c');
    f('c');
    f('a');
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
  });
});
