import type { EventEmitter } from 'node:events';
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/** An HTTP/1.1 Upgrade request's connection: the raw socket and the bytes read past its headers. */
export interface UpgradeConnection {
  socket: Duplex;
  head: Buffer;
}

const upgrades = new WeakMap<IncomingMessage, UpgradeConnection>();

/** The connection of a request that asks to switch protocols (Connection: Upgrade), else undefined. */
export function upgradeOf(req: IncomingMessage): UpgradeConnection | undefined {
  return upgrades.get(req);
}

/**
 * Serves Upgrade requests through the server's ordinary request handler: the handler gets a response
 * written onto the raw socket (an error answer closes the connection), and a handler that switches
 * protocols takes the socket from upgradeOf(req) and writes its 101 answer itself.
 */
export function serveUpgrades(
  server: EventEmitter,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): void {
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgrades.set(req, { socket, head });
    socket.on('error', () => socket.destroy());
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as never);
    res.on('finish', () => socket.end());
    handler(req, res);
  });
}
