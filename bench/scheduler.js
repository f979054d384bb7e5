'use strict';
/*
 * orch-scheduler throughput: 1,000 nodes and 5,000 pods created through the API of orch-apiserver
 * (embedded store) running as its own process, as the scheduler does (packages/scheduler/dist)
 * with --orch-api-qps=5000 --orch-api-burst=5000. Two phases: streaming (pods created while the
 * scheduler runs: pods/s scheduled+bound and p50/p99 latency from pod creation — the create request
 * returning, ms precision; creationTimestamp has second precision — to the binding observed on a
 * watch) and backlog (pods created first, then a scheduler starts: its own scheduled+bound rate).
 *
 *   npx tsc -b packages/scheduler/tsconfig.json packages/apiserver/tsconfig.json && node bench/scheduler.js
 *   BENCH_NODES=1000 BENCH_PODS=5000 BENCH_CONCURRENCY=64 node bench/scheduler.js
 */
const { spawn } = require('node:child_process');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { startAPIServerProcess } = require('../packages/apiserver/dist');
const { PodKind, NodeKind } = require('../packages/api/dist');
const { buildConfigFromFlags, clientFor, RestClient } = require('../packages/client/dist');
const { percentile, ms, runConcurrent } = require('./lib/stats');
const { processCpuMicros } = require('./lib/process-cpu');

const NODES = Number(process.env.BENCH_NODES ?? 1000);
const PODS = Number(process.env.BENCH_PODS ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 300_000);

function node(name) {
  const resources = { cpu: '32', memory: '128Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': `zone-${name.slice(-1)}` },
    },
    status: { capacity: resources, allocatable: resources, conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

function pod(name) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'bench' } },
    spec: {
      containers: [
        { name: 'app', image: 'nginx:1.25', resources: { requests: { cpu: '100m', memory: '128Mi' } } },
      ],
    },
  };
}

function startScheduler(kubeconfig) {
  const bin = path.join(__dirname, '..', 'packages', 'scheduler', 'dist', 'bin', 'orch-scheduler.js');
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_PROFILE_DIR
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
        : []),
      bin,
      `--kubeconfig=${kubeconfig}`,
      '--secure-port=0',
      '--port=0',
      '--leader-elect=false',
      '--orch-api-qps=5000',
      '--orch-api-burst=5000',
      ...(process.env.BENCH_SCHEDULER_ARGS ? process.env.BENCH_SCHEDULER_ARGS.split(' ') : []),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr.on('data', (d) => (log += d.toString()));
  const synced = new Promise((resolve, reject) => {
    const check = () => (log.includes('Caches synced') ? resolve() : undefined);
    child.stderr.on('data', check);
    child.on('exit', (code) => reject(new Error(`orch-scheduler exited with ${code}:\n${log}`)));
  });
  return { child, synced, log: () => log };
}

/** Watches pods from now on; resolves `done` once `expected` pods whose name starts with `prefix` are bound. */
async function watchBindings(pods, prefix, expected) {
  const bound = new Map();
  const list = await pods.list();
  let allBound;
  const done = new Promise((resolve) => (allBound = resolve));
  const watch = await pods.watch({ resourceVersion: list.metadata?.resourceVersion });
  watch
    .forEach((event) => {
      const p = event.object;
      const name = p.metadata?.name ?? '';
      if (name.startsWith(prefix) && p.spec?.nodeName && !bound.has(name)) {
        bound.set(name, performance.now());
        if (bound.size === expected) allBound();
      }
    })
    .catch(() => undefined);
  const timeout = () =>
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error(`only ${bound.size}/${expected} pods bound`)), TIMEOUT_MS).unref(),
    );
  return { bound, done: () => Promise.race([done, timeout()]), stop: () => watch.stop() };
}

function createPods(pods, prefix, created) {
  return runConcurrent(PODS, CONCURRENCY, async (i) => {
    const name = `${prefix}${i}`;
    await pods.create(pod(name));
    created?.set(name, performance.now());
  });
}

