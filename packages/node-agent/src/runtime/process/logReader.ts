import { open, stat, type FileHandle } from 'node:fs/promises';

/** The kubelet's container log options (PodLogOptions as the node agent serves them). */
export interface ReadLogOptions {
  /** Keep reading as the file grows, until the container stops or `signal` aborts. */
  follow?: boolean;
  /** Only the last this many lines. */
  tailLines?: number;
  /** Each line starts with its time in RFC3339Nano, as the kubelet prints it. */
  timestamps?: boolean;
  /** Only lines written at or after this time (ms since the epoch). */
  sinceMs?: number;
  /** Stop after this many bytes of output. */
  limitBytes?: number;
  /** While following: whether the container still runs (the log may still grow). */
  running?: () => boolean;
  /** How often a followed file is looked at (default 100 ms). */
  pollMs?: number;
  signal?: AbortSignal;
}

/** One entry of a CRI log file. */
export interface CriLogEntry {
  /** The time as written (RFC3339 with fraction). */
  time: string;
  stream: 'stdout' | 'stderr';
  /** False for a piece of a longer line (tag P). */
  full: boolean;
  text: Buffer;
}

/** Parses one line of a CRI log file (without its newline); undefined when it is not one. */
export function parseCriLine(line: Buffer): CriLogEntry | undefined {
  const s1 = line.indexOf(0x20);
  const s2 = s1 < 0 ? -1 : line.indexOf(0x20, s1 + 1);
  const s3 = s2 < 0 ? -1 : line.indexOf(0x20, s2 + 1);
  if (s3 < 0 && !(s2 >= 0 && line.length === s2 + 2)) return undefined;
  const time = line.subarray(0, s1).toString();
  const stream = line.subarray(s1 + 1, s2).toString();
  const tag = line.subarray(s2 + 1, s3 < 0 ? line.length : s3).toString();
  if ((stream !== 'stdout' && stream !== 'stderr') || (tag !== 'F' && tag !== 'P')) return undefined;
  if (Number.isNaN(Date.parse(time))) return undefined;
  return { time, stream, full: tag === 'F', text: s3 < 0 ? Buffer.alloc(0) : line.subarray(s3 + 1) };
}

/** The text of a CRI log file's content: the lines without their time, stream and tag. */
export function criLogText(content: string): string {
  let out = '';
  for (const line of content.split('\n')) {
    const entry = line === '' ? undefined : parseCriLine(Buffer.from(line));
    if (entry) out += entry.text.toString() + (entry.full ? '\n' : '');
  }
  return out;
}

/**
 * A time in Go's RFC3339Nano layout (as the kubelet prints log timestamps): UTC, the fraction
 * without trailing zeros, none when it is zero.
 */
export function rfc3339Nano(time: string): string {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(time);
  if (!m || m[3] !== 'Z') return new Date(Date.parse(time)).toISOString().replace(/\.?0+Z$/, 'Z');
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  return `${m[1]}${fraction ? `.${fraction}` : ''}Z`;
}

/** What an entry prints: its text, a newline when it ends a line, its time first with timestamps. */
function render(entry: CriLogEntry, timestamps: boolean): Buffer {
  const parts = [entry.text];
  if (timestamps) parts.unshift(Buffer.from(`${rfc3339Nano(entry.time)} `));
  if (entry.full) parts.push(Buffer.from('\n'));
  return Buffer.concat(parts);
}

/** The complete lines of `buf` and what is left after the last newline. */
function splitLines(buf: Buffer): { lines: Buffer[]; rest: Buffer } {
  const lines: Buffer[] = [];
  let start = 0;
  for (let nl = buf.indexOf(0x0a); nl >= 0; nl = buf.indexOf(0x0a, start)) {
    lines.push(buf.subarray(start, nl));
    start = nl + 1;
  }
  return { lines, rest: buf.subarray(start) };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Writes a container's CRI log file to `write` as the kubelet serves it: the text of its entries
 * (since `sinceMs`, the last `tailLines`, with their times when `timestamps`), at most `limitBytes`;
 * with `follow`, the entries written later too, until the container stops running or `signal`
 * aborts. `write` resolves once the bytes are taken (back-pressure).
 */
export async function readContainerLog(
  file: string,
  options: ReadLogOptions,
  write: (chunk: Buffer) => Promise<void> | void,
): Promise<void> {
  const { signal } = options;
  let budget = options.limitBytes ?? Infinity;
  const emit = async (entries: CriLogEntry[]): Promise<boolean> => {
    for (const e of entries) {
      if (options.sinceMs !== undefined && Date.parse(e.time) < options.sinceMs) continue;
      let out = render(e, options.timestamps ?? false);
      if (out.length > budget) out = out.subarray(0, budget);
      budget -= out.length;
      if (out.length > 0) await write(out);
      if (budget <= 0 || signal?.aborted) return false;
    }
    return true;
  };
  const entriesOf = (lines: Buffer[]) =>
    lines.map(parseCriLine).filter((e): e is CriLogEntry => e !== undefined);

  let handle: FileHandle | undefined;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !options.follow) return;
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  let position = 0;
  let pending: Buffer = Buffer.alloc(0);
  const readMore = async (): Promise<Buffer[]> => {
    if (!handle) {
      try {
        handle = await open(file, 'r');
      } catch {
        return [];
      }
    }
    const size = (await stat(file)).size;
    if (size <= position) return [];
    const buf = Buffer.alloc(size - position);
    const { bytesRead } = await handle.read(buf, 0, buf.length, position);
    position += bytesRead;
    const { lines, rest } = splitLines(Buffer.concat([pending, buf.subarray(0, bytesRead)]));
    pending = rest;
    return lines;
  };
  try {
    let entries = entriesOf(await readMore());
    if (options.tailLines !== undefined) {
      if (options.sinceMs !== undefined)
        entries = entries.filter((e) => Date.parse(e.time) >= options.sinceMs!);
      entries = options.tailLines <= 0 ? [] : entries.slice(-options.tailLines);
    }
    if (!(await emit(entries)) || !options.follow) return;
    const pollMs = options.pollMs ?? 100;
    for (;;) {
      if (signal?.aborted) return;
      const stillRunning = options.running?.() ?? false;
      if (!(await emit(entriesOf(await readMore())))) return;
      if (!stillRunning) {
        // the container stopped: what it wrote last is in the file now
        const last = entriesOf(await readMore());
        if (pending.length > 0) {
          const entry = parseCriLine(pending);
          if (entry) last.push(entry);
        }
        await emit(last);
        return;
      }
      await sleep(pollMs, signal);
    }
  } finally {
    await handle?.close();
  }
}
