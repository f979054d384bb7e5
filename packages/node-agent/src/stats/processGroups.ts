import { promises as fs } from 'node:fs';

/** Linux's USER_HZ: the unit of the CPU times in /proc/<pid>/stat (100 on every mainstream architecture). */
const CLOCK_TICKS_PER_SECOND = 100;

/** What the processes of one process group use now. */
export interface ProcessGroupUsage {
  /** CPU time of its processes and of their reaped children, in core-nanoseconds. */
  cpuCoreNanoSeconds: number;
  /** Resident memory of its processes, in bytes. */
  rssBytes: number;
}

/**
 * The fields of a /proc/<pid>/stat line after the command (which may hold spaces and parentheses):
 * index 0 is the state (field 3 of proc(5)).
 */
export function statFields(line: string): string[] {
  return line
    .slice(line.lastIndexOf(')') + 2)
    .trim()
    .split(/\s+/);
}

/** Process group and CPU ticks (utime + stime + cutime + cstime) of a /proc/<pid>/stat line. */
export function parseStat(line: string): { pgrp: number; ticks: number } | undefined {
  const f = statFields(line);
  // proc(5): pgrp is field 5, utime 14, stime 15, cutime 16, cstime 17 (f[0] is field 3)
  const pgrp = Number(f[2]);
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(f[i]), 0);
  if (!Number.isFinite(pgrp) || !Number.isFinite(ticks)) return undefined;
  return { pgrp, ticks };
}

/** VmRSS of a /proc/<pid>/status text, in bytes (0 for a process without memory, e.g. a zombie). */
export function parseVmRSS(status: string): number {
  const m = /^VmRSS:\s*(\d+)\s*kB/m.exec(status);
  return m ? Number(m[1]) * 1024 : 0;
}

/**
 * The usage of the given process groups, read from /proc: every process whose group is one of
 * them counts. Groups with no process left, and every group where /proc is not there, are absent.
 */
export async function readProcessGroups(
  pgids: readonly number[],
  procDir = '/proc',
): Promise<Map<number, ProcessGroupUsage>> {
  const wanted = new Set(pgids);
  const out = new Map<number, ProcessGroupUsage>();
  if (!wanted.size) return out;
  let entries: string[];
  try {
    entries = await fs.readdir(procDir);
  } catch {
    return out;
  }
  await Promise.all(
    entries
      .filter((e) => /^\d+$/.test(e))
      .map(async (pid) => {
        let stat;
        try {
          stat = parseStat(await fs.readFile(`${procDir}/${pid}/stat`, 'utf8'));
        } catch {
          return; // the process ended
        }
        if (!stat || !wanted.has(stat.pgrp)) return;
        const rss = await fs
          .readFile(`${procDir}/${pid}/status`, 'utf8')
          .then(parseVmRSS)
          .catch(() => 0);
        const u = out.get(stat.pgrp) ?? { cpuCoreNanoSeconds: 0, rssBytes: 0 };
        u.cpuCoreNanoSeconds += (stat.ticks * 1e9) / CLOCK_TICKS_PER_SECOND;
        u.rssBytes += rss;
        out.set(stat.pgrp, u);
      }),
  );
  return out;
}
