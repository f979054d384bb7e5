'use strict';
const net = require('node:net');
const tls = require('node:tls');
const { URL } = require('node:url');

/**
 * One keep-alive HTTPS/1.1 connection that GETs large answers and counts their bytes without keeping
 * them, read without Node's HTTP client into one buffer reused for every read.
 *
 * Receiving a 20 MB list through Node's HTTP client costs the load generator about as much CPU as the
 * apiserver spends sending it (a new buffer for every read, their garbage collection, the HTTP
 * parser), and on a shared machine that CPU is the server's. This reader leaves TLS decryption as
 * nearly all of its cost, so the time to receive an answer is mostly the server's and the
 * connection's.
 */
class RawReceiver {
  constructor(url, tlsOptions) {
    this.url = new URL(url);
    this.tls = tlsOptions;
    this.buffer = Buffer.allocUnsafe(256 * 1024);
    this.socket = undefined;
    this.job = undefined;
  }

  /** GETs `path`: resolves `{ status, bytes }` (bytes of the body) once its last byte has arrived. */
  receive(path, accept = 'application/json') {
    if (this.job) return Promise.reject(new Error('RawReceiver: one request at a time'));
    const socket = this.socket ?? this.connect();
    return new Promise((resolve, reject) => {
      this.job = { path, resolve, reject, head: [], bodyLeft: -1, bytes: 0, status: 0 };
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${this.url.host}\r\nAccept: ${accept}\r\n\r\n`);
    });
  }

  connect() {
    const socket = tls.connect({
      host: this.url.hostname,
      port: Number(this.url.port),
      servername: net.isIP(this.url.hostname) ? undefined : this.url.hostname,
      ...this.tls,
      onread: { buffer: this.buffer, callback: (n) => void this.received(this.buffer.subarray(0, n)) },
    });
    socket.setNoDelay(true);
    const fail = (error) => {
      this.socket = undefined;
      const job = this.job;
      this.job = undefined;
      job?.reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('RawReceiver: connection closed')));
    this.socket = socket;
    return socket;
  }

  received(chunk) {
    const job = this.job;
    if (!job) return;
    let body = chunk;
    if (job.bodyLeft < 0) {
      // the head is copied, since the read buffer is reused
      job.head.push(Buffer.from(chunk));
      const head = Buffer.concat(job.head);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const text = head.toString('latin1', 0, end);
      const length = /\r\ncontent-length: *(\d+)/i.exec(text);
      job.status = Number(text.slice(9, 12));
      if (!length) {
        this.socket.destroy(new Error(`GET ${job.path}: an answer without Content-Length`));
        return;
      }
      job.bodyLeft = Number(length[1]);
      body = head.subarray(end + 4);
    }
    job.bytes += body.length;
    job.bodyLeft -= body.length;
    if (job.bodyLeft > 0) return;
    this.job = undefined;
    if (job.status >= 300) job.reject(new Error(`GET ${job.path}: ${job.status}`));
    else job.resolve({ status: job.status, bytes: job.bytes });
  }

  close() {
    this.socket?.destroy();
    this.socket = undefined;
  }
}

module.exports = { RawReceiver };
