'use strict';
const { spawn } = require('node:child_process');
const https = require('node:https');
const { readFileSync } = require('node:fs');

/**
 * The transport floor of an answer: a bare HTTPS server, in a process of its own, that holds given
 * bodies and writes each as the apiserver writes a large answer (orch-apiserver's `writeAnswer`: the
 * same chunks, the same wait for each to drain), with the apiserver's certificate and TLS settings.
 * What it takes to receive a body from it is what the bytes alone cost: TLS on both sides and the
 * loopback connection, without parsing the request, authenticating, authorizing or assembling a list.
 *
 * Run as a script, it is that server: `node transport-floor.js <cert> <key> <ca> <name>=<file>...`
 * serves each file at `/<name>` and prints its port.
 */
async function startTransportFloor(files, bodies) {
  const args = [module.filename, files.apiserverCert, files.apiserverKey, files.caCert];
  for (const [name, file] of Object.entries(bodies)) args.push(`${name}=${file}`);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`transport floor server exited (${code})`)));
    child.stdout.once('data', (d) => resolve(Number(String(d).trim())));
  });
  return {
    url: `https://127.0.0.1:${port}`,
    pid: child.pid,
    close: () =>
      new Promise((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

function serve([cert, key, ca, ...bodyArgs]) {
  const { writeAnswer } = require('../../packages/apiserver/dist/handlers/write-answer');
  const { tlsServerTuning } = require('../../packages/component-base/dist');
  const slice = 256 * 1024;
  const bodies = new Map();
  for (const arg of bodyArgs) {
    const at = arg.indexOf('=');
    const bytes = readFileSync(arg.slice(at + 1));
    // parts of the apiserver's chunk size, so that each chunk leaves as it is, without a copy
    const parts = [];
    for (let i = 0; i < bytes.length; i += slice) parts.push(bytes.subarray(i, i + slice));
    bodies.set(`/${arg.slice(0, at)}`, parts);
  }
  const server = https.createServer(
    {
      cert: readFileSync(cert),
      key: readFileSync(key),
      ca: readFileSync(ca),
      requestCert: true,
      rejectUnauthorized: false,
      ...tlsServerTuning('', []),
    },
    (req, res) => {
      const parts = bodies.get(req.url);
      if (!parts) {
        res.writeHead(404).end();
        return;
      }
      writeAnswer(res, { code: 200, contentType: 'application/octet-stream', warnings: [] }, parts, false);
    },
  );
  server.keepAliveTimeout = 120_000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
}

if (require.main === module) serve(process.argv.slice(2));

module.exports = { startTransportFloor };
