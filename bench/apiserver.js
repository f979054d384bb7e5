'use strict';
// orch-apiserver throughput and latency over HTTPS (JSON, 32 concurrent keep-alive clients), on the
// embedded store and on a one-member etcd, with raw etcd3 put/s measured in the same run.

const { performance } = require('node:perf_hooks');
const { Etcd3 } = require('etcd3');
const { startAPIServerProcess, EtcdCluster } = require('../packages/apiserver/dist');
const { ApiClient } = require('./lib/api-client');
const { ms, percentile, runConcurrent } = require('./lib/stats');

const concurrency = 32;
const ops = Number(process.env.BENCH_OPS ?? 5000);
const pods = Number(process.env.BENCH_PODS ?? 10000);
const watchers = 100;
const watchedCreates = 500;

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
  console.log(
    `  ${label.padEnd(28)} ${r.rate.toFixed(0).padStart(7)}/s   p50 ${ms(r.p50)}   p99 ${ms(r.p99)}`,
  );
}

async function timeIt(fn, runs = 3) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return percentile(times, 50);
}

async function benchAPIServer(label, options) {
  console.log(`\n${label}`);
  const api = await startAPIServerProcess(options);
  const client = new ApiClient(
    api.url,
    { ca: api.pki.ca, cert: api.pki.admin.cert, key: api.pki.admin.key },
    concurrency,
  );
  const results = {};
  try {
    const ns = '/api/v1/namespaces/bench';
    await client.json('POST', '/api/v1/namespaces', { metadata: { name: 'bench' } });
    await client.json('POST', `${ns}/serviceaccounts`, { metadata: { name: 'default' } });
    const cm = (i) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `cm-${i}` },
      data: { key: `value-${i}` },
    });
    results.create = await runConcurrent(ops, concurrency, (i) =>
      client.request('POST', `${ns}/configmaps`, cm(i)),
    );
    line('create ConfigMap', results.create);
    results.get = await runConcurrent(ops, concurrency, (i) =>
      client.request('GET', `${ns}/configmaps/cm-${i}`),
    );
    line('get ConfigMap', results.get);
    results.patch = await runConcurrent(ops, concurrency, (i) =>
      client.request(
        'PATCH',
        `${ns}/configmaps/cm-${i}`,
        { data: { other: `x${i}` } },
        'application/merge-patch+json',
      ),
    );
    line('merge-patch ConfigMap', results.patch);
    results.delete = await runConcurrent(ops, concurrency, (i) =>
      client.request('DELETE', `${ns}/configmaps/cm-${i}`),
    );
    line('delete ConfigMap', results.delete);

    results.createPods = await runConcurrent(pods, concurrency, (i) =>
      client.request('POST', `${ns}/pods`, pod(`pod-${i}`)),
    );
    line(`create ${pods} Pods`, results.createPods);
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
      `  list ${pods} Pods                rv unset ${ms(results.listUnset)}   rv=0 ${ms(results.listRV0)}   limit=500 chunks ${ms(results.listChunks)}`,
    );

    // watch fan-out: 100 watchers, 500 creates; latency from the create request's start to each delivery
    const sent = new Map();
    const latencies = [];
    let delivered = 0;
    const list = await client.json('GET', `${ns}/pods?labelSelector=app%3Dwatched&limit=1`);
    const stops = [];
    for (let w = 0; w < watchers; w++) {
      stops.push(
        client.watch(
          `${ns}/pods?watch=1&labelSelector=app%3Dwatched&resourceVersion=${list.metadata.resourceVersion}`,
          (ev, at) => {
            if (ev.type !== 'ADDED') return;
            delivered++;
            const t0 = sent.get(ev.object.metadata.name);
            if (t0 !== undefined) latencies.push(Number(at - t0) / 1e6);
          },
        ),
      );
    }
    await new Promise((r) => setTimeout(r, 1000));
    await runConcurrent(watchedCreates, concurrency, (i) => {
      sent.set(`watched-${i}`, process.hrtime.bigint());
      return client.request('POST', `${ns}/pods`, pod(`watched-${i}`, { app: 'watched' }));
    });
    const deadline = Date.now() + 20_000;
    while (delivered < watchers * watchedCreates && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    for (const stop of stops) stop();
    results.watch = {
      delivered,
      expected: watchers * watchedCreates,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    };
    console.log(
      `  watch ${watchers}x${watchedCreates}             delivered ${delivered}/${watchers * watchedCreates}   p50 ${ms(results.watch.p50)}   p99 ${ms(results.watch.p99)}`,
    );
  } finally {
    client.close();
    await api.destroy();
  }
  return results;
}

async function rawEtcdPuts(endpoints) {
  const etcd = new Etcd3({ hosts: endpoints });
  const value = JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'x', namespace: 'bench' },
    data: { key: 'value' },
  });
  try {
    return await runConcurrent(ops, concurrency, (i) => etcd.put(`/bench/raw/${i}`).value(value));
  } finally {
    etcd.close();
  }
}

async function main() {
  console.log(
    `orch-apiserver benchmark: HTTPS, JSON, ${concurrency} concurrent keep-alive clients, ${ops} ops per verb`,
  );
  const embedded = await benchAPIServer('embedded store (SQLite)', {});
  const cluster = await EtcdCluster.start({ members: 1 });
  let etcd;
  let raw;
  try {
    const endpoints = cluster.members.map((m) => m.clientUrl);
    console.log('\netcd, one member');
    raw = await rawEtcdPuts(endpoints);
    line('raw etcd3 put', raw);
    etcd = await benchAPIServer('orch-apiserver on that etcd', { etcdServers: endpoints });
  } finally {
    await cluster.stop();
  }
  console.log('\nsummary');
  console.log(
    `  embedded create ${embedded.create.rate.toFixed(0)}/s (target >= 3000), get ${embedded.get.rate.toFixed(0)}/s (target >= 5000)`,
  );
  console.log(
    `  embedded list 10k Pods ${ms(embedded.listUnset)} (target <= 350 ms), rv=0 ${ms(embedded.listRV0)} (target <= 250 ms)`,
  );
  console.log(
    `  embedded watch p99 ${ms(embedded.watch.p99)} (target <= 100 ms), lost ${embedded.watch.expected - embedded.watch.delivered}`,
  );
  console.log(
    `  etcd create ${etcd.create.rate.toFixed(0)}/s = ${(etcd.create.rate / raw.rate).toFixed(2)} x raw etcd put ${raw.rate.toFixed(0)}/s (target >= 0.5)`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
