import { createServer, connect, type Server, type Socket } from 'node:net';
import { SPDY_DICTIONARY } from './dictionary';
import {
  controlFrame,
  dataFrame,
  decodeHeaderBlock,
  encodeHeaderBlock,
  FrameType,
  HeaderCompression,
  parseFrames,
  SpdyConnection,
  type SpdyStream,
} from './SpdyConnection';

describe('SPDY/3.1 framing', () => {
  it('has the 1423-byte header dictionary of SPDY/3', () => {
    expect(SPDY_DICTIONARY.length).toBe(1423);
    expect(SPDY_DICTIONARY.subarray(0, 11)).toEqual(Buffer.from('\0\0\0\x07options', 'latin1'));
    expect(SPDY_DICTIONARY.subarray(-6).toString()).toBe('enq=0.');
  });

  it('encodes and decodes name/value blocks, lower-casing names and joining repeated ones', () => {
    const block = encodeHeaderBlock({ streamType: 'error', port: '8080' });
    expect(block.readUInt32BE(0)).toBe(2);
    expect(decodeHeaderBlock(block)).toEqual({ streamtype: 'error', port: '8080' });
    expect(() => decodeHeaderBlock(block.subarray(0, block.length - 1))).toThrow('truncated');
  });

  it('compresses header blocks in one zlib context per direction', async () => {
    const out = new HeaderCompression('deflate');
    const inp = new HeaderCompression('inflate');
    for (const headers of [{ streamtype: 'stdout' }, { streamtype: 'stderr' }, { streamtype: 'stdout' }]) {
      const compressed = await out.process(encodeHeaderBlock(headers));
      expect(compressed.subarray(-4)).toEqual(Buffer.from([0, 0, 0xff, 0xff]));
      expect(decodeHeaderBlock(await inp.process(compressed))).toEqual(headers);
    }
    out.close();
    inp.close();
  });

  it('splits bytes into control and data frames, keeping a partial frame', () => {
    const ping = controlFrame(FrameType.PING, 0, Buffer.from([0, 0, 0, 1]));
    const data = dataFrame(3, 1, Buffer.from('hi'));
    expect(ping.subarray(0, 4)).toEqual(Buffer.from([0x80, 0x03, 0x00, 0x06]));
    const { frames, rest } = parseFrames(Buffer.concat([ping, data, data.subarray(0, 5)]));
    expect(frames).toEqual([
      { control: true, type: FrameType.PING, flags: 0, streamId: 0, payload: Buffer.from([0, 0, 0, 1]) },
      { control: false, type: 0, flags: 1, streamId: 3, payload: Buffer.from('hi') },
    ]);
    expect(rest.length).toBe(5);
    expect(() => parseFrames(Buffer.from([0x80, 0x02, 0, 6, 0, 0, 0, 0]))).toThrow('version 2');
  });
});

describe('SpdyConnection', () => {
  let server: Server;
  let accepted: SpdyConnection[];
  let client: SpdyConnection;

  beforeEach(async () => {
    accepted = [];
    server = createServer((socket) => {
      const conn = new SpdyConnection(socket, 'server');
      accepted.push(conn);
      conn.on('stream', (stream: SpdyStream) => {
        void stream.reply();
        // echoes in upper case what the client sends, then ends its side
        stream.on('data', (chunk: Buffer) => stream.write(chunk.toString().toUpperCase()));
        stream.on('end', () => stream.end(`bye ${stream.headers.streamtype}`));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const socket: Socket = connect(port, '127.0.0.1');
    client = new SpdyConnection(socket, 'client');
  });

  afterEach(async () => {
    client.destroy();
    for (const c of accepted) c.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const readAll = (stream: SpdyStream) =>
    new Promise<string>((resolve) => {
      let text = '';
      stream.on('data', (c: Buffer) => (text += c.toString()));
      stream.on('end', () => resolve(text));
    });

  it('opens streams the peer replies to, carrying data both ways with FIN', async () => {
    const a = await client.openStream({ streamtype: 'stdin' });
    const b = await client.openStream({ streamtype: 'stdout' });
    expect([a.id, b.id]).toEqual([1, 3]);
    const textA = readAll(a);
    const textB = readAll(b);
    a.end('hello');
    b.end('x'.repeat(100_000));
    expect(await textA).toBe('HELLObye stdin');
    const long = await textB;
    expect(long).toBe(`${'X'.repeat(100_000)}bye stdout`);
  });

  it('answers PING and ends with GOAWAY then close', async () => {
    await client.ping();
    const closed = new Promise<void>((resolve) => client.once('close', resolve));
    const goaway = new Promise<void>((resolve) => client.once('goaway', resolve));
    await client.openStream({ streamtype: 'error' });
    accepted[0]!.close(50);
    await goaway;
    await closed;
    expect(client.isClosed).toBe(true);
  });

  it('ends the streams of a peer that resets them', async () => {
    const s = await client.openStream({ streamtype: 'data' });
    const ended = readAll(s);
    const serverStream = await new Promise<SpdyStream>((resolve) => {
      const check = () => {
        const conn = accepted[0];
        if (conn) conn.once('stream', resolve);
        else setTimeout(check, 5);
      };
      check();
      void client.openStream({ streamtype: 'second' });
    });
    serverStream.reset();
    expect(serverStream.destroyed).toBe(true);
    s.end();
    expect(await ended).toBe('bye data');
  });
});
