import { PeriodicCompactor } from './periodic-compactor';

describe('PeriodicCompactor', () => {
  test('compacts to the newest revision older than the retention, and applies the cap', async () => {
    let now = 0;
    let current = 0;
    const compactions: number[] = [];
    let compacted = 0;
    const store = {
      currentRevision: async () => current,
      compactedRevision: async () => compacted,
      compact: async (revision: number) => {
        compactions.push(revision);
        compacted = revision;
      },
    };
    const compactor = new PeriodicCompactor(
      store,
      { intervalMs: 60_000, retentionMs: 300_000, maxRevisions: 1000 },
      () => now,
    );
    try {
      for (let minute = 0; minute <= 7; minute++) {
        now = minute * 60_000;
        current = minute * 100;
        await compactor.tick();
      }
      // Minute 5 compacts to what minute 0 saw (0: nothing), 6 to minute 1's 100, 7 to minute 2's 200.
      expect(compactions).toEqual([100, 200]);
      current = 5000;
      now += 60_000;
      await compactor.tick();
      expect(compactions.at(-1)).toBe(4000);
    } finally {
      await compactor.stop();
    }
  });
});
