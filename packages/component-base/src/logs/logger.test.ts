import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { klogHeader } from './klogHeader';
import { Logger } from './logger';
import type { LoggingOptions } from './loggingOptions';
import { vmoduleLevel } from './vmodule';

// 2020-11-22 21:00:00.123456 local time
const FIXED = new Date(2020, 10, 22, 21, 0, 0, 123).getTime() + 0.456;

function capture(options: Partial<LoggingOptions> = {}): { logger: Logger; lines: () => string[] } {
  let out = '';
  const logger = new Logger(options, { stderr: { write: (t: string) => (out += t) }, now: () => FIXED });
  return { logger, lines: () => out.split('\n').filter((l) => l !== '') };
}

describe('klogHeader', () => {
  it('formats Lmmdd hh:mm:ss.uuuuuu threadid file:line]', () => {
    expect(klogHeader('INFO', new Date(2020, 10, 22, 21, 0, 0), 0, 12345, 'server.ts', 42)).toBe(
      'I1122 21:00:00.000000   12345 server.ts:42] ',
    );
    expect(klogHeader('WARNING', new Date(2021, 0, 2, 3, 4, 5), 6, 7, 'a.ts', 1)).toBe(
      'W0102 03:04:05.000006       7 a.ts:1] ',
    );
  });
});