async function main() {
  const api = await startAPIServerProcess({
    args: ['--disable-admission-plugins=ServiceAccount,LimitRanger,DefaultTolerationSeconds,Priority'],
  });
  const rest = new RestClient({ ...buildConfigFromFlags({ kubeconfig: api.kubeconfig }).config, qps: -1 });
  const nodes = clientFor(rest, NodeKind);
  const pods = clientFor(rest, PodKind, { namespace: 'default' });
  let scheduler;
  const watches = [];
  try {
    const nodeRun = await runConcurrent(NODES, CONCURRENCY, async (i) => {
      const n = node(`node-${String(i).padStart(4, '0')}`);
      const created = await nodes.create(n);
      await nodes.updateStatus({ ...created, status: n.status });
    });
    console.log(`nodes: ${NODES} created with status in ${nodeRun.seconds.toFixed(1)} s`);

    // 1. Streaming: pods created while the scheduler runs; latency from each create to its binding.
    scheduler = startScheduler(api.kubeconfig);
    await scheduler.synced;
    const streaming = await watchBindings(pods, 'stream-', PODS);
    watches.push(streaming);
    const created = new Map();
    const start = performance.now();
    const createRun = await createPods(pods, 'stream-', created);
    await streaming.done();
    const seconds = (Math.max(...streaming.bound.values()) - start) / 1000;
    const latencies = [...streaming.bound].map(([name, t]) => t - (created.get(name) ?? start));
    console.log(
      `streaming: ${PODS} pods created in ${createRun.seconds.toFixed(2)} s (${createRun.rate.toFixed(0)}/s)`,
    );
    console.log(
      `  scheduled+bound: ${(PODS / seconds).toFixed(0)} pods/s (${seconds.toFixed(2)} s from the first create to the last binding)`,
    );
    console.log(
      `  latency create→bound: p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}`,
    );

    // 2. Backlog: pods created while no scheduler runs, then one starts: the scheduler's own rate.
    scheduler.child.kill('SIGTERM');
    await new Promise((resolve) => scheduler.child.once('exit', resolve));
    await createPods(pods, 'backlog-');
    const backlog = await watchBindings(pods, 'backlog-', PODS);
    watches.push(backlog);
    const launched = performance.now();
    scheduler = startScheduler(api.kubeconfig);
    await scheduler.synced;
    const synced = performance.now();
    // CPU per pod: steadier than the rate on a shared machine, where the rate moves with the load
    const cpuBefore = [processCpuMicros(scheduler.child.pid), processCpuMicros(api.process.child.pid)];
    await backlog.done();
    const cpuPerPod = [processCpuMicros(scheduler.child.pid), processCpuMicros(api.process.child.pid)].map(
      (after, i) => (after - cpuBefore[i]) / PODS,
    );
    const last = Math.max(...backlog.bound.values());
    console.log(
      `backlog: ${PODS} pending pods scheduled+bound at ${(PODS / ((last - synced) / 1000)).toFixed(0)} pods/s ` +
        `(${((last - synced) / 1000).toFixed(2)} s after the caches synced, ${((synced - launched) / 1000).toFixed(2)} s start-up)`,
    );
    console.log(
      `  CPU per pod: scheduler ${cpuPerPod[0].toFixed(0)} µs, apiserver ${cpuPerPod[1].toFixed(0)} µs`,
    );

    const perNode = new Map();
    for (const p of (await pods.list()).items)
      perNode.set(p.spec.nodeName, (perNode.get(p.spec.nodeName) ?? 0) + 1);
    const counts = [...perNode.values()];
    console.log(
      `spread: ${2 * PODS} pods on ${perNode.size} nodes (min ${Math.min(...counts)}, max ${Math.max(...counts)} per node)`,
    );
  } finally {
    for (const w of watches) w.stop();
    scheduler?.child.kill('SIGTERM');
    rest.close();
    await api.destroy();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
