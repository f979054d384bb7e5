'use strict';
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { startAPIServerProcess } = require('../../packages/apiserver/dist');
const { ApiClient } = require('./api-client');
const { RawHttpsClient } = require('./raw-https');

/** The static bearer token (system:masters) the bench servers accept, for wrk. */
const token = 'bench-token';

/**
 * orch-apiserver as its own process for a benchmark: a scratch directory (server data, wrk scripts),
 * the bench token in `--token-auth-file`, keep-alive clients with the admin certificate (`client`, an
 * ApiClient; `raw`, a RawHttpsClient for request load; `credentials`, their TLS options) and the `bench` namespace with its default service account. `close()` stops everything and removes the
 * directory.
 */
async function startBenchServer(options, concurrency) {
  const dir = mkdtempSync(join(tmpdir(), 'orch-bench-'));
  const tokens = join(dir, 'tokens.csv');
  writeFileSync(tokens, `${token},bench,uid-bench,"system:masters"\n`);
  const api = await startAPIServerProcess({
    ...options,
    dataDir: join(dir, 'server'),
    args: [`--token-auth-file=${tokens}`],
  });
  const credentials = { ca: api.pki.ca, cert: api.pki.admin.cert, key: api.pki.admin.key };
  const client = new ApiClient(api.url, credentials, concurrency);
  const raw = new RawHttpsClient(api.url, credentials, concurrency);
  const close = async () => {
    client.close();
    raw.close();
    await api.destroy();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await client.json('POST', '/api/v1/namespaces', { metadata: { name: 'bench' } });
    await client.json('POST', '/api/v1/namespaces/bench/serviceaccounts', { metadata: { name: 'default' } });
  } catch (e) {
    await close();
    throw e;
  }
  return { api, client, raw, credentials, dir, pid: api.process.child.pid, close };
}

module.exports = { startBenchServer, token };
