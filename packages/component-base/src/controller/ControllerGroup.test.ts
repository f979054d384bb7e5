import { SharedInformerFactory } from '@orch/client';
import { ControllerGroup } from './ControllerGroup';

function setup(startIntervalMs = 0) {
  const log: string[] = [];
  // No controller here registers an informer: starting the factory lists nothing.
  const informers = new SharedInformerFactory(undefined, {
    listerWatcherFor: () => {
      throw new Error('no informer expected');
    },
  });
  const group = new ControllerGroup({
    informers,
    logger: {
      info: (m) => log.push(`I ${m}`),
      warning: (m) => log.push(`W ${m}`),
      error: (m) => log.push(`E ${m}`),
    },
    startIntervalMs,
  });
  return { group, log, informers };
}

test('starts controllers in order, skips those whose start returns undefined, stops them all', async () => {
  const { group, log } = setup();
  const stopped: string[] = [];
  const controller = (name: string) => ({ stop: async () => void stopped.push(name) });
  expect(
    await group.start(['a', 'skip', 'b'], (name) => (name === 'skip' ? undefined : controller(name))),
  ).toEqual(['a', 'b']);
  expect(log).toEqual(['I Started "a"', 'I Started "b"']);
  expect(group.get('a')).toBeDefined();
  expect(group.get('skip')).toBeUndefined();
  await group.stop();
  expect(stopped.sort()).toEqual(['a', 'b']);
  // Nothing starts after stop.
  expect(await group.start(['c'], () => controller('c'))).toEqual([]);
});

test('a failing start is logged naming the controller and ends the start', async () => {
  const { group, log } = setup();
  await expect(
    group.start(['a', 'b'], async (name) => {
      if (name === 'a') throw new Error('no client');
      return { stop: async () => undefined };
    }),
  ).rejects.toThrow('no client');
  expect(log).toEqual(['E Error starting "a": no client']);
  await group.stop();
});

test('--controller-start-interval spaces the starts by one to two intervals', async () => {
  const { group } = setup(50);
  const times: number[] = [];
  await group.start(['a', 'b'], () => {
    times.push(Date.now());
    return { stop: async () => undefined };
  });
  const gap = times[1]! - times[0]!;
  expect(gap).toBeGreaterThanOrEqual(45);
  expect(gap).toBeLessThan(150);
  await group.stop();
});
