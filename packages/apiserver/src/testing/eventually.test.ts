import { eventually } from './eventually';

describe('eventually', () => {
  test('resolves with the first value that is neither undefined nor false', async () => {
    let calls = 0;
    const v = await eventually(() => (++calls < 3 ? false : calls), 'the third call', 2_000);
    expect(v).toBe(3);
  });

  test('treats a throw as not yet', async () => {
    let calls = 0;
    const v = await eventually(async () => {
      if (++calls < 2) throw new Error('not ready');
      return 'ok';
    });
    expect(v).toBe('ok');
  });

  test('fails after the timeout naming what it waited for and the last error', async () => {
    await expect(
      eventually(
        () => {
          throw new Error('still down');
        },
        'the server',
        120,
      ),
    ).rejects.toThrow('timed out waiting for the server: Error: still down');
  });
});
