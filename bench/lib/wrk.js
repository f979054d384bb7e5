'use strict';
// The native load generator: wrk (https://github.com/wg/wrk) with Lua scripts, when it is on PATH.
const { execFileSync, spawn } = require('node:child_process');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

/** The wrk binary on PATH, or undefined. */
function findWrk() {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return 'wrk';
  } catch (e) {
    // wrk --version exits 1 after printing its usage; only a missing binary is ENOENT
    return e && e.code === 'ENOENT' ? undefined : 'wrk';
  }
}

/** Milliseconds from wrk's latency notation (e.g. `850.00us`, `5.90ms`, `1.02s`). */
function wrkMs(text) {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) return NaN;
  const n = Number(m[1]);
  return m[2] === 'us' ? n / 1000 : m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : n * 60_000;
}

/** Parses wrk's `--latency` report: request rate, p50/p99 and counts. */
function parseWrk(output) {
  const num = (re) => {
    const m = re.exec(output);
    return m ? Number(m[1]) : 0;
  };
  const pct = (p) => {
    const m = new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(output);
    return m ? wrkMs(m[1]) : NaN;
  };
  const requests = num(/(\d+) requests in/);
  const errors =
    num(/Non-2xx or 3xx responses: (\d+)/) +
    ['connect', 'read', 'write', 'timeout']
      .map((k) => num(new RegExp(`Socket errors:.*${k} (\\d+)`)))
      .reduce((a, b) => a + b, 0);
  return {
    count: requests,
    rate: num(/Requests\/sec:\s+([\d.]+)/),
    p50: pct(50),
    p99: pct(99),
    errors,
  };
}

/**
 * Runs wrk: `connections` keep-alive connections on one thread for `seconds`, with the Lua `script`
 * (its text) and extra headers. Resolves with the parsed report and wrk's own text.
 */
function runWrk({ url, script, headers = {}, connections = 32, seconds = 5, dir }) {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '--timeout', '10s'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  if (script) {
    const file = join(dir, `wrk-${process.hrtime.bigint()}.lua`);
    writeFileSync(file, script);
    args.push('-s', file);
  }
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`wrk exited ${code}: ${out}`));
      else resolve({ ...parseWrk(out), output: out });
    });
  });
}

/** A Lua string literal. */
function luaString(s) {
  return JSON.stringify(s);
}

/**
 * A Lua script issuing `method` requests whose path and body are Lua expressions in `i` (1, 2, ...)
 * and `tid` (an id unique to the run), after the Lua `prelude`. With `count`, the requests after the
 * `count`-th are `idle` (a Lua expression: a request that changes nothing) and the thread stops once
 * `count` answers have come back.
 */
function luaScript({ method, path, body, count, idle, prelude = '', contentType = 'application/json' }) {
  const tid = `${process.pid}-${Math.floor(Math.random() * 1e6)}`;
  return `
local tid = ${luaString(tid)}
local i = 0
local answered = 0
local count = ${count ?? 0}
local headers = nil
${prelude}
request = function()
  if headers == nil then
    -- the -H headers (authorization) plus the body's type
    headers = { ["Content-Type"] = ${luaString(contentType)} }
    for k, v in pairs(wrk.headers) do headers[k] = v end
  end
  i = i + 1
  if count > 0 and i > count then return ${idle ?? 'wrk.format("GET", "/")'} end
  return wrk.format(${luaString(method)}, ${path}, headers, ${body ?? 'nil'})
end
${
  count
    ? `response = function(status)
  answered = answered + 1
  if answered >= count then wrk.thread:stop() end
end`
    : ''
}
`;
}

/** A Lua table literal of strings. */
function luaTable(strings) {
  return `{${strings.map(luaString).join(',\n')}}`;
}

/** Lua: base64 of a string (for etcd's JSON gateway). */
const luaBase64 = `
local b64chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
local function b64(s)
  local out = {}
  for p = 1, #s, 3 do
    local a, b, c = s:byte(p, p + 2)
    local n = a * 65536 + (b or 0) * 256 + (c or 0)
    local c1 = math.floor(n / 262144) % 64
    local c2 = math.floor(n / 4096) % 64
    local c3 = math.floor(n / 64) % 64
    local c4 = n % 64
    out[#out + 1] = b64chars:sub(c1 + 1, c1 + 1) .. b64chars:sub(c2 + 1, c2 + 1)
      .. (b and b64chars:sub(c3 + 1, c3 + 1) or '=') .. (c and b64chars:sub(c4 + 1, c4 + 1) or '=')
  end
  return table.concat(out)
end
`;

module.exports = { findWrk, parseWrk, runWrk, luaScript, luaString, luaTable, luaBase64 };
