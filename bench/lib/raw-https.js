'use strict';
const net = require('node:net');
const tls = require('node:tls');
const { URL } = require('node:url');

/**
 * Keep-alive HTTPS/1.1 connections for a load generator that sends requests and reads their answers
 * without Node's HTTP client: each request is written as bytes, each answer read to the end of its
 * Content-Length (the server sends one with every answer but watches). Its requests take the load
 * generator a fraction of the CPU of Node's HTTP client, CPU which on a shared machine is taken from
 * the server being measured. One request at a time per connection; the rest wait for a free one.
 */
class RawHttpsClient {
  constructor(url, tlsOptions, connections = 32) {
    this.url = new URL(url);
    this.tls = tlsOptions;
    this.size = connections;
    this.idle = [];
    this.all = [];
    this.waiting = [];
  }

  /** A request's answer: `{ status, body }`; a status of 300 or more rejects, as ApiClient does. */
  request(method, path, body, contentType = 'application/json') {
    const payload =
      body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    const head =
      `${method} ${path} HTTP/1.1\r\nHost: ${this.url.host}\r\nAccept: application/json\r\n` +
      (payload ? `Content-Type: ${contentType}\r\nContent-Length: ${payload.length}\r\n` : '') +
      '\r\n';
    const bytes = payload ? Buffer.concat([Buffer.from(head), payload]) : Buffer.from(head);
    return new Promise((resolve, reject) => {
      const job = { bytes, resolve, reject, label: `${method} ${path}` };
      const conn = this.idle.pop() ?? (this.all.length < this.size ? this.connect() : undefined);
      if (conn) conn.send(job);
      else this.waiting.push(job);
    });
  }

  connect() {
    const socket = tls.connect({
      host: this.url.hostname,
      port: Number(this.url.port),
      servername: net.isIP(this.url.hostname) ? undefined : this.url.hostname,
      ...this.tls,
    });
    socket.setNoDelay(true);
    let job;
    let buffered = null;
    let need = -1;
    let status = 0;
    let bodyAt = 0;
    const done = (error, answer) => {
      const j = job;
      job = undefined;
      buffered = null;
      need = -1;
      if (error) j.reject(error);
      else j.resolve(answer);
      const next = this.waiting.shift();
      if (next) conn.send(next);
      else this.idle.push(conn);
    };
    socket.on('data', (chunk) => {
      buffered = buffered ? Buffer.concat([buffered, chunk]) : chunk;
      if (need < 0) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const headText = buffered.toString('latin1', 0, end);
        status = Number(headText.slice(9, 12));
        const length = /\r\ncontent-length: *(\d+)/i.exec(headText);
        if (!length) {
          socket.destroy();
          return done(new Error(`${job.label}: an answer without Content-Length`));
        }
        bodyAt = end + 4;
        need = bodyAt + Number(length[1]);
      }
      if (buffered.length < need) return;
      const answerBody = buffered.subarray(bodyAt, need);
      if (status >= 300) done(new Error(`${job.label}: ${status} ${answerBody.toString().slice(0, 300)}`));
      else done(undefined, { status, body: answerBody });
    });
    socket.on('error', (e) => job && done(e));
    socket.on('close', () => {
      this.all = this.all.filter((c) => c !== conn);
      this.idle = this.idle.filter((c) => c !== conn);
      if (job) done(new Error(`${job.label}: connection closed`));
    });
    const conn = {
      send: (j) => {
        job = j;
        socket.write(j.bytes);
      },
      socket,
    };
    this.all.push(conn);
    return conn;
  }

  close() {
    for (const c of this.all) c.socket.destroy();
    this.all = [];
    this.idle = [];
  }
}

module.exports = { RawHttpsClient };
