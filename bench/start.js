'use strict';
// `npm start` cold start (a second start, the cluster's certificates already made) to all-ready time,
// and the idle RSS of every process of the suite.

const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-bench-start-'));
const script = path.join(__dirname, '..', 'scripts', 'start.js');

function start() {
  const t0 = process.hrtime.bigint();
  const child = spawn(process.execPath, [script, '--data-dir', dataDir, '--port', '16443'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      if (out.includes('orch is running'))
        resolve({ child, seconds: Number(process.hrtime.bigint() - t0) / 1e9 });
    });
    child.on('exit', (code) => reject(new Error(`npm start exited ${code}: ${out}`)));
  });
}

function stop(child) {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', resolve);
    child.kill('SIGINT');
  });
}

function rssOfTree(pid) {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    try {
      const kids = execFileSync('pgrep', ['-P', String(pids[i])])
        .toString()
        .trim()
        .split('\n')
        .filter(Boolean);
      pids.push(...kids.map(Number));
    } catch {
      /* no children */
    }
  }
  let kb = 0;
  const each = [];
  for (const p of pids) {
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
      const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const cmd =
        fs
          .readFileSync(`/proc/${p}/cmdline`, 'utf8')
          .split('\0')
          .find((a) => /\/orch-[a-z-]+\.js$/.test(a)) ?? 'start.js';
      each.push(`${path.basename(cmd, '.js')} ${(rss / 1024).toFixed(0)} MiB`);
      kb += rss;
    } catch {
      /* gone */
    }
  }
  return { mib: kb / 1024, each };
}

async function main() {
  const first = await start();
  console.log(`  first start (certificates made)   ${first.seconds.toFixed(2)} s`);
  await stop(first.child);
  const second = await start();
  console.log(`  cold start to all ready           ${second.seconds.toFixed(2)} s (target <= 3 s)`);
  await new Promise((r) => setTimeout(r, 15_000));
  const rss = rssOfTree(second.child.pid);
  console.log(
    `  idle RSS of all processes         ${((rss.mib * 1048576) / 1e6).toFixed(0)} MB = ${rss.mib.toFixed(0)} MiB (target <= 400 MB): ${rss.each.join(', ')}`,
  );
  await stop(second.child);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
