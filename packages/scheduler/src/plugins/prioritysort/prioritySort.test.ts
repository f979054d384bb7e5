import { makePod } from '../../testing/fixtures';
import { PrioritySort } from './prioritySort';

describe('PrioritySort', () => {
  const plugin = new PrioritySort();
  const info = (priority: number | undefined, timestamp: number) => ({
    pod: makePod(`p${priority}-${timestamp}`, priority === undefined ? {} : { priority }),
    timestamp,
    attempts: 0,
    initialAttemptTimestamp: timestamp,
  });
  it.each([
    ['higher priority first', info(10, 2), info(5, 1), true],
    ['lower priority later', info(5, 1), info(10, 2), false],
    ['same priority, earlier first', info(5, 1), info(5, 2), true],
    ['same priority, later not first', info(5, 2), info(5, 1), false],
    ['missing priority is 0', info(undefined, 1), info(-1, 0), true],
  ])('%s', (_name, a, b, want) => {
    expect(plugin.less(a, b)).toBe(want);
  });
});
