'use strict';
// Strategic merge patch and server-side apply throughput on Deployments, and protobuf vs JSON list of
// 10k Pods, against orch-apiserver on the embedded store (HTTPS, 32 concurrent keep-alive clients).
// The patches and applies are driven by wrk (1 thread, bearer-token auth) when it is on PATH, else by
// the JS client, which shares the cores. The apiserver's CPU time per request is printed beside each
// rate: it is what the code costs, while the rate on a shared machine also depends on the neighbours.
// The lists are received by Node's HTTP client (the headline figure), by the bench's own TLS reader,
// which costs the shared cores far less, and, for the transport floor, by that reader from a bare
// HTTPS server holding the same bodies.

const { startBenchServer, token } = require('./lib/bench-server');
const { ms, percentile, runConcurrent, timeIt } = require('./lib/stats');
const { findWrk, runWrk, luaScript, luaString, luaTable } = require('./lib/wrk');
const { withProcessCpu } = require('./lib/process-cpu');
const { RawReceiver } = require('./lib/raw-receiver');
const { startTransportFloor } = require('./lib/transport-floor');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const concurrency = 32;
const deployments = Number(process.env.BENCH_DEPLOYMENTS ?? 200);
const ops = Number(process.env.BENCH_OPS ?? 4000);
const pods = Number(process.env.BENCH_PODS ?? 10000);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
/** Unmeasured wrk seconds before the strategic merge patches are measured. */
const warmupSeconds = 5;
/** Lists of each format measured, in turn, after one unmeasured list of each. */
const listRounds = 21;
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
const wrk = process.env.BENCH_JS ? undefined : findWrk();
const ns = '/apis/apps/v1/namespaces/bench/deployments';
const protobuf = 'application/vnd.kubernetes.protobuf';
const strategicType = 'application/strategic-merge-patch+json';
const applyType = 'application/apply-patch+yaml';

function container(name, image, port, rev) {
  return {
    name,
    image,
    ports: [{ name: 'http', containerPort: port, protocol: 'TCP' }],
    env: [
      { name: 'MODE', value: 'bench' },
      { name: 'LOG_LEVEL', value: 'info' },
      { name: 'REV', value: String(rev) },
    ],
    resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
    imagePullPolicy: 'IfNotPresent',
  };
}

/** A realistic Deployment: two containers with env, ports and resources, labels, a rolling strategy. */
function deployment(name, rev = 0) {
  const labels = { app: name, tier: 'web', 'app.kubernetes.io/part-of': 'bench' };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels, annotations: { 'bench.orch.io/rev': String(rev) } },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: name } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            container('app', 'nginx:1.25', 8080, rev),
            container('sidecar', 'envoy:1.29', 9901, rev),
          ],
          terminationGracePeriodSeconds: 30,
        },
      },
    },
  };
}

/** What `kubectl apply` (client side) sends: the changed values with $setElementOrder directives. */
function strategicPatch(rev) {
  const env = (name) => ({
    name,
    '$setElementOrder/env': [{ name: 'MODE' }, { name: 'LOG_LEVEL' }, { name: 'REV' }],
    env: [{ name: 'REV', value: String(rev) }],
  });
  return {
    metadata: { annotations: { 'bench.orch.io/rev': String(rev) } },
    spec: {
      template: {
        spec: {
          '$setElementOrder/containers': [{ name: 'app' }, { name: 'sidecar' }],
          containers: [env('app'), env('sidecar')],
        },
      },
    },
  };
}

/**
 * A Lua expression building the JSON of `build(...markers)` with each marker replaced by the Lua
 * expression given for it (e.g. the Deployment's name and revision computed from the request number).
 */
function luaJSON(build, expressions) {
  const markers = expressions.map((_, i) => `@@${i}@@`);
  const parts = JSON.stringify(build(...markers)).split(/@@(\d+)@@/);
  return parts.map((p, i) => (i % 2 ? `(${expressions[Number(p)]})` : luaString(p))).join(' .. ');
}

function line(label, r) {
  const cpu = Number.isNaN(r.cpuPerRequest) ? '' : `   apiserver CPU ${r.cpuPerRequest.toFixed(0)} µs/req`;
  const errors = r.errors ? `   ERRORS ${r.errors}` : '';
  console.log(
    `  ${label.padEnd(36)} ${r.rate.toFixed(0).padStart(7)}/s   p50 ${ms(r.p50)}   p99 ${ms(r.p99)}${cpu}${errors}`,
  );
}

/** Runs a measured phase and adds the apiserver's CPU time per request to its result. */
async function measured(pid, work) {
  const { result, cpuMicros } = await withProcessCpu(pid, work);
  return { ...result, cpuPerRequest: cpuMicros / result.count };
}

