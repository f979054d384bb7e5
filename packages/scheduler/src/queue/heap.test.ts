import { Heap } from './heap';

describe('Heap', () => {
  it('pops in order and supports update and delete by key', () => {
    const h = new Heap<{ k: string; v: number }>(
      (x) => x.k,
      (a, b) => a.v < b.v,
    );
    for (const [k, v] of [
      ['a', 5],
      ['b', 3],
      ['c', 8],
      ['d', 1],
      ['e', 9],
    ] as const)
      h.addOrUpdate({ k, v });
    h.addOrUpdate({ k: 'c', v: 0 });
    expect(h.delete('b')?.v).toBe(3);
    expect(h.has('b')).toBe(false);
    const out: string[] = [];
    while (h.length > 0) out.push(h.pop()!.k);
    expect(out).toEqual(['c', 'd', 'a', 'e']);
  });
});
