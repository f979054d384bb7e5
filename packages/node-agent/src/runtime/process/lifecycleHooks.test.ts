import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pod } from '@orch/api';
import { MIN_GRACE_AFTER_PRE_STOP_MS, preStopGraceMs, runLifecycleHook } from './lifecycleHooks';
import type { ProbeTarget } from './probes';

const pod = { metadata: { name: 'web', namespace: 'ns1', uid: 'u-1' } } as Pod;
const run = { pod, container: 'app' };

describe('runLifecycleHook', () => {
  let dir: string;
  let target: ProbeTarget;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'orch-hooks-'));
    target = {
      container: { ports: [{ name: 'http', containerPort: 1 }] },
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', WHO: 'hook' },
      cwd: dir,
      host: '127.0.0.1',
    };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("runs an exec hook in the container's environment and directory", async () => {
    const result = await runLifecycleHook(
      { exec: { command: ['sh', '-c', 'echo "$WHO" > out'] } },
      target,
      run,
    );
    expect(result).toBeUndefined();
    expect(readFileSync(join(dir, 'out'), 'utf8')).toBe('hook\n');
  });

  it("fails an exec hook that exits non-zero with the kubelet's message", async () => {
    const result = await runLifecycleHook(
      { exec: { command: ['sh', '-c', 'echo out; echo err >&2; exit 3'] } },
      target,
      run,
    );
    expect(result).toBe(
      'Exec lifecycle hook ([sh -c echo out; echo err >&2; exit 3]) for Container "app" in Pod "web_ns1(u-1)" failed' +
        ` - error: command 'sh -c echo out; echo err >&2; exit 3' exited with 3: err\n, message: "out\\nerr\\n"`,
    );
  });

  it('kills an exec hook when aborted', async () => {
    const abort = new AbortController();
    const started = Date.now();
    setTimeout(() => abort.abort(), 100);
    const result = await runLifecycleHook({ exec: { command: ['sleep', '30'] } }, target, {
      ...run,
      signal: abort.signal,
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result).toContain('exited with 137');
  });

  it('succeeds an httpGet hook on any response; fails it when the request fails', async () => {
    const paths: string[] = [];
    const server = http.createServer((req, res) => {
      paths.push(`${req.url} ${req.headers['user-agent']} ${req.headers['x-hook']}`);
      res.statusCode = 500;
      res.end('no');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const ok = await runLifecycleHook(
        { httpGet: { port: 'http', path: '/start', httpHeaders: [{ name: 'X-Hook', value: 'yes' }] } },
        { ...target, container: { ports: [{ name: 'http', containerPort: port }] } },
        run,
      );
      expect(ok).toBeUndefined();
      expect(paths).toEqual(['/start kube-lifecycle/1.0 yes']);
    } finally {
      await new Promise((r) => server.close(r));
    }
    const failed = await runLifecycleHook({ httpGet: { port, path: '/start' } }, target, run);
    expect(failed).toBe(
      `HTTP lifecycle hook (/start) for Container "app" in Pod "web_ns1(u-1)" failed - error: Get "http://127.0.0.1:${port}/start": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    );
  });

  it('cannot run a tcpSocket handler', async () => {
    expect(await runLifecycleHook({ tcpSocket: { port: 80 } }, target, run)).toMatch(/^Cannot run handler: /);
  });
});

describe('preStopGraceMs', () => {
  const target: ProbeTarget = {
    container: {},
    env: { PATH: process.env.PATH ?? '' },
    cwd: tmpdir(),
    host: '127.0.0.1',
  };

  it('leaves the grace the hook did not use', async () => {
    const failures: string[] = [];
    const left = await preStopGraceMs({ exec: { command: ['true'] } }, target, {
      ...run,
      graceMs: 20_000,
      stopped: new Promise(() => undefined),
      onFailure: (m) => failures.push(m),
    });
    expect(left).toBeGreaterThan(15_000);
    expect(left).toBeLessThanOrEqual(20_000);
    expect(failures).toEqual([]);
  });

  it('gives up a hook at the end of the grace period, leaving the minimum', async () => {
    const failures: string[] = [];
    const started = Date.now();
    const left = await preStopGraceMs({ exec: { command: ['sleep', '30'] } }, target, {
      ...run,
      graceMs: 300,
      stopped: new Promise(() => undefined),
      onFailure: (m) => failures.push(m),
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(left).toBe(MIN_GRACE_AFTER_PRE_STOP_MS);
    expect(failures).toHaveLength(1);
  });
});
