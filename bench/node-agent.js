'use strict';
/*
 * orch-node-agent at scale: ONE agent process (packages/node-agent/dist) runs 2,000 simulated nodes
 * against an orch-apiserver process (embedded store, HTTPS, RBAC). Prints the time until every Node
 * is registered Ready, the lease writes/s observed at the API over one lease duration, the oldest
 * lease seen in that window (must stay under --node-lease-duration-seconds), and the agent's RSS.
 *
 *   npx tsc -b packages/node-agent/tsconfig.json packages/apiserver/tsconfig.json && node bench/node-agent.js
 *   BENCH_NODES=2000 BENCH_QPS=1000 BENCH_WRITERS=128 BENCH_LEASE_SECONDS=40 node bench/node-agent.js
 */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { startAPIServerProcess, startDaemon, daemonBin } = require('../packages/apiserver/dist');
const { LeaseKind, NodeKind } = require('../packages/api/dist');
const { buildConfigFromFlags, clientFor, RestClient } = require('../packages/client/dist');

const NODES = Number(process.env.BENCH_NODES ?? 2000);
const QPS = Number(process.env.BENCH_QPS ?? 1000);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 128);
const LEASE_SECONDS = Number(process.env.BENCH_LEASE_SECONDS ?? 40);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? LEASE_SECONDS * 1000);
const POLL_MS = 2000;
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 180_000);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** VmRSS and VmHWM of a process, in MiB. */
function memory(pid) {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

/** CPU seconds (user + system) a process used so far. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const isReady = (n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');

async function main() {
  const api = await startAPIServerProcess({
    args: ['--max-requests-inflight=2000', '--max-mutating-requests-inflight=1000'],
  });
  const rest = new RestClient({ ...buildConfigFromFlags({ kubeconfig: api.kubeconfig }).config, qps: -1 });
  const nodes = clientFor(rest, NodeKind);
  const leases = clientFor(rest, LeaseKind, { namespace: 'orch-node-lease' });
  let agent;
  try {
    const t0 = performance.now();
    agent = startDaemon(
      'orch-node-agent',
      daemonBin('node-agent', 'orch-node-agent'),
      [
        `--kubeconfig=${api.kubeconfig}`,
        `--nodes=${NODES}`,
        `--node-lease-duration-seconds=${LEASE_SECONDS}`,
        `--orch-api-qps=${QPS}`,
        `--orch-api-burst=${QPS}`,
        `--node-writers=${WRITERS}`,
      ],
      join(api.dataDir, 'logs'),
    );
    const alive = () => agent.child.exitCode === null;
    let ready = 0;
    let held = 0;
    let registerMs = 0;
    while (ready < NODES || held < NODES) {
      if (!alive()) throw new Error(`the agent exited; see ${agent.log}`);
      if (performance.now() - t0 > TIMEOUT_MS) {
        throw new Error(`only ${ready}/${NODES} nodes Ready and ${held} leases; see ${agent.log}`);
      }
      await sleep(1000);
      if (ready < NODES) {
        ready = (await nodes.list()).items.filter(isReady).length;
        if (ready === NODES) registerMs = performance.now() - t0;
      }
      if (ready === NODES) held = (await leases.list()).items.length;
    }
    const leasesMs = performance.now() - t0;
    const afterRegister = memory(agent.child.pid);
    const registerCpu = cpuSeconds(agent.child.pid);

    // Let the first renew period pass (leases created during registration take their slots), then
    // over one lease duration count renewals (resourceVersion changes) and the oldest renewTime seen.
    await sleep((LEASE_SECONDS * 1000) / 4);
    const seen = new Map(
      (await leases.list()).items.map((l) => [l.metadata.name, l.metadata.resourceVersion]),
    );
    let writes = 0;
    let oldestMs = 0;
    const w0 = performance.now();
    const cpu0 = cpuSeconds(agent.child.pid);
    while (performance.now() - w0 < WINDOW_MS) {
      await sleep(POLL_MS);
      const list = await leases.list();
      const now = Date.now();
      for (const l of list.items) {
        if (seen.get(l.metadata.name) !== l.metadata.resourceVersion) writes++;
        seen.set(l.metadata.name, l.metadata.resourceVersion);
        oldestMs = Math.max(oldestMs, now - Date.parse(l.spec.renewTime));
      }
      if (list.items.length < NODES) throw new Error(`only ${list.items.length} leases`);
    }
    const windowMs = performance.now() - w0;
    const steady = memory(agent.child.pid);
    const steadyCpu = (cpuSeconds(agent.child.pid) - cpu0) / (windowMs / 1000);
    const expected = (NODES * 4) / LEASE_SECONDS;

    console.log(
      `orch-node-agent, ${NODES} simulated nodes in one process (--orch-api-qps=${QPS}, --node-writers=${WRITERS}, lease ${LEASE_SECONDS}s)`,
    );
    console.log(
      `  all nodes registered Ready     ${(registerMs / 1000).toFixed(1)} s (${((NODES / registerMs) * 1000).toFixed(0)} nodes/s)`,
    );
    console.log(`  every node holding its lease   ${(leasesMs / 1000).toFixed(1)} s`);
    console.log(
      `  lease writes                   ${((writes / windowMs) * 1000).toFixed(0)}/s (expected ${expected.toFixed(0)}/s)`,
    );
    console.log(
      `  oldest lease in window         ${(oldestMs / 1000).toFixed(1)} s (limit ${LEASE_SECONDS} s) ${oldestMs < LEASE_SECONDS * 1000 ? 'OK' : 'EXPIRED'}`,
    );
    console.log(`  agent CPU to register          ${registerCpu.toFixed(1)} s`);
    console.log(`  agent CPU at steady state      ${(steadyCpu * 100).toFixed(1)} % of a core`);
    console.log(`  agent RSS after registration   ${afterRegister.rss.toFixed(0)} MiB`);
    console.log(
      `  agent RSS steady (peak)        ${steady.rss.toFixed(0)} MiB (${steady.peak.toFixed(0)} MiB)`,
    );
    const errors = readFileSync(agent.log, 'utf8')
      .split('\n')
      .filter((l) => /^[EF]\d{4} /.test(l));
    console.log(`  agent error log lines          ${errors.length}${errors.length ? `: ${errors[0]}` : ''}`);
    if (oldestMs >= LEASE_SECONDS * 1000) process.exitCode = 1;
  } finally {
    await agent?.stop();
    rest.close();
    await api.destroy();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