/**
 * The steady-state measures: strategic merge patches, then applies by one manager, spread over the
 * created Deployments (`web-<n>`), each changing a revision (an env value per container and an
 * annotation).
 */
async function patchAndApply(api, client, pid, dir) {
  const names = Array.from({ length: deployments }, (_, i) => `web-${i}`);
  // warm-up, not measured: one patch per Deployment (the server's code paths compiled, its heap grown)
  await runConcurrent(deployments, concurrency, (i) =>
    client.request('PATCH', `${ns}/${names[i]}`, strategicPatch('warm-up'), strategicType),
  );
  if (wrk) {
    const headers = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
    const prelude = `local names = ${luaTable(names)}`;
    const name = 'names[(i - 1) % #names + 1]';
    const rev = `tid .. "-" .. i`;
    const run = (script, s = seconds) =>
      runWrk({ url: api.url, script, headers, connections: concurrency, seconds: s, dir });
    const smpScript = luaScript({
      method: 'PATCH',
      path: `${luaString(`${ns}/`)} .. ${name}`,
      body: luaJSON(strategicPatch, [rev]),
      contentType: strategicType,
      prelude,
    });
    // unmeasured, as the apiserver bench warms each verb: the patch path at this load runs
    // unoptimized at first
    await run(smpScript, warmupSeconds);
    const smp = await measured(pid, () => run(smpScript));
    await takeOver(client, pid, names);
    const apply = await measured(pid, () =>
      run(
        luaScript({
          method: 'PATCH',
          path: `${luaString(`${ns}/`)} .. ${name} .. "?fieldManager=bench"`,
          body: luaJSON(deployment, [name, rev]),
          contentType: applyType,
          prelude,
        }),
      ),
    );
    return { smp, apply };
  }
  const smp = await measured(pid, () =>
    runConcurrent(ops, concurrency, (i) =>
      client.request('PATCH', `${ns}/${names[i % deployments]}`, strategicPatch(i + 1), strategicType),
    ),
  );
  await takeOver(client, pid, names);
  const apply = await measured(pid, () =>
    runConcurrent(ops, concurrency, (i) =>
      client.request(
        'PATCH',
        `${ns}/${names[i % deployments]}?fieldManager=bench`,
        deployment(names[i % deployments], i + 1),
        applyType,
      ),
    ),
  );
  return { smp, apply };
}

/** The first apply by manager `bench` over each Deployment, forced: it takes over the patched values. */
async function takeOver(client, pid, names) {
  const r = await measured(pid, () =>
    runConcurrent(names.length, concurrency, (i) =>
      client.request(
        'PATCH',
        `${ns}/${names[i]}?fieldManager=bench&force=true`,
        deployment(names[i]),
        applyType,
      ),
    ),
  );
  line('apply Deployment, first (takeover)', r);
}

/**
 * JSON and protobuf lists of the Pods: the median time to receive each, by three receivers in turn
 * (`http`: Node's HTTP client, see ApiClient.receive; `read`: the bench's own TLS reader, see
 * RawReceiver; `floor`: that reader, from a bare HTTPS server holding the same bodies, see
 * transport-floor.js), the apiserver's CPU per list and the ratio of the formats' bytes.
 *
 * Steady state, as for every other figure: one unmeasured list in each format first (the first list
 * after the creates decodes and encodes every object once). Each answer is received to its last
 * byte and counted, not kept.
 */
