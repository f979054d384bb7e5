'use strict';
// orch-apiserver throughput and latency over HTTPS (JSON, 32 concurrent keep-alive clients), on the
// embedded store and on a one-member etcd, with raw etcd put/s measured in the same run
// (BENCH_BACKENDS=embedded or etcd runs one).
// The ConfigMap verbs are driven by wrk (a native load generator, 1 thread, keep-alive connections,
// bearer-token auth) when it is on PATH, else by the JS client below, which shares the cores. Pods
// are created by RawHttpsClient (lib/raw-https.js): keep-alive TLS connections written and read
// without Node's HTTP client, each request sent in one write as wrk and Go clients send them. It
// takes about a third of that client's CPU (40-60 ms against 140-190 ms per 500 Pod creates), CPU the
// watch figure's creates would otherwise take from the server and the 100 watchers on two cores.

const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Etcd3 } = require('etcd3');
const { EtcdCluster } = require('../packages/apiserver/dist');
const { startBenchServer, token } = require('./lib/bench-server');
const { startWatcherThread } = require('./lib/watchers');
const { ms, percentile, runConcurrent, timeIt } = require('./lib/stats');
const { findWrk, runWrk, luaScript, luaString, luaTable, luaBase64 } = require('./lib/wrk');
const { withProcessCpu } = require('./lib/process-cpu');

const concurrency = 32;
const ops = Number(process.env.BENCH_OPS ?? 5000);
const pods = Number(process.env.BENCH_PODS ?? 10000);
const watchers = 100;
const watchedCreates = 500;
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
/**
 * Unmeasured load before the first measured phase of each server (wrk seconds, or requests with the
 * JS clients, which also warm up the raw etcd3 client): a request path runs unoptimized at first.
 */
const warmupSeconds = 5;
const warmupOps = 4000;
const watchWarmupRounds = 2;
/**
 * Measured watch rounds, their deliveries pooled: the p99 of one round is decided by its slowest five
 * creates, which one pause of the machine moves by tens of milliseconds.
 */
const watchRounds = 3;
const wrk = process.env.BENCH_JS ? undefined : findWrk();

function pod(name, labels = { app: 'bench' }) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'nginx:1.25',
          ports: [{ containerPort: 80 }],
          env: [{ name: 'MODE', value: 'bench' }],
          resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } },
        },
      ],
    },
  };
}

function line(label, r) {
  const cpu = r.cpuPerRequest === undefined ? '' : `   server CPU ${r.cpuPerRequest.toFixed(0)} µs/req`;
  const errors = r.errors ? `   ERRORS ${r.errors}` : '';
  console.log(
    `  ${label.padEnd(28)} ${r.rate.toFixed(0).padStart(7)}/s   p50 ${ms(r.p50)}   p99 ${ms(r.p99)}${cpu}${errors}`,
  );
}

/** Runs a measured phase and adds the server's CPU time per request to its result. */
async function measured(pid, work) {
  const { result, cpuMicros } = await withProcessCpu(pid, work);
  return { ...result, cpuPerRequest: cpuMicros / result.count };
}

/**
 * create/get/merge-patch/delete ConfigMap with wrk: unique names per run, the created ones reused.
 * `bracket(measure)` runs the measured creates (see benchAPIServer).
 */
