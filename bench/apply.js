'use strict';
// Strategic merge patch and server-side apply throughput on Deployments, and protobuf vs JSON list of
// 10k Pods, against orch-apiserver on the embedded store (HTTPS, 32 concurrent keep-alive clients).
// The patches and applies are driven by wrk (1 thread, bearer-token auth) when it is on PATH, else by
// the JS client, which shares the cores. The apiserver's CPU time per request is printed beside each
// rate: it is what the code costs, while the rate on a shared machine also depends on the neighbours.

const { startBenchServer, token } = require('./lib/bench-server');
const { ms, percentile, runConcurrent, timeIt } = require('./lib/stats');
const { findWrk, runWrk, luaScript, luaString, luaTable } = require('./lib/wrk');
const { withProcessCpu } = require('./lib/process-cpu');

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

async function main() {
  console.log(
    `orch-apiserver patch/apply benchmark: embedded store, HTTPS, ${concurrency} concurrent keep-alive clients, ${deployments} Deployments; patches and applies ${
      wrk
        ? `by wrk (1 thread, ${seconds} s each, bearer token)`
        : `by the JS client (${ops} each, client certificate; wrk not on PATH)`
    }`,
  );
  const { api, client, dir, pid, close } = await startBenchServer({}, concurrency);
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
    // steady state, as for every other figure: one unmeasured list in each format (the first list
    // after the creates decodes and encodes every object once), then the two formats in turn
    // each answer is received to its last byte and counted, not kept (see ApiClient.receive)
    const listJSON = () => client.receive(podPath);
    const listProto = () => client.receive(podPath, protobuf);
    const jsonBytes = (await listJSON()).bytes;
    const protoBytes = (await listProto()).bytes;
    r.bytesRatio = protoBytes / jsonBytes;
    const jsonTimes = [];
    const protoTimes = [];
    // the apiserver's CPU time spent on each format's lists, summed over the rounds
    const cpu = { json: 0, proto: 0 };
    const timed = async (list, format) => {
      const { result, cpuMicros } = await withProcessCpu(pid, () => timeIt(list, 1));
      cpu[format] += cpuMicros;
      return result;
    };
    for (let i = 0; i < listRounds; i++) {
      jsonTimes.push(await timed(listJSON, 'json'));
      protoTimes.push(await timed(listProto, 'proto'));
    }
    r.listJSON = percentile(jsonTimes, 50);
    r.listProto = percentile(protoTimes, 50);
    r.listCpuRatio = cpu.proto / cpu.json;
    console.log(
      `  list ${pods} Pods (warm, median of ${listRounds})     JSON ${ms(r.listJSON)} (${mb(jsonBytes)})   protobuf ${ms(r.listProto)} (${mb(protoBytes)})`,
    );
    console.log(
      `  apiserver CPU per list                  JSON ${ms(cpu.json / 1000 / listRounds)}   protobuf ${ms(cpu.proto / 1000 / listRounds)}`,
    );
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
  console.log(
    `  list ${pods} Pods protobuf ${ms(r.listProto)} = ${(r.listProto / r.listJSON).toFixed(2)} x JSON ${ms(r.listJSON)} (target <= 0.6); its bytes ${r.bytesRatio.toFixed(2)} x JSON's, its apiserver CPU ${r.listCpuRatio.toFixed(2)} x JSON's`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
