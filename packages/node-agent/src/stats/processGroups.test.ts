import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseStat, parseVmRSS, readProcessGroups } from './processGroups';

describe('/proc parsing', () => {
  it('reads the group and CPU ticks of a stat line, whatever the command holds', () => {
    const line = '42 (a (weird) cmd) S 1 40 40 0 -1 4194560 100 0 0 0 7 3 2 1 20 0 1 0 100 1000 50';
    expect(parseStat(line)).toEqual({ pgrp: 40, ticks: 13 });
  });

  it('reads VmRSS in bytes, 0 when absent', () => {
    expect(parseVmRSS('Name:\tsh\nVmRSS:\t    1536 kB\n')).toBe(1536 * 1024);
    expect(parseVmRSS('Name:\tzombie\n')).toBe(0);
  });
});

const linux = existsSync('/proc/self/stat') ? describe : describe.skip;

linux('readProcessGroups', () => {
  it('sums the CPU and memory of a busy process group', async () => {
    const child = spawn('sh', ['-c', 'while :; do :; done'], { detached: true, stdio: 'ignore' });
    try {
      const pid = child.pid!;
      await new Promise((r) => setTimeout(r, 700));
      const usage = (await readProcessGroups([pid, 999_999_999])).get(pid);
      expect(usage?.cpuCoreNanoSeconds).toBeGreaterThan(0);
      expect(usage?.rssBytes).toBeGreaterThan(0);
      expect((await readProcessGroups([999_999_999])).size).toBe(0);
    } finally {
      process.kill(-child.pid!, 'SIGKILL');
    }
  });
});