async function configMapsWithWrk(api, client, ns, dir, bracket) {
  const results = {};
  const pid = api.process.child.pid;
  const url = api.url;
  const headers = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
  const run = (script, s = seconds) =>
    runWrk({ url, script, headers, connections: concurrency, seconds: s, dir });
  const creates = (prefix) =>
    luaScript({
      method: 'POST',
      path: luaString(`${ns}/configmaps`),
      body: `'{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${prefix}-' .. tid .. '-' .. i .. '"},"data":{"key":"value-' .. i .. '"}}'`,
    });
  // not measured: the first requests of a path run unoptimized (JIT warm-up)
  await run(creates('warm'), warmupSeconds);
  results.create = await bracket(() => measured(pid, () => run(creates('cm'))));
  line('create ConfigMap', results.create);
  const names = (await client.json('GET', `${ns}/configmaps`)).items
    .map((i) => i.metadata.name)
    .filter((n) => n.startsWith('cm-'));
  const prelude = `local names = ${luaTable(names)}`;
  const nameOf = (expr) => `${luaString(`${ns}/configmaps/`)} .. names[(${expr} - 1) % #names + 1]`;
  results.get = await measured(pid, () => run(luaScript({ method: 'GET', path: nameOf('i'), prelude })));
  line('get ConfigMap', results.get);
  results.patch = await measured(pid, () =>
    run(
      luaScript({
        method: 'PATCH',
        path: nameOf('i'),
        body: `'{"data":{"other":"x' .. i .. '"}}'`,
        contentType: 'application/merge-patch+json',
        prelude,
      }),
    ),
  );
  line('merge-patch ConfigMap', results.patch);
  // each name is deleted once: the run ends after as many answers as there are names (the few
  // requests sent after the last delete are GETs of the namespace)
  const idle = `wrk.format("GET", ${luaString(ns)})`;
  results.delete = await measured(pid, () =>
    run(luaScript({ method: 'DELETE', path: nameOf('i'), count: names.length, idle, prelude })),
  );
  line('delete ConfigMap', results.delete);
  return results;
}

/** The same four verbs with the JS client (no wrk). */
async function configMapsWithJS(api, client, ns, bracket) {
  const results = {};
  const pid = api.process.child.pid;
  const cm = (i) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${i}` },
    data: { key: `value-${i}` },
  });
  // not measured: the first requests of a path run unoptimized (JIT warm-up)
  await runConcurrent(warmupOps, concurrency, (i) =>
    client.request('POST', `${ns}/configmaps`, { ...cm(i), metadata: { name: `warm-${i}` } }),
  );
  results.create = await bracket(() =>
    measured(pid, () =>
      runConcurrent(ops, concurrency, (i) => client.request('POST', `${ns}/configmaps`, cm(i))),
    ),
  );
  line('create ConfigMap', results.create);
  results.get = await measured(pid, () =>
    runConcurrent(ops, concurrency, (i) => client.request('GET', `${ns}/configmaps/cm-${i}`)),
  );
  line('get ConfigMap', results.get);
  results.patch = await measured(pid, () =>
    runConcurrent(ops, concurrency, (i) =>
      client.request(
        'PATCH',
        `${ns}/configmaps/cm-${i}`,
        { data: { other: `x${i}` } },
        'application/merge-patch+json',
      ),
    ),
  );
  line('merge-patch ConfigMap', results.patch);
  results.delete = await measured(pid, () =>
    runConcurrent(ops, concurrency, (i) => client.request('DELETE', `${ns}/configmaps/cm-${i}`)),
  );
  line('delete ConfigMap', results.delete);
  return results;
}

/**
 * Every figure of one server. `bracket(measure)` runs the measured ConfigMap creates, so that a
 * reference can be measured right before and after them (by default it only runs them).
 */
async function benchAPIServer(label, options, bracket = (measure) => measure()) {
  console.log(`\n${label}`);
  const { api, client, raw, dir, close } = await startBenchServer(options, concurrency);
  const results = {};
  try {
    const ns = '/api/v1/namespaces/bench';
    Object.assign(
      results,
      wrk
        ? await configMapsWithWrk(api, client, ns, dir, bracket)
        : await configMapsWithJS(api, client, ns, bracket),
    );

    results.createPods = await measured(api.process.child.pid, () =>
      runConcurrent(pods, concurrency, (i) => raw.request('POST', `${ns}/pods`, pod(`pod-${i}`))),
    );
    line(`create ${pods} Pods`, results.createPods);
    // The first list after the creates decodes and serializes every Pod once (the server keeps both
    // with the stored version); it is printed on its own, and the figures are of the lists after it,
    // in steady state like every other figure (and like the lists of bench/apply.js).
    results.listFirst = await timeIt(() => client.request('GET', `${ns}/pods`), 1);
    results.listUnset = await timeIt(() => client.request('GET', `${ns}/pods`));
    results.listRV0 = await timeIt(() => client.request('GET', `${ns}/pods?resourceVersion=0`));
    results.listChunks = await timeIt(async () => {
      let cont = '';
      do {
        const page = await client.json(
          'GET',
          `${ns}/pods?limit=500${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`,
        );
        cont = page.metadata.continue ?? '';
      } while (cont);
    });
    console.log(
      `  list ${pods} Pods                rv unset ${ms(results.listUnset)}   rv=0 ${ms(results.listRV0)}   limit=500 chunks ${ms(results.listChunks)}   (first list after the creates ${ms(results.listFirst)})`,
    );

    // watch fan-out: 100 watchers (in a worker thread), 500 creates a round; latency from the create
    // request's start to each delivery, over all measured rounds. Unmeasured rounds first, as for every other figure: the watch
    // path (and the watchers' own thread, the same in every round) runs unoptimized at first; the
    // server's CPU per round still falls by a fifth from the first unmeasured round to the second.
    const thread = startWatcherThread({
      url: api.url,
      tls: { ca: api.pki.ca, cert: api.pki.admin.cert, key: api.pki.admin.key },
    });
    try {
      for (let round = 0; round < watchWarmupRounds; round++)
        await watchFanOut(thread, client, raw, ns, `warmup${round}`);
      const rounds = [];
      for (let round = 0; round < watchRounds; round++)
        rounds.push(await watchFanOut(thread, client, raw, ns, `watched${round}`));
      const latencies = rounds.flatMap((r) => r.latencies);
      results.watch = {
        delivered: rounds.reduce((n, r) => n + r.delivered, 0),
        expected: rounds.reduce((n, r) => n + r.expected, 0),
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        roundsP99: rounds.map((r) => percentile(r.latencies, 99)),
      };
    } finally {
      await thread.close();
    }
    console.log(
      `  watch ${watchers}x${watchedCreates}, ${watchRounds} rounds delivered ${results.watch.delivered}/${results.watch.expected}   p50 ${ms(results.watch.p50)}   p99 ${ms(results.watch.p99)} (rounds' p99: ${results.watch.roundsP99.map(ms).join(', ')})`,
    );
  } finally {
    await close();
  }
  return results;
}

