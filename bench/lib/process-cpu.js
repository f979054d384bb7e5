'use strict';
const { readFileSync } = require('node:fs');
const { execFileSync } = require('node:child_process');

let ticksPerSecond;

/** CPU time (user + system) a process has used so far, in microseconds (Linux /proc); NaN elsewhere. */
function processCpuMicros(pid) {
  try {
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the fields after the command name, which is in parentheses and may contain spaces
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1e6;
  } catch {
    return NaN;
  }
}

/** Measures the CPU a process spends while `work()` runs: resolves with work's result and `cpuMicros`. */
async function withProcessCpu(pid, work) {
  const before = processCpuMicros(pid);
  const result = await work();
  return { result, cpuMicros: processCpuMicros(pid) - before };
}

module.exports = { processCpuMicros, withProcessCpu };
