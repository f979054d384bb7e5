import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Probe } from '@orch/api';
import { realClock } from '../../scheduling/Clock';
import { ProbeWorker, runProbe, type ProbeTarget } from './probes';

describe('probes', () => {
  let dir: string;
  let server: http.Server;
  let port: number;
  let target: ProbeTarget;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-probe-'));
    server = http.createServer((req, res) => {
      res.statusCode = req.url === '/healthz' ? 200 : req.url === '/redirect' ? 302 : 500;
      res.end(req.headers['x-probe'] ?? '');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
    target = {
      container: { ports: [{ name: 'http', containerPort: port }] },
      env: { PATH: process.env.PATH ?? '', FLAG: 'set' },
      cwd: dir,
      host: '127.0.0.1',
    };
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const closedPort = async () => {
    const s = net.createServer();
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    const p = (s.address() as net.AddressInfo).port;
    await new Promise((resolve) => s.close(resolve));
    return p;
  };

  it('exec: succeeds on exit 0 in the container env, fails with its output, times out', async () => {
    expect(await runProbe({ exec: { command: ['sh', '-c', 'test "$FLAG" = set'] } }, target)).toEqual({
      success: true,
      message: '',
    });
    expect(await runProbe({ exec: { command: ['sh', '-c', 'echo not ok; exit 1'] } }, target)).toEqual({
      success: false,
      message: 'not ok\n',
    });
    const slow = await runProbe({ exec: { command: ['sleep', '5'] }, timeoutSeconds: 1 }, target);
    expect(slow).toEqual({ success: false, message: 'command timed out after 1s' });
  });

  it('httpGet: 2xx and 3xx succeed, others fail; a named port is the container port of that name', async () => {
    expect((await runProbe({ httpGet: { path: '/healthz', port: 'http' } } as Probe, target)).success).toBe(
      true,
    );
    expect((await runProbe({ httpGet: { path: '/redirect', port } } as Probe, target)).success).toBe(true);
    expect(await runProbe({ httpGet: { path: '/other', port } } as Probe, target)).toEqual({
      success: false,
      message: 'HTTP probe failed with statuscode: 500',
    });
    const refused = await runProbe({ httpGet: { path: '/', port: await closedPort() } } as Probe, target);
    expect(refused.success).toBe(false);
    expect(refused.message).toContain('ECONNREFUSED');
  });

  it('tcpSocket: succeeds when the port accepts a connection', async () => {
    expect((await runProbe({ tcpSocket: { port } } as Probe, target)).success).toBe(true);
    const closed = await runProbe({ tcpSocket: { port: await closedPort() } } as Probe, target);
    expect(closed.success).toBe(false);
    expect(closed.message).toMatch(/^dial tcp 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
  });

  it('a worker reports a result once it repeated its threshold, every failed attempt on the way', async () => {
    const flag = join(dir, 'ready');
    const results: string[] = [];
    const failures: string[] = [];
    const worker = new ProbeWorker({
      kind: 'readiness',
      probe: { exec: { command: ['cat', flag] }, periodSeconds: 1, successThreshold: 2, failureThreshold: 1 },
      target,
      clock: realClock,
      startedAt: Date.now(),
      gate: () => true,
      onResult: (success) => results.push(success ? 'ready' : 'unready'),
      onFailure: (message) => failures.push(message),
    });
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(results).toEqual(['unready']);
      expect(failures[0]).toContain('No such file');
      writeFileSync(flag, 'ok');
      const written = Date.now();
      const deadline = Date.now() + 5000;
      while (!results.includes('ready') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      // Two successes in a row, a period apart.
      expect(results).toEqual(['unready', 'ready']);
      expect(Date.now() - written).toBeGreaterThanOrEqual(1000);
    } finally {
      worker.stop();
    }
  });
});
