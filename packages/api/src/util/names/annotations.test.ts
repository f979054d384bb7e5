import { annotationsSize, TOTAL_ANNOTATION_SIZE_LIMIT_BYTES, validateAnnotationsSize } from './annotations';

describe('annotations size', () => {
  it('is 256 KiB', () => {
    expect(TOTAL_ANNOTATION_SIZE_LIMIT_BYTES).toBe(262144);
  });

  it.each<[Record<string, string> | undefined, number]>([
    [undefined, 0],
    [{}, 0],
    [{ a: 'b' }, 2],
    [{ 'example.com/key': 'value', b: '' }, 21],
    // Bytes, not characters: 'é' is 2 bytes in UTF-8.
    [{ k: 'é' }, 3],
  ])('%j is %d bytes', (annotations, size) => {
    expect(annotationsSize(annotations)).toBe(size);
  });

  it('accepts exactly the limit and rejects one byte more', () => {
    expect(validateAnnotationsSize({ a: 'x'.repeat(262143) })).toBeUndefined();
    expect(validateAnnotationsSize({ a: 'x'.repeat(262144) })).toBe(
      'annotations size 262145 is larger than limit 262144',
    );
    expect(validateAnnotationsSize({ a: 'x'.repeat(131071), b: 'y'.repeat(131072) })).toBe(
      'annotations size 262145 is larger than limit 262144',
    );
  });
});