/**
 * `watchers` watches of the pods labelled app=`label` (opened in the watcher `thread`), then
 * `watchedCreates` such pods created at the bench's concurrency (by `raw`): events delivered, and the
 * time from a create request's start to each delivery of its ADDED event (ms).
 */
async function watchFanOut(thread, client, raw, ns, label) {
  const sent = new Map();
  const list = await client.json('GET', `${ns}/pods?labelSelector=app%3D${label}&limit=1`);
  const watching = thread.watch(
    `${ns}/pods?watch=1&labelSelector=app%3D${label}&resourceVersion=${list.metadata.resourceVersion}`,
    watchers,
  );
  await watching.ready;
  await runConcurrent(watchedCreates, concurrency, (i) => {
    sent.set(`${label}-${i}`, process.hrtime.bigint());
    return raw.request('POST', `${ns}/pods`, pod(`${label}-${i}`, { app: label }));
  });
  const deadline = Date.now() + 20_000;
  while (watching.delivered() < watchers * watchedCreates && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  const received = await watching.stop();
  const latencies = [];
  for (const [name, at] of received) {
    const t0 = sent.get(name);
    if (t0 !== undefined) latencies.push(Number(at - t0) / 1e6);
  }
  return { delivered: received.length, expected: watchers * watchedCreates, latencies };
}

const rawValue = JSON.stringify({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'x', namespace: 'bench' },
  data: { key: 'value' },
});

/**
 * Raw etcd puts, driven the way the apiserver's creates are: with wrk (same connections and duration)
 * against etcd's HTTP/JSON gateway, else (or with `jsClient`) with the JS etcd3 client at the same
 * concurrency.
 */
