import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PodStatus } from '@orch/api';
import {
  limitTerminationMessages,
  logFallbackMessage,
  readTerminationMessageFile,
  terminationMessage,
} from './terminationMessage';

describe('termination messages', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'orch-tm-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the last 4096 bytes of the file; nothing when it is missing or older than the run', async () => {
    const file = join(dir, 'msg');
    writeFileSync(file, 'x'.repeat(5000) + 'END');
    const message = await readTerminationMessageFile(file);
    expect(message).toHaveLength(4096);
    expect(message.endsWith('END')).toBe(true);
    expect(await readTerminationMessageFile(join(dir, 'none'))).toBe('');
    const old = join(dir, 'old');
    writeFileSync(old, 'stale');
    utimesSync(old, new Date(1000), new Date(1000));
    expect(await readTerminationMessageFile(old, Date.now() - 10_000)).toBe('');
    expect(await readTerminationMessageFile(old, 0)).toBe('stale');
  });

  it('falls back to the last 80 lines of the log, at most 2048 bytes, only on error with an empty file', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const fallback = logFallbackMessage(Buffer.from(lines));
    expect(fallback.split('\n').filter(Boolean)).toHaveLength(80);
    expect(fallback.startsWith('line 20\n')).toBe(true);
    const long = logFallbackMessage(Buffer.from(`${'y'.repeat(3000)}\nlast\n`));
    expect(Buffer.byteLength(long)).toBe(2048);
    expect(long.endsWith('last\n')).toBe(true);
    const logTail = Buffer.from('boom\n');
    const policy = 'FallbackToLogsOnError';
    expect(terminationMessage({ fileMessage: '', policy, exitCode: 1, logTail })).toBe('boom\n');
    expect(terminationMessage({ fileMessage: '', policy, exitCode: 0, logTail })).toBe('');
    expect(terminationMessage({ fileMessage: 'file', policy, exitCode: 1, logTail })).toBe('file');
    expect(terminationMessage({ fileMessage: '', policy: 'File', exitCode: 1, logTail })).toBe('');
  });

  it('shares 12 KiB of messages evenly among the containers of a pod', () => {
    const terminated = (message: string) => ({ terminated: { exitCode: 1, message } });
    const status = {
      initContainerStatuses: [{ name: 'i', state: terminated('a'.repeat(5000)) }],
      containerStatuses: [
        { name: 'c1', state: terminated('b'.repeat(5000)), lastState: terminated('c'.repeat(100)) },
        { name: 'c2', state: terminated('d'.repeat(3000)) },
      ],
    } as unknown as PodStatus;
    limitTerminationMessages(status);
    expect(status.initContainerStatuses![0]!.state!.terminated!.message).toHaveLength(4096);
    expect(status.containerStatuses![0]!.state!.terminated!.message).toHaveLength(4096);
    expect(status.containerStatuses![0]!.lastState!.terminated!.message).toHaveLength(100);
    expect(status.containerStatuses![1]!.state!.terminated!.message).toHaveLength(3000);
  });
});
