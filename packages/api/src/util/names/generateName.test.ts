import { GENERATE_NAME_ALPHABET, generateName, MAX_GENERATED_NAME_PREFIX_LENGTH } from './generateName';
import { isDNS1123Label } from './identifiers';

describe('generateName', () => {
  it('uses Kubernetes alphabet and limits', () => {
    expect(GENERATE_NAME_ALPHABET).toBe('bcdfghjklmnpqrstvwxz2456789');
    expect(MAX_GENERATED_NAME_PREFIX_LENGTH).toBe(58);
  });

  it('appends five random characters', () => {
    const picks = [0, 1, 2, 26, 25];
    let i = 0;
    expect(generateName('web-', () => picks[i++]!)).toBe('web-bcd98');
  });

  it.each<[string, number]>([
    ['', 5],
    ['web-', 9],
    ['a'.repeat(58), 63],
    ['a'.repeat(59), 63],
    ['a'.repeat(200), 63],
  ])('base of %j characters gives a name of %d', (base, length) => {
    const name = generateName(base);
    expect(name).toHaveLength(length);
    expect(name.startsWith(base.slice(0, 58))).toBe(true);
    expect(name.slice(-5)).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('makes valid, varied names', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const name = generateName('pod-');
      expect(isDNS1123Label(name)).toEqual([]);
      seen.add(name);
    }
    expect(seen.size).toBeGreaterThan(190);
  });
});
