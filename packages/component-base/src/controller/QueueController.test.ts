import type { ControllerContext } from './ControllerContext';
import { QueueController } from './QueueController';

/** Counts its syncs; `every` enqueues one key periodically. */
class Ticker extends QueueController {
  readonly synced: string[] = [];

  constructor(ctx: ControllerContext, periodMs: number) {
    super('ticker', ctx);
    this.every(periodMs, () => this.queue.add('tick'));
    this.run([]);
  }

  protected async sync(key: string): Promise<void> {
    this.synced.push(key);
  }
}

const errors: string[] = [];
const ctx = {
  logger: { info: () => undefined, warning: () => undefined, error: (m: string) => errors.push(m) },
  workers: 1,
  now: Date.now,
} as unknown as ControllerContext;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('QueueController.every', () => {
  test('enqueues on each period while running and not after stop', async () => {
    const c = new Ticker(ctx, 20);
    await sleep(150);
    expect(c.synced.length).toBeGreaterThanOrEqual(2);
    await c.stop();
    const after = c.synced.length;
    await sleep(100);
    expect(c.synced.length).toBe(after);
    expect(errors).toEqual([]);
  });

  test('periods under 10 ms are raised to 10 ms', async () => {
    const c = new Ticker(ctx, 0);
    await sleep(55);
    await c.stop();
    // At most one tick per 10 ms (the queue also folds a tick that is still waiting).
    expect(c.synced.length).toBeGreaterThanOrEqual(1);
    expect(c.synced.length).toBeLessThanOrEqual(6);
  });
});
