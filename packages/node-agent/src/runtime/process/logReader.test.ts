import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCriLine, readContainerLog, rfc3339Nano, type ReadLogOptions } from './logReader';

describe('container log reading', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'orch-log-reader-'));
    file = join(dir, '0.log');
    writeFileSync(
      file,
      [
        '2026-01-01T10:00:00.100Z stdout F one',
        '2026-01-01T10:00:01.000Z stderr F two',
        '2026-01-01T10:00:02.120Z stdout P thr',
        '2026-01-01T10:00:02.130Z stdout F ee',
        '2026-01-01T10:00:03.000Z stdout F four',
        '',
      ].join('\n'),
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const read = async (options: ReadLogOptions, path = file): Promise<string> => {
    const chunks: Buffer[] = [];
    await readContainerLog(path, options, (c) => {
      chunks.push(c);
    });
    return Buffer.concat(chunks).toString();
  };

  it('prints the text of both streams, pieces of a long line joined', async () => {
    expect(await read({})).toBe('one\ntwo\nthree\nfour\n');
  });

  it('keeps the last tailLines entries', async () => {
    expect(await read({ tailLines: 1 })).toBe('four\n');
    expect(await read({ tailLines: 2 })).toBe('ee\nfour\n');
    expect(await read({ tailLines: 0 })).toBe('');
    expect(await read({ tailLines: 10 })).toBe('one\ntwo\nthree\nfour\n');
  });

  it('prefixes each line with its time in RFC3339Nano when asked', async () => {
    expect(await read({ timestamps: true, tailLines: 1 })).toBe('2026-01-01T10:00:03Z four\n');
    expect(await read({ timestamps: true })).toMatch(
      /^2026-01-01T10:00:00\.1Z one\n2026-01-01T10:00:01Z two\n/,
    );
  });

  it('starts at sinceMs', async () => {
    expect(await read({ sinceMs: Date.parse('2026-01-01T10:00:01Z') })).toBe('two\nthree\nfour\n');
    expect(await read({ sinceMs: Date.parse('2026-01-01T11:00:00Z') })).toBe('');
    expect(await read({ sinceMs: Date.parse('2026-01-01T10:00:01Z'), tailLines: 1 })).toBe('four\n');
  });

  it('stops after limitBytes', async () => {
    expect(await read({ limitBytes: 6 })).toBe('one\ntw');
    expect(await read({ limitBytes: 4 })).toBe('one\n');
  });

  it('serves nothing for a file not written yet', async () => {
    expect(await read({}, join(dir, '1.log'))).toBe('');
  });

  it('follows the file until the container stops', async () => {
    let running = true;
    const chunks: string[] = [];
    const done = readContainerLog(
      file,
      { follow: true, tailLines: 1, running: () => running, pollMs: 10 },
      (c) => {
        chunks.push(c.toString());
      },
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(chunks.join('')).toBe('four\n');
    appendFileSync(file, '2026-01-01T10:00:04.000Z stdout F five\n');
    await new Promise((r) => setTimeout(r, 50));
    expect(chunks.join('')).toBe('four\nfive\n');
    appendFileSync(file, '2026-01-01T10:00:05.000Z stdout F six\n');
    running = false;
    await done;
    expect(chunks.join('')).toBe('four\nfive\nsix\n');
  });

  it('stops following when the client goes', async () => {
    const abort = new AbortController();
    const done = read({ follow: true, running: () => true, pollMs: 10, signal: abort.signal });
    await new Promise((r) => setTimeout(r, 30));
    abort.abort();
    expect(await done).toBe('one\ntwo\nthree\nfour\n');
  });

  it('parses CRI lines and formats times as Go does', () => {
    expect(parseCriLine(Buffer.from('2026-01-01T10:00:00Z stdout F '))).toMatchObject({ full: true });
    expect(parseCriLine(Buffer.from('garbage'))).toBeUndefined();
    expect(rfc3339Nano('2026-01-01T10:00:00.000Z')).toBe('2026-01-01T10:00:00Z');
    expect(rfc3339Nano('2026-01-01T10:00:00.123456789Z')).toBe('2026-01-01T10:00:00.123456789Z');
  });
});
