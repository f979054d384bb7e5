'use strict';
const { performance } = require('node:perf_hooks');

/** p-th percentile (0..100) of a list of numbers. */
function percentile(values, p) {
  if (!values.length) return NaN;
  const sorted = Float64Array.from(values).sort();
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

function ms(n) {
  return `${n.toFixed(n < 10 ? 2 : 1)} ms`;
}

/** Runs `task(i)` for i in [0, count) with `concurrency` in flight; returns rate and latency percentiles. */
async function runConcurrent(count, concurrency, task) {
  const latencies = new Array(count);
  let next = 0;
  const start = process.hrtime.bigint();
  async function worker() {
    for (;;) {
      const i = next++;
      if (i >= count) return;
      const t0 = process.hrtime.bigint();
      await task(i);
      latencies[i] = Number(process.hrtime.bigint() - t0) / 1e6;
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return {
    count,
    seconds,
    rate: count / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/** The median wall time of `runs` sequential calls of `fn`, in ms. */
async function timeIt(fn, runs = 3) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return percentile(times, 50);
}

module.exports = { percentile, ms, runConcurrent, timeIt };
