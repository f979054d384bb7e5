import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { ContainerLog } from './ContainerLog';
import { criLogText } from './logReader';
import { ContainerProcess } from './ContainerProcess';

describe('ContainerProcess', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'orch-cp-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = (argv: string[], env: Record<string, string> = {}, stdin?: { stdinOnce: boolean }) => {
    const file = join(dir, `${Math.random().toString(36).slice(2)}.log`);
    const log = new ContainerLog(file);
    const proc = new ContainerProcess({
      argv,
      env: { PATH: process.env.PATH ?? '', ...env },
      cwd: dir,
      log,
      ...(stdin ? { stdin: true, stdinOnce: stdin.stdinOnce } : {}),
    });
    return { proc, log, file };
  };

  /** Attaches with fresh streams; `text()` is what reached the client's stdout and stderr. */
  const attach = (proc: ContainerProcess, tty = false) => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (c: Buffer) => (out += c.toString()));
    stderr.on('data', (c: Buffer) => (err += c.toString()));
    const abort = new AbortController();
    const done = proc.attach({ stdin, stdout, stderr, tty, signal: abort.signal });
    return { stdin, done, abort, text: () => ({ out, err }) };
  };

  const until = async (check: () => boolean): Promise<void> => {
    while (!check()) await new Promise((r) => setTimeout(r, 10));
  };

  it('attaches: stdin reaches the container, its output the client; stdinOnce closes stdin after the first client', async () => {
    const { proc } = run(
      ['sh', '-c', 'while read l; do echo "out $l"; echo "err $l" >&2; done; echo bye'],
      {},
      { stdinOnce: true },
    );
    const a = attach(proc);
    a.stdin.write('one\n');
    await until(() => a.text().out.includes('out one') && a.text().err.includes('err one'));
    a.stdin.end();
    expect(await a.done).toEqual({ exitCode: 0 });
    expect(await proc.exited).toEqual({ exitCode: 0 });
    expect(a.text().out).toBe('out one\nbye\n');
  });

  it('attaches: without stdinOnce the container keeps its stdin when a client leaves; a terminal merges stderr', async () => {
    const { proc } = run(
      ['sh', '-c', 'while read l; do echo "out $l"; echo "err $l" >&2; done'],
      {},
      { stdinOnce: false },
    );
    const first = attach(proc);
    first.stdin.end('one\n');
    await until(() => first.text().out.includes('out one'));
    first.abort.abort();
    expect(await first.done).toEqual({ exitCode: 0 });
    expect(proc.running).toBe(true);
    const second = attach(proc, true);
    second.stdin.write('two\n');
    await until(() => second.text().out.includes('err two') && second.text().out.includes('out two'));
    // two pipes: their order is not kept
    expect(second.text().out.split('\n').sort()).toEqual(['', 'err two', 'out two']);
    expect(second.text().err).toBe('');
    proc.kill('SIGKILL');
    await second.done;
  });

  it('runs the command with its env and cwd, its output in a CRI log', async () => {
    const { proc, file, log } = run(
      ['sh', '-c', 'echo "hello $WHO"; pwd; echo oops >&2; printf partial; exit 3'],
      {
        WHO: 'world',
      },
    );
    expect(await proc.exited).toEqual({ exitCode: 3 });
    const content = readFileSync(file, 'utf8');
    expect(content).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z stdout F hello world$/m);
    expect(content).toMatch(/ stderr F oops$/m);
    expect(criLogText(content).split('\n').sort()).toEqual(
      ['', 'hello world', dir, 'oops', 'partial'].sort(),
    );
    expect(log.tail().toString()).toContain('hello world\n');
  });

  it('reports a program that cannot start', async () => {
    const { proc } = run(['no-such-program-here']);
    expect(await proc.exited).toEqual({
      exitCode: 128,
      startError: 'exec: "no-such-program-here": executable file not found in $PATH',
    });
  });

  it('stops through the main process, killing the rest of its group, reporting 128 + the signal', async () => {
    const { proc } = run(['sh', '-c', 'sleep 30 & sleep 30; echo never']);
    await new Promise((r) => setTimeout(r, 100));
    expect(proc.running).toBe(true);
    proc.kill('SIGTERM');
    expect(await proc.exited).toEqual({ exitCode: 143 });
  });

  it('sends SIGTERM to the main process only, as a runtime stopping a container', async () => {
    const { proc, file } = run(['sh', '-c', 'trap "echo trapped" TERM; sh -c "sleep 0.5; echo child done"']);
    await new Promise((r) => setTimeout(r, 150));
    proc.kill('SIGTERM');
    expect(await proc.exited).toEqual({ exitCode: 0 });
    expect(criLogText(readFileSync(file, 'utf8'))).toBe('child done\ntrapped\n');
  });

  it('kills what the main process leaves behind when it exits', async () => {
    const { proc, file } = run(['sh', '-c', '(sleep 30; echo orphan) & echo $! ; exit 0']);
    expect(await proc.exited).toEqual({ exitCode: 0 });
    const pid = Number(criLogText(readFileSync(file, 'utf8')).trim());
    // Gone, or a zombie waiting for its new parent to reap it.
    let state = 'gone';
    try {
      state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.slice(0, 1);
    } catch {
      // Gone.
    }
    expect(['gone', 'Z']).toContain(state);
  });
});