async function rawEtcdPuts(endpoints, jsClient = false) {
  if (wrk && !jsClient) {
    const dir = mkdtempSync(join(tmpdir(), 'orch-bench-'));
    try {
      return await runWrk({
        url: `${endpoints[0]}/v3/kv/put`,
        script: luaScript({
          method: 'POST',
          path: luaString('/v3/kv/put'),
          prelude: `${luaBase64}\nlocal value = ${luaString(Buffer.from(rawValue).toString('base64'))}`,
          body: `'{"key":"' .. b64('/bench/raw/' .. tid .. '/' .. i) .. '","value":"' .. value .. '"}'`,
        }),
        connections: concurrency,
        seconds,
        dir,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const etcd = new Etcd3({ hosts: endpoints });
  try {
    // warmed up like the apiserver (unmeasured puts first)
    await runConcurrent(warmupOps, concurrency, (i) => etcd.put(`/bench/warm/${i}`).value(rawValue));
    return await runConcurrent(ops, concurrency, (i) => etcd.put(`/bench/raw/${i}`).value(rawValue));
  } finally {
    etcd.close();
  }
}

async function main() {
  console.log(
    `orch-apiserver benchmark: HTTPS, JSON, ${concurrency} concurrent keep-alive clients; ConfigMap verbs ${
      wrk
        ? `by wrk (1 thread, ${concurrency} connections, ${seconds} s each, bearer token)`
        : `by the JS client (${ops} ops per verb, client certificate; ${process.env.BENCH_JS ? 'BENCH_JS set' : 'wrk not on PATH'})`
    }; each server warmed up (unmeasured) first`,
  );
  const backends = (process.env.BENCH_BACKENDS ?? 'embedded,etcd').split(',');
  const embedded = backends.includes('embedded')
    ? await benchAPIServer('embedded store (SQLite)', {})
    : undefined;
  let etcd;
  if (backends.includes('etcd')) etcd = await benchEtcd();
  console.log('\nsummary');
  if (embedded) {
    console.log(
      `  embedded create ${embedded.create.rate.toFixed(0)}/s (target >= 3000), get ${embedded.get.rate.toFixed(0)}/s (target >= 5000)`,
    );
    console.log(
      `  embedded list ${pods} Pods ${ms(embedded.listUnset)} (target <= 350 ms), rv=0 ${ms(embedded.listRV0)} (target <= 250 ms)`,
    );
    console.log(
      `  embedded watch p99 ${ms(embedded.watch.p99)} (target <= 100 ms), lost ${embedded.watch.expected - embedded.watch.delivered}`,
    );
  }
  if (etcd) {
    const { results, before, after, gateway } = etcd;
    // the target's "raw etcd3 put/s": puts by the etcd3 client, measured right before and right
    // after the apiserver's creates (the machine's speed drifts; their mean is the reference)
    const reference = (before.rate + after.rate) / 2;
    console.log(
      `  etcd create ${results.create.rate.toFixed(0)}/s = ${(results.create.rate / reference).toFixed(2)} x raw etcd3-client put ${reference.toFixed(0)}/s (${before.rate.toFixed(0)} before, ${after.rate.toFixed(0)} after; target >= 0.5, ${concurrency} in flight)`,
    );
    if (gateway)
      console.log(
        `  etcd create = ${(results.create.rate / gateway.rate).toFixed(2)} x raw put on etcd's JSON gateway by wrk ${gateway.rate.toFixed(0)}/s (for reference: no gRPC client)`,
      );
  }
}

/**
 * orch-apiserver on a one-member etcd, with raw etcd3-client puts on that etcd measured right before
 * and right after the apiserver's measured creates (and, with wrk, raw puts on etcd's JSON gateway
 * first, for reference).
 */
async function benchEtcd() {
  const cluster = await EtcdCluster.start({ members: 1 });
  try {
    const endpoints = cluster.members.map((m) => m.clientUrl);
    let gateway;
    if (wrk) {
      console.log(
        `\netcd, one member: raw puts by wrk on etcd's JSON gateway (/v3/kv/put, ${concurrency} connections, ${seconds} s)`,
      );
      gateway = await rawEtcdPuts(endpoints);
      line('raw etcd put (wrk, gateway)', gateway);
    }
    let before;
    let after;
    const results = await benchAPIServer(
      `orch-apiserver on that etcd (raw etcd3-client puts, ${concurrency} in flight, right before and after its creates)`,
      { etcdServers: endpoints },
      async (measure) => {
        before = await rawEtcdPuts(endpoints, true);
        line('raw etcd3 put, before creates', before);
        const r = await measure();
        after = await rawEtcdPuts(endpoints, true);
        line('raw etcd3 put, after creates', after);
        return r;
      },
    );
    return { results, before, after, gateway };
  } finally {
    await cluster.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
