import { Recommendations } from './Recommendations';

describe('Recommendations (downscale stabilization)', () => {
  test('a scale-down goes no lower than the highest recommendation of the window', () => {
    const r = new Recommendations(300_000);
    r.recordInitial('ns/a', 5, 0);
    expect(r.stabilize('ns/a', 2, 60_000)).toBe(5);
    expect(r.stabilize('ns/a', 3, 120_000)).toBe(5);
    // the initial 5 leaves the window: the highest left is 3
    expect(r.stabilize('ns/a', 1, 310_000)).toBe(3);
    expect(r.stabilize('ns/a', 8, 320_000)).toBe(8);
  });

  test('the first recommendation counts once, keys are apart, a forgotten key starts over', () => {
    const r = new Recommendations(300_000);
    r.recordInitial('ns/a', 4, 0);
    r.recordInitial('ns/a', 9, 0);
    expect(r.stabilize('ns/a', 1, 1)).toBe(4);
    expect(r.stabilize('ns/b', 1, 1)).toBe(1);
    r.forget('ns/a');
    expect(r.stabilize('ns/a', 1, 2)).toBe(1);
  });
});
