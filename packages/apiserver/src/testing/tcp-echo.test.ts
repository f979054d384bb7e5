import type { Server } from 'node:net';
import { freePort } from '../storage/testing/free-port';
import { startEchoServer, startEchoServerInRange, startNodePortEchoServer, tcpExchange } from './tcp-echo';

describe('startEchoServer and tcpExchange', () => {
  test('the server answers with its tag and what it received, on a port of its choosing', async () => {
    const { server, port } = await startEchoServer('a');
    try {
      expect(port).toBeGreaterThan(0);
      expect(await tcpExchange('127.0.0.1', port, 'hello')).toBe('a:hello');
    } finally {
      server.close();
    }
  });

  test('listens on the port it is given', async () => {
    const wanted = await freePort();
    const { server, port } = await startEchoServer('b', wanted);
    try {
      expect(port).toBe(wanted);
      expect(await tcpExchange('127.0.0.1', wanted, 'x')).toBe('b:x');
    } finally {
      server.close();
    }
  });

  test('in a range, listens on a free port of it, passing over ports that are taken', async () => {
    // a held port whose neighbour is free: whichever of the two the range starts from, it ends on
    // the neighbour
    let blocker: { server: Server; port: number } | undefined;
    while (!blocker) {
      const held = await startEchoServer('blocker');
      const probe = await startEchoServer('probe', held.port + 1).catch(() => undefined);
      if (probe) {
        await new Promise((r) => probe.server.close(r));
        blocker = held;
      } else held.server.close();
    }
    const taken = blocker.port;
    try {
      const next = taken + 1;
      for (let i = 0; i < 4; i++) {
        const { server, port } = await startEchoServerInRange('c', taken, next);
        try {
          expect(port).toBe(next);
          expect(await tcpExchange('127.0.0.1', port, 'y')).toBe('c:y');
        } finally {
          await new Promise((r) => server.close(r));
        }
      }
      await expect(startEchoServerInRange('d', taken, taken)).rejects.toThrow(
        `no free port in ${taken}-${taken}`,
      );
    } finally {
      blocker.server.close();
    }
  });

  test('a node port stand-in listens in the default node port range, 30000-32767', async () => {
    const { server, port } = await startNodePortEchoServer('n');
    try {
      expect(port).toBeGreaterThanOrEqual(30000);
      expect(port).toBeLessThanOrEqual(32767);
      expect(await tcpExchange('127.0.0.1', port, 'z')).toBe('n:z');
    } finally {
      server.close();
    }
  });

  test('an exchange with no listener fails with ECONNREFUSED', async () => {
    const port = await freePort();
    await expect(tcpExchange('127.0.0.1', port, 'x')).rejects.toThrow(/ECONNREFUSED/);
  });
});
