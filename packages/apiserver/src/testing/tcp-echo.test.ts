import { freePort } from '../storage/testing/free-port';
import { startEchoServer, tcpExchange } from './tcp-echo';

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

  test('an exchange with no listener fails with ECONNREFUSED', async () => {
    const port = await freePort();
    await expect(tcpExchange('127.0.0.1', port, 'x')).rejects.toThrow(/ECONNREFUSED/);
  });
});
