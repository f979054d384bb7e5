/**
 * Go-style durations (time.ParseDuration / time.Duration.String), held as milliseconds.
 */

const UNIT_NS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/** Parses a Go duration string such as `1m0s`, `15s`, `1h30m`, `500ms` into milliseconds. */
export function parseDuration(text: string): number {
  const original = text;
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    sign = s.startsWith('-') ? -1 : 1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw new Error(`time: invalid duration "${original}"`);
  let totalNs = 0;
  const re = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/;
  while (s.length > 0) {
    const m = re.exec(s);
    if (!m) {
      if (/^(\d+(?:\.\d*)?|\.\d+)$/.test(s)) {
        throw new Error(`time: missing unit in duration "${original}"`);
      }
      throw new Error(`time: invalid duration "${original}"`);
    }
    totalNs += parseFloat(m[1]) * UNIT_NS[m[2]];
    s = s.slice(m[0].length);
  }
  return (sign * totalNs) / 1e6;
}

function trimFraction(value: number, digits: number): string {
  return value.toFixed(digits).replace(/\.?0+$/, '');
}

/** Formats milliseconds the way Go's time.Duration.String does: `1m0s`, `12h0m0s`, `500ms`, `0s`. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms);
  if (abs < 1000) {
    const ns = Math.round(abs * 1e6);
    if (ns < 1e3) return `${sign}${ns}ns`;
    if (ns < 1e6) return `${sign}${trimFraction(ns / 1e3, 3)}µs`;
    return `${sign}${trimFraction(ns / 1e6, 6)}ms`;
  }
  const hours = Math.floor(abs / 3_600_000);
  const minutes = Math.floor((abs - hours * 3_600_000) / 60_000);
  const secondsMs = abs - hours * 3_600_000 - minutes * 60_000;
  const seconds = trimFraction(secondsMs / 1000, 9);
  let out = `${seconds === '' ? '0' : seconds}s`;
  if (hours > 0 || minutes > 0) out = `${minutes}m${out}`;
  if (hours > 0) out = `${hours}h${out}`;
  return sign + out;
}
