import { goQuote } from './goQuote';

describe('goQuote', () => {
  it.each<[string, string]>([
    ['', '""'],
    ['abc', '"abc"'],
    ['a"b', '"a\\"b"'],
    ['a\\b', '"a\\\\b"'],
    ['a\nb\tc\rd', '"a\\nb\\tc\\rd"'],
    ['\0\x1f\x7f', '"\\x00\\x1f\\x7f"'],
    ['héllo', '"héllo"'],
  ])('%j → %s', (s, quoted) => {
    expect(goQuote(s)).toBe(quoted);
  });
});
