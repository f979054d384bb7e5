import { randomInt } from 'node:crypto';

/** Characters of generated suffixes: no vowels (no accidental words) and no confusable 0/1/3. */
export const GENERATE_NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
/** Number of random characters appended to a generateName prefix. */
export const GENERATE_NAME_RANDOM_LENGTH = 5;
/** Longest prefix kept: 63 - 5, so the generated name is a valid RFC 1123 label length. */
export const MAX_GENERATED_NAME_PREFIX_LENGTH = 63 - GENERATE_NAME_RANDOM_LENGTH;

/**
 * A name from metadata.generateName as Kubernetes makes it: the base truncated to 58 characters,
 * followed by 5 random characters from {@link GENERATE_NAME_ALPHABET}. `random(n)` returns an
 * integer in [0, n) and exists for tests.
 */
export function generateName(base: string, random: (n: number) => number = randomInt): string {
  let name =
    base.length > MAX_GENERATED_NAME_PREFIX_LENGTH ? base.slice(0, MAX_GENERATED_NAME_PREFIX_LENGTH) : base;
  for (let i = 0; i < GENERATE_NAME_RANDOM_LENGTH; i++) {
    name += GENERATE_NAME_ALPHABET[random(GENERATE_NAME_ALPHABET.length)];
  }
  return name;
}
