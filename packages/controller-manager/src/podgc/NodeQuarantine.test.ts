import { NodeQuarantine } from './NodeQuarantine';

describe('node quarantine', () => {
  test('a name is ready once the quarantine has passed, then taken out', () => {
    const q = new NodeQuarantine(40_000);
    q.add('gone', 1_000);
    expect(q.takeReady(1_000)).toEqual([]);
    expect(q.takeReady(40_999)).toEqual([]);
    expect(q.takeReady(41_000)).toEqual(['gone']);
    expect(q.size).toBe(0);
    expect(q.takeReady(100_000)).toEqual([]);
  });

  test('adding a name already waiting keeps its first deadline', () => {
    const q = new NodeQuarantine(40_000);
    q.add('gone', 0);
    q.add('gone', 20_000);
    q.add('later', 20_000);
    expect(q.size).toBe(2);
    expect(q.takeReady(40_000)).toEqual(['gone']);
    expect(q.takeReady(59_999)).toEqual([]);
    expect(q.takeReady(60_000)).toEqual(['later']);
  });

  test('a name taken out starts a new quarantine when added again', () => {
    const q = new NodeQuarantine(40_000);
    q.add('n', 0);
    expect(q.takeReady(40_000)).toEqual(['n']);
    q.add('n', 40_000);
    expect(q.takeReady(79_999)).toEqual([]);
    expect(q.takeReady(80_000)).toEqual(['n']);
  });
});