async function listPods(api, client, credentials, dir, pid, podPath) {
  const jsonBody = (await client.request('GET', podPath)).body;
  const protoBody = (await client.request('GET', podPath, undefined, undefined, protobuf)).body;
  writeFileSync(join(dir, 'list.json'), jsonBody);
  writeFileSync(join(dir, 'list.pb'), protoBody);
  const floorServer = await startTransportFloor(api.pki.files, {
    json: join(dir, 'list.json'),
    proto: join(dir, 'list.pb'),
  });
  const reader = new RawReceiver(api.url, credentials);
  const floorReader = new RawReceiver(floorServer.url, credentials);
  const receivers = {
    http: { json: () => client.receive(podPath), proto: () => client.receive(podPath, protobuf) },
    read: { json: () => reader.receive(podPath), proto: () => reader.receive(podPath, protobuf) },
    floor: { json: () => floorReader.receive('/json'), proto: () => floorReader.receive('/proto') },
  };
  const times = {};
  // the apiserver's CPU time spent on each receiver's lists, by format, over the rounds
  const cpu = {};
  for (const receiver of Object.keys(receivers)) {
    times[receiver] = { json: [], proto: [] };
    cpu[receiver] = { json: 0, proto: 0 };
  }
  try {
    for (const formats of Object.values(receivers)) for (const list of Object.values(formats)) await list();
    for (let i = 0; i < listRounds; i++) {
      for (const [receiver, formats] of Object.entries(receivers)) {
        for (const [format, list] of Object.entries(formats)) {
          const { result, cpuMicros } = await withProcessCpu(pid, () => timeIt(list, 1));
          cpu[receiver][format] += cpuMicros;
          times[receiver][format].push(result);
        }
      }
    }
  } finally {
    reader.close();
    floorReader.close();
    await floorServer.close();
  }
  const lists = {};
  for (const [receiver, formats] of Object.entries(times)) {
    lists[receiver] = { json: percentile(formats.json, 50), proto: percentile(formats.proto, 50) };
  }
  const perList = (micros) => ms(micros / 1000 / listRounds);
  const { http, read, floor } = lists;
  console.log(
    `  list ${pods} Pods (warm, median of ${listRounds})     JSON ${ms(http.json)} (${mb(jsonBody.length)})   protobuf ${ms(http.proto)} (${mb(protoBody.length)})`,
  );
  console.log(
    `  apiserver CPU per list                  JSON ${perList(cpu.http.json)}   protobuf ${perList(cpu.http.proto)}`,
  );
  console.log(`    received by the bench's TLS reader    JSON ${ms(read.json)}   protobuf ${ms(read.proto)}`);
  console.log(
    `    the same bytes from a bare server     JSON ${ms(floor.json)}   protobuf ${ms(floor.proto)}`,
  );
  return {
    lists,
    bytesRatio: protoBody.length / jsonBody.length,
    listCpuRatio: (cpu.http.proto + cpu.read.proto) / (cpu.http.json + cpu.read.json),
  };
}

async function main() {
  console.log(
    `orch-apiserver patch/apply benchmark: embedded store, HTTPS, ${concurrency} concurrent keep-alive clients, ${deployments} Deployments; patches and applies ${
      wrk
        ? `by wrk (1 thread, ${seconds} s each, bearer token)`
        : `by the JS client (${ops} each, client certificate; wrk not on PATH)`
    }`,
  );
  const { api, client, credentials, dir, pid, close } = await startBenchServer({}, concurrency);
  const r = {};
  try {
    r.create = await measured(pid, () =>
      runConcurrent(deployments, concurrency, (i) => client.request('POST', ns, deployment(`web-${i}`))),
    );
    line(`create ${deployments} Deployments`, r.create);

    Object.assign(r, await patchAndApply(api, client, pid, dir));
    line('strategic merge patch Deployment', r.smp);
    line('apply Deployment, steady state', r.apply);

    r.applyCreate = await measured(pid, () =>
      runConcurrent(ops / 4, concurrency, (i) =>
        client.request(
          'PATCH',
          `${ns}/applied-${i}?fieldManager=bench`,
          deployment(`applied-${i}`),
          applyType,
        ),
      ),
    );
    line('apply Deployment, first (create)', r.applyCreate);

    const podPath = '/api/v1/namespaces/bench/pods';
    const pod = (i) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `pod-${i}`, labels: { app: 'bench' } },
      spec: { containers: [container('app', 'nginx:1.25', 8080, 0)] },
    });
    r.createPods = await measured(pid, () =>
      runConcurrent(pods, concurrency, (i) => client.request('POST', podPath, pod(i))),
    );
    line(`create ${pods} Pods`, r.createPods);
    Object.assign(r, await listPods(api, client, credentials, dir, pid, podPath));
  } finally {
    await close();
  }
  console.log('\nsummary');
  console.log(
    `  strategic merge patch ${r.smp.rate.toFixed(0)}/s (target >= 2000), ${r.smp.cpuPerRequest.toFixed(0)} µs apiserver CPU/req`,
  );
  console.log(
    `  server-side apply ${r.apply.rate.toFixed(0)}/s (target >= 1000), ${r.apply.cpuPerRequest.toFixed(0)} µs apiserver CPU/req; first apply (create) ${r.applyCreate.rate.toFixed(0)}/s`,
  );
  const { http, read, floor } = r.lists;
  console.log(
    `  list ${pods} Pods protobuf ${ms(http.proto)} = ${(http.proto / http.json).toFixed(2)} x JSON ${ms(http.json)} (target <= 0.6); its bytes ${r.bytesRatio.toFixed(2)} x JSON's, its apiserver CPU ${r.listCpuRatio.toFixed(2)} x JSON's`,
  );
  console.log(
    `    by the bench's TLS reader: protobuf ${(read.proto / read.json).toFixed(2)} x JSON; the same bytes from a bare HTTPS server: protobuf ${(floor.proto / floor.json).toFixed(2)} x JSON, and the apiserver's lists take ${(read.json / floor.json).toFixed(2)} x (JSON) and ${(read.proto / floor.proto).toFixed(2)} x (protobuf) its time`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
