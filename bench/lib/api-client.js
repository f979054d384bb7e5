'use strict';
const https = require('node:https');
const net = require('node:net');
const tls = require('node:tls');
const { URL } = require('node:url');

/** A keep-alive HTTPS JSON client for benchmarks, authenticated with a client certificate. */
class ApiClient {
  constructor(url, tls, maxSockets = 32) {
    this.url = url;
    this.tls = tls;
    this.agent = new https.Agent({ keepAlive: true, maxSockets, ...tls });
  }

  request(method, path, body, contentType = 'application/json', accept = 'application/json') {
    const payload =
      body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = https.request(
        this.url + path,
        {
          method,
          agent: this.agent,
          headers: {
            Accept: accept,
            ...(payload ? { 'Content-Type': contentType, 'Content-Length': payload.length } : {}),
          },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const buf = Buffer.concat(chunks);
            if (res.statusCode >= 300) {
              reject(new Error(`${method} ${path}: ${res.statusCode} ${buf.toString().slice(0, 300)}`));
            } else {
              resolve({ status: res.statusCode, body: buf });
            }
          });
        },
      );
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  /**
   * A GET whose body is read to its end and counted but not kept: the time to receive an answer
   * without the load generator's own copying and garbage collection of it.
   */
  receive(path, accept = 'application/json') {
    return new Promise((resolve, reject) => {
      const req = https.get(this.url + path, { agent: this.agent, headers: { Accept: accept } }, (res) => {
        let bytes = 0;
        res.on('data', (c) => (bytes += c.length));
        res.on('end', () =>
          res.statusCode >= 300
            ? reject(new Error(`GET ${path}: ${res.statusCode}`))
            : resolve({ status: res.statusCode, bytes }),
        );
      });
      req.on('error', reject);
    });
  }

  async json(method, path, body, contentType) {
    const r = await this.request(method, path, body, contentType);
    return JSON.parse(r.body.toString());
  }

  /**
   * Opens a watch; `onEvent(event, receivedAt)` for each event line, parsed from its bytes by `parse`
   * (as JSON unless given), `onOpen()` once the answer has begun; returns a stop function.
   *
   * The watch has a TLS socket of its own and is read without an HTTP client: the request is written
   * by hand and the answer scanned for its event lines (JSON objects; the chunked encoding's size
   * lines are not, and the server writes whole events into each chunk). That takes about a third less
   * of the load generator's CPU than Node's HTTP client, CPU which on a shared machine is taken from
   * the server being measured.
   */
  watch(path, onEvent, parse = parseLine, onOpen = () => undefined) {
    const url = new URL(this.url);
    let head = true;
    /** Bytes of a line not ended yet: copies, since the read buffer is reused. */
    let partial = [];
    const received = (chunk) => {
      const now = process.hrtime.bigint();
      let from = 0;
      if (head) {
        const buffered = Buffer.concat([...partial, chunk]);
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) {
          partial = [buffered];
          return;
        }
        partial = [];
        head = false;
        const status = buffered.toString('latin1', 0, buffered.indexOf('\r\n'));
        if (!/^HTTP\/1\.1 200 /.test(status)) {
          socket.destroy();
          // the benchmark stops here: a watch it cannot open makes every figure after it wrong
          throw new Error(`watch ${path}: ${status}`);
        }
        onOpen();
        chunk = buffered;
        from = end + 4;
      }
      let i;
      while ((i = chunk.indexOf(10, from)) >= 0) {
        let line = chunk.subarray(from, i);
        if (partial.length) {
          line = Buffer.concat([...partial, line]);
          partial = [];
        }
        from = i + 1;
        // event lines are JSON objects; the rest are chunk sizes, the chunks' line ends and keep-alives
        if (line[0] === 123) onEvent(parse(line), now);
      }
      if (from < chunk.length) partial.push(Buffer.from(chunk.subarray(from)));
    };
    // Decrypted bytes are read into one buffer of the watch's own, reused for every read, instead of
    // a new buffer per read: at 100 watchers that allocation (and the page faults of fresh memory it
    // brings) was most of the load generator's CPU, which on a shared machine is the server's.
    const buffer = Buffer.allocUnsafe(64 * 1024);
    const socket = tls.connect({
      host: url.hostname,
      port: Number(url.port),
      servername: net.isIP(url.hostname) ? undefined : url.hostname,
      ...this.tls,
      onread: { buffer, callback: (n) => void received(buffer.subarray(0, n)) },
    });
    socket.setNoDelay(true);
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`,
    );
    socket.on('error', () => undefined);
    return () => socket.destroy();
  }

  close() {
    this.agent.destroy();
  }
}

/** One watch event line (bytes) as JSON. */
function parseLine(line) {
  return JSON.parse(line.toString('utf8'));
}

const typePrefix = Buffer.from('{"type":"');
const namePrefix = Buffer.from('"metadata":{"name":"');

/**
 * A watch event line (bytes) reduced to `{ type, object: { metadata: { name } } }` without decoding
 * or parsing the whole object (the event's type, then the first `name` in its metadata, which the
 * server writes first); parsed in full when the line does not look that way. Keeps the load
 * generator's CPU off the figures.
 */
function eventTypeAndName(line) {
  const typeEnd = line.indexOf(34, typePrefix.length);
  const meta = line.indexOf(namePrefix);
  if (line.indexOf(typePrefix) !== 0 || typeEnd < 0 || meta < 0) return parseLine(line);
  const nameStart = meta + namePrefix.length;
  const name = line.toString('utf8', nameStart, line.indexOf(34, nameStart));
  return { type: line.toString('utf8', typePrefix.length, typeEnd), object: { metadata: { name } } };
}

module.exports = { ApiClient, eventTypeAndName };