describe('Logger', () => {
  it('writes klog headers with the caller file and line', () => {
    const { logger, lines } = capture();
    logger.info('Serving securely');
    logger.warning('careful', 3);
    const [first, second] = lines();
    const pid = String(process.pid).padStart(7);
    expect(first).toMatch(
      new RegExp(`^I1122 21:00:00\\.123456 ${pid} logger\\.test\\.ts:(\\d+)\\] Serving securely$`),
    );
    expect(second).toMatch(/^W1122 21:00:00\.123456 +\d+ logger\.test\.ts:\d+\] careful 3$/);
    const line = (l: string): number => Number(/:(\d+)\]/.exec(l)![1]);
    expect(line(second)).toBe(line(first) + 1);
  });

  it('uses I, W and E severities and printf-style arguments', () => {
    const { logger, lines } = capture();
    logger.info('a %s', 'b');
    logger.warning('w');
    logger.error('e');
    expect(lines().map((l) => `${l[0]}|${l.slice(l.indexOf('] ') + 2)}`)).toEqual(['I|a b', 'W|w', 'E|e']);
  });

  it('FATAL logs and exits with 255', () => {
    let code: number | undefined;
    let out = '';
    const logger = new Logger({}, { stderr: { write: (t: string) => (out += t) }, exit: (c) => (code = c) });
    logger.fatal('boom');
    expect(out).toMatch(/^F\d{4} .*\] boom\n$/);
    expect(code).toBe(255);
  });

  it('filters by -v', () => {
    const { logger, lines } = capture({ verbosity: 2 });
    logger.v(1).info('one');
    logger.v(2).info('two');
    logger.v(3).info('three');
    expect(logger.v(2).enabled).toBe(true);
    expect(logger.v(3).enabled).toBe(false);
    expect(lines().map((l) => l.slice(l.indexOf('] ') + 2))).toEqual(['one', 'two']);
  });

  it('lets --vmodule raise the level per file', () => {
    const { logger, lines } = capture({ verbosity: 0, vmodule: [{ pattern: 'logger.test', level: 4 }] });
    logger.v(4).info('file-level');
    logger.v(5).info('hidden');
    expect(lines()).toHaveLength(1);
    expect(vmoduleLevel([{ pattern: 'serv*', level: 3 }], '/a/b/server.ts')).toBe(3);
    expect(vmoduleLevel([{ pattern: 'b/server', level: 1 }], '/a/b/server.ts')).toBeUndefined();
    expect(vmoduleLevel([{ pattern: '*/b/server', level: 1 }], '/a/b/server.ts')).toBe(1);
  });

  it('prints structured key/values like InfoS', () => {
    const { logger, lines } = capture({ verbosity: 1 });
    logger.infoS('Pod status updated', 'pod', 'kube-system/kubedns', 'ready', true, 'count', 3);
    logger.errorS(new Error('connection refused'), 'Failed to update', 'node', 'n1');
    logger.v(1).infoS('dangling', 'key');
    const bodies = lines().map((l) => l.slice(l.indexOf('] ') + 2));
    expect(bodies).toEqual([
      'msg="Pod status updated" pod="kube-system/kubedns" ready=true count=3',
      'msg="Failed to update" err="connection refused" node="n1"',
      'msg="dangling" key="(MISSING)"',
    ]);
  });

  it('writes JSON lines with ts, v, msg and key/values', () => {
    const { logger, lines } = capture({ format: 'json', verbosity: 3 });
    logger.v(3).infoS('Pod status updated', 'pod', 'p1');
    const entry = JSON.parse(lines()[0]);
    expect(entry).toEqual({
      ts: FIXED / 1000,
      caller: expect.stringMatching(/^logger\.test\.ts:\d+$/),
      msg: 'Pod status updated',
      v: 3,
      pod: 'p1',
    });
  });

  it('honours --skip-headers and --add-dir-header', () => {
    const skip = capture({ skipHeaders: true });
    skip.logger.info('bare');
    expect(skip.lines()).toEqual(['bare']);
    const dir = capture({ addDirHeader: true });
    dir.logger.info('x');
    expect(dir.lines()[0]).toContain(`${__dirname}/logger.test.ts:`);
  });

  it('emits a stack trace at --log-backtrace-at', () => {
    const { logger, lines } = capture();
    logger.info('probe');
    const at = Number(/:(\d+)\]/.exec(lines()[0])![1]);
    const traced = capture({ backtraceAt: { file: 'logger.test.ts', line: at + 4 } });
    traced.logger.info('not here');
    traced.logger.info('here');
    const out = traced.lines();
    expect(out[0]).toMatch(/not here$/);
    expect(out[1]).toMatch(/here$/);
    expect(out[2]).toMatch(/^ +at .*logger\.test\.ts:\d+/);
  });

  describe('files', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'orch-logs-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('logs only to stderr while --logtostderr is true', () => {
      const { logger } = capture({ logFile: join(dir, 'a.log') });
      logger.info('x');
      logger.close();
      expect(existsSync(join(dir, 'a.log'))).toBe(false);
    });

    it('writes --log-file with a header; stderr gets only what reaches --stderrthreshold', () => {
      const file = join(dir, 'daemon.log');
      const { logger, lines } = capture({ logtostderr: false, logFile: file, stderrthreshold: 2 });
      logger.info('to file');
      logger.warning('warn to file');
      logger.error('to both');
      logger.close();
      const text = readFileSync(file, 'utf8');
      expect(text).toMatch(/^Log file created at: /);
      expect(text).toContain('Log line format: [IWEF]mmdd hh:mm:ss.uuuuuu threadid file:line] msg\n');
      expect(text).toMatch(/\] to file\n.*\] warn to file\n.*\] to both\n$/);
      expect(lines()).toHaveLength(1);
      expect(lines()[0]).toMatch(/^E.*to both$/);
    });

    it('--alsologtostderr copies everything to stderr; --skip-log-headers drops the file header', () => {
      const file = join(dir, 'b.log');
      const { logger, lines } = capture({
        logtostderr: false,
        alsologtostderr: true,
        logFile: file,
        skipLogHeaders: true,
      });
      logger.info('both');
      logger.close();
      expect(readFileSync(file, 'utf8')).toMatch(/^I.*\] both\n$/);
      expect(lines()).toHaveLength(1);
    });

    it('writes into --log-dir', () => {
      const { logger } = capture({ logtostderr: false, logDir: join(dir, 'sub') });
      logger.info('in dir');
      logger.close();
      expect(readFileSync(join(dir, 'sub', 'orch.log'), 'utf8')).toContain('in dir');
    });

    it('rotates at --log-file-max-size megabytes', () => {
      const file = join(dir, 'r.log');
      const { logger } = capture({
        logtostderr: false,
        logFile: file,
        logFileMaxSizeMB: 1,
        skipHeaders: true,
        skipLogHeaders: true,
      });
      const chunk = 'x'.repeat(1023);
      for (let i = 0; i < 1500; i++) logger.info(chunk);
      logger.close();
      const limit = 1024 * 1024;
      expect(statSync(`${file}.1`).size).toBeLessThanOrEqual(limit);
      expect(statSync(`${file}.1`).size).toBeGreaterThan(limit - 1024);
      expect(statSync(file).size).toBe(1500 * 1024 - statSync(`${file}.1`).size);
    });
  });
});
