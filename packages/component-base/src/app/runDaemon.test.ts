import { EventEmitter } from 'node:events';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { controllerManagerFlagSets, schedulerFlagSets } from '../options/daemonFlagSets';
import { FlagError } from '../options/flagError';
import { daemonValidators } from '../options/validateFlags';
import { httpsGet } from '../server/testHttps';
import type { DaemonContext, DaemonSpec } from './runDaemon';
import { runDaemon } from './runDaemon';

interface Captured {
  code: Promise<number>;
  out: () => string;
  err: () => string;
  exits: number[];
  signals: EventEmitter;
}

function launch<C>(spec: DaemonSpec<C>, argv: string[], launcherChannel = false): Captured {
  let out = '';
  let err = '';
  const exits: number[] = [];
  const signals = new EventEmitter();
  const code = runDaemon(spec, {
    argv,
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
    exit: (c) => exits.push(c),
    signals,
    launcherChannel,
  });
  return { code, out: () => out, err: () => err, exits, signals };
}

const scheduler = (
  run: DaemonSpec<Record<string, unknown>>['run'] = () => undefined,
): DaemonSpec<Record<string, unknown>> => ({
  name: 'orch-scheduler',
  description: 'The orch scheduler.',
  flagSets: schedulerFlagSets(),
  validators: daemonValidators('scheduler'),
  run,
});

