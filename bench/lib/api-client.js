'use strict';
const https = require('node:https');

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

  async json(method, path, body, contentType) {
    const r = await this.request(method, path, body, contentType);
    return JSON.parse(r.body.toString());
  }

  /** Opens a watch; `onEvent(event, receivedAt)` for each line; returns a stop function. */
  watch(path, onEvent) {
    const agent = new https.Agent({ keepAlive: false, ...this.tls });
    let buf = '';
    const req = https.get(this.url + path, { agent }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        const now = process.hrtime.bigint();
        buf += chunk;
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (line.trim()) onEvent(JSON.parse(line), now);
        }
      });
    });
    req.on('error', () => undefined);
    return () => req.destroy();
  }

  close() {
    this.agent.destroy();
  }
}

module.exports = { ApiClient };