describe('runDaemon', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'orch-run-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('--help prints sectioned help and exits 0 without running', async () => {
    const run = jest.fn();
    const r = launch(scheduler(run), ['--help']);
    expect(await r.code).toBe(0);
    expect(r.exits).toEqual([0]);
    expect(r.out()).toContain('The orch scheduler.\n\nUsage:\n  orch-scheduler [flags]\n');
    expect(r.out()).toContain('\nLeader election flags:\n');
    expect(run).not.toHaveBeenCalled();
    const short = launch(scheduler(run), ['-h']);
    expect(await short.code).toBe(0);
  });

  it('--version prints the version and exits 0', async () => {
    const r = launch(scheduler(), ['--version']);
    expect(await r.code).toBe(0);
    expect(r.out()).toBe('orch v1.29.0\n');
    const raw = launch(scheduler(), ['--version=raw']);
    expect(await raw.code).toBe(0);
    expect(JSON.parse(raw.out())).toMatchObject({ major: '1', minor: '29', gitVersion: 'v1.29.0' });
  });

  it('reports unknown flags and bad values without a stack trace and exits 1', async () => {
    const r = launch(scheduler(), ['--secure-port', 'abc']);
    expect(await r.code).toBe(1);
    expect(r.err()).toBe(
      'Error: invalid argument "abc" for "--secure-port" flag: strconv.ParseInt: parsing "abc": invalid syntax\n' +
        "Run 'orch-scheduler --help' for usage.\n",
    );
    const unknown = launch(scheduler(), ['--bogus']);
    expect(await unknown.code).toBe(1);
    expect(unknown.err()).toContain('Error: unknown flag: --bogus\n');
    expect(unknown.err()).not.toMatch(/\n\s+at /);
  });

  it('reports every validation problem together', async () => {
    const r = launch(scheduler(), [
      '--secure-port=70000',
      '--leader-elect-renew-deadline=1m',
      '--feature-gates=Nope=true',
    ]);
    expect(await r.code).toBe(1);
    expect(
      r
        .err()
        .split('\n')
        .filter((l) => l.startsWith('Error: ')),
    ).toEqual([
      'Error: --secure-port 70000 must be between 0 and 65535, inclusive. 0 for turning off secure port',
      'Error: --leader-elect-renew-deadline (1m0s) must be less than or equal to --leader-elect-lease-duration (15s)',
      'Error: --feature-gates: unrecognized feature gate: Nope',
    ]);
  });

  it('prints deprecation warnings and the FLAG lines at -v=1', async () => {
    const r = launch(
      scheduler(() => ({})),
      ['--secure-port=0', '--port=0', '-v=1'],
    );
    await new Promise((resolve) => setImmediate(resolve));
    r.signals.emit('SIGTERM');
    expect(await r.code).toBe(0);
    expect(r.err()).toContain('Flag --port has been deprecated, see --secure-port instead.\n');
    expect(r.err()).toMatch(/^I\d{4} [\d:.]+ +\d+ runDaemon\.ts:\d+\] FLAG: --secure-port="0"$/m);
    expect(r.err()).toMatch(/FLAG: --leader-elect-lease-duration="15s"$/m);
    expect(r.err()).toMatch(/FLAG: --authorization-always-allow-paths="\[\/healthz\]"$/m);
  });

  it('logs a notice for each notice-only flag given, and none for those left alone', async () => {
    const r = launch(
      { ...scheduler(), noticeOnlyFlags: { port: 'not served', 'contention-profiling': 'none' } },
      ['--secure-port=0', '--port=0'],
    );
    await new Promise((resolve) => setImmediate(resolve));
    r.signals.emit('SIGTERM');
    expect(await r.code).toBe(0);
    expect(r.err()).toContain('Flag --port is accepted but has no effect: not served');
    expect(r.err()).not.toContain('--contention-profiling');
  });

  it('does not print FLAG lines at the default verbosity', async () => {
    const r = launch(scheduler(), ['--secure-port=0']);
    await new Promise((resolve) => setImmediate(resolve));
    r.signals.emit('SIGINT');
    expect(await r.code).toBe(0);
    expect(r.err()).not.toContain('FLAG:');
    expect(r.err()).toContain('Received SIGINT, shutting down');
  });

  it('stops and exits 1 when the daemon reports it can no longer run', async () => {
    const stop = jest.fn();
    let fail: (reason: string) => void = () => undefined;
    const r = launch(
      scheduler(() => ({ stop, failed: new Promise<string>((resolve) => (fail = resolve)) })),
      ['--secure-port=0'],
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.exits).toEqual([]);
    fail('error starting controllers: no client');
    expect(await r.code).toBe(1);
    expect(r.exits).toEqual([1]);
    expect(stop).toHaveBeenCalledTimes(1);
    expect(r.err()).toMatch(/^E.*\] error starting controllers: no client, shutting down$/m);
    // a signal after the failure changes nothing
    r.signals.emit('SIGTERM');
    expect(r.exits).toEqual([1]);
  });

  it('stops gracefully when the launcher that started it with an IPC channel is gone', async () => {
    const stop = jest.fn();
    const r = launch(
      scheduler(() => ({ stop })),
      ['--secure-port=0'],
      true,
    );
    await new Promise((resolve) => setImmediate(resolve));
    r.signals.emit('disconnect');
    expect(await r.code).toBe(0);
    expect(stop).toHaveBeenCalledTimes(1);
    expect(r.err()).toContain('The launcher is gone (its IPC channel closed), shutting down');
  });

  it('exits after a grace period when its stop hangs once the launcher is gone', async () => {
    let out = '';
    const exits: number[] = [];
    const signals = new EventEmitter();
    const hanging = scheduler(() => ({ stop: () => new Promise<void>(() => undefined) }));
    void runDaemon(hanging, {
      argv: ['--secure-port=0'],
      stderr: { write: (t: string) => (out += t) },
      exit: (c) => exits.push(c),
      signals,
      launcherChannel: true,
      launcherGoneGraceMs: 50,
    });
    await new Promise((resolve) => setImmediate(resolve));
    signals.emit('disconnect');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(exits).toEqual([1]);
    expect(out).toContain('stopping took longer than its grace period after the launcher went, exiting');
  });

  it('exits at once when the launcher is gone while it is still starting', async () => {
    let out = '';
    const exits: number[] = [];
    const signals = new EventEmitter();
    let started!: () => void;
    const slow = scheduler(() => new Promise<void>((resolve) => (started = resolve)));
    const code = runDaemon(slow, {
      argv: ['--secure-port=0'],
      stderr: { write: (t: string) => (out += t) },
      exit: (c) => exits.push(c),
      signals,
      launcherChannel: true,
    });
    await new Promise((resolve) => setImmediate(resolve));
    signals.emit('disconnect');
    expect(exits).toEqual([0]);
    expect(out).toContain('The launcher is gone (its IPC channel closed) while starting, exiting');
    // run returning later changes nothing
    started();
    expect(await code).toBe(0);
    expect(exits).toEqual([0]);
  });

  it('ignores a channel closing when it was not started with one', async () => {
    const r = launch(scheduler(), ['--secure-port=0']);
    await new Promise((resolve) => setImmediate(resolve));
    r.signals.emit('disconnect');
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.exits).toEqual([]);
    r.signals.emit('SIGTERM');
    expect(await r.code).toBe(0);
  });

  it('applies --config with flags overriding it', async () => {
    const file = join(dir, 'sched.yaml');
    writeFileSync(
      file,
      'schedulerName: from-file\nleaderElection:\n  leaseDuration: 20s\n  renewDeadline: 5s\n',
    );
    let seen: DaemonContext<Record<string, unknown>> | undefined;
    const r = launch(
      scheduler((ctx) => {
        seen = ctx;
      }),
      ['--secure-port=0', '--config', file, '--leader-elect-renew-deadline=7s'],
    );
    await new Promise((resolve) => setImmediate(resolve));
    r.signals.emit('SIGTERM');
    expect(await r.code).toBe(0);
    expect(seen?.flags.string('scheduler-name')).toBe('from-file');
    expect(seen?.flags.format('leader-elect-lease-duration')).toBe('20s');
    expect(seen?.flags.format('leader-elect-renew-deadline')).toBe('7s');
    expect(seen?.server).toBeUndefined();
  });

  it('--write-config-to writes the configuration and exits 0', async () => {
    const file = join(dir, 'out.yaml');
    const run = jest.fn();
    const r = launch(scheduler(run), ['--write-config-to', file, '--scheduler-name=x']);
    expect(await r.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('scheduler-name: x\n');
    expect(run).not.toHaveBeenCalled();
  });

  it('serves HTTPS on the secure port, builds the config and stops gracefully on SIGTERM', async () => {
    const stop = jest.fn();
    let ctx: DaemonContext<{ controllers: string[] }> | undefined;
    const spec: DaemonSpec<{ controllers: string[] }> = {
      name: 'orch-controller-manager',
      flagSets: controllerManagerFlagSets(),
      validators: daemonValidators('controller-manager'),
      buildConfig: (flags) => ({ controllers: flags.strings('controllers') }),
      run: (c) => {
        ctx = c;
        c.health.add({ name: 'informer-sync', check: () => undefined }, ['readyz']);
        return { stop };
      },
    };
    const port = await freePort();
    const live = launch(spec, [
      `--secure-port=${port}`,
      '--bind-address=127.0.0.1',
      `--cert-dir=${join(dir, 'certs')}`,
      '--controllers=*,-ttl',
      '--feature-gates=AllAlpha=true',
    ]);
    await waitFor(async () => (await httpsGet(port, '/healthz').catch(() => undefined))?.status === 200);
    expect((await httpsGet(port, '/readyz?verbose')).body).toBe(
      '[+]ping ok\n[+]informer-sync ok\nreadyz check passed\n',
    );
    expect((await httpsGet(port, '/livez')).status).toBe(200);
    expect((await httpsGet(port, '/configz')).status).toBe(403);
    expect(readFileSync(join(dir, 'certs', 'orch-controller-manager.crt'), 'utf8')).toContain(
      'BEGIN CERTIFICATE',
    );
    expect(ctx?.config).toEqual({ controllers: ['*', '-ttl'] });
    expect(ctx?.featureGates.enabled('EndpointSlice')).toBe(true);
    expect(ctx?.server?.port).toBe(port);
    live.signals.emit('SIGTERM');
    expect(await live.code).toBe(0);
    expect(stop).toHaveBeenCalledTimes(1);
    expect(live.err()).toContain(`Serving securely on 127.0.0.1:${port}`);
    await expect(httpsGet(port, '/healthz')).rejects.toThrow();
  });

  it('an explicit --authorization-always-allow-paths list is honoured exactly', async () => {
    const port = await freePort();
    const r = launch(scheduler(), [
      `--secure-port=${port}`,
      '--bind-address=127.0.0.1',
      '--authorization-always-allow-paths=/healthz,/metrics',
    ]);
    await waitFor(async () => (await httpsGet(port, '/healthz').catch(() => undefined))?.status === 200);
    expect((await httpsGet(port, '/metrics')).status).toBe(200);
    expect((await httpsGet(port, '/readyz')).status).toBe(403);
    r.signals.emit('SIGTERM');
    expect(await r.code).toBe(0);
  });

  it('a busy secure port is reported as a message and exits 1; the HTTP/2 limit gets a notice', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const run = jest.fn();
      const r = launch(scheduler(run), [
        `--secure-port=${port}`,
        '--bind-address=127.0.0.1',
        '--http2-max-streams-per-connection=100',
      ]);
      expect(await r.code).toBe(1);
      expect(r.err()).toContain(
        '--http2-max-streams-per-connection=100 accepted; this server speaks HTTP/1.1',
      );
      expect(r.err()).toMatch(/^E.*\] orch-scheduler failed: listen EADDRINUSE.*$/m);
      expect(r.err()).not.toMatch(/\n\s+at /);
      expect(run).not.toHaveBeenCalled();
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });

  it('a configuration mistake found while building the config is reported as a message and exits 1', async () => {
    const run = jest.fn();
    const r = launch(
      {
        ...scheduler(run),
        buildConfig: () => {
          throw new FlagError('--policy-config-file: no such file "x.json"');
        },
      },
      ['--secure-port=0'],
    );
    expect(await r.code).toBe(1);
    expect(r.err()).toMatch(/^E.*\] --policy-config-file: no such file "x.json"$/m);
    expect(run).not.toHaveBeenCalled();
  });

  it('a failing run is reported as a message and exits 1', async () => {
    const r = launch(
      scheduler(() => {
        throw new Error('cannot reach the API server');
      }),
      ['--secure-port=0'],
    );
    expect(await r.code).toBe(1);
    expect(r.err()).toMatch(/^E.*\] orch-scheduler failed: cannot reach the API server$/m);
    expect(r.err()).not.toMatch(/\n\s+at /);
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition not met');
}
