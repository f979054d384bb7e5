import type { ServerResponse } from 'node:http';
import { pipeline, type Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { warningHeader } from './warning-header';

/** What an answer is, besides its body. */
export interface AnswerHead {
  code: number;
  contentType: string;
  warnings: readonly string[];
}

/** The size of the chunks a large answer leaves in. */
const chunkBytes = 256 * 1024;

/** Kubernetes compresses answers of at least 128 KiB. */
const gzipThresholdBytes = 128 * 1024;

/**
 * Writes an answer whose body is `parts` in order (one buffer, or a list spliced from its items'
 * encodings). `compression` is whether the APIResponseCompression gate is on: then an answer of at
 * least 128 KiB to a client that accepts gzip is gzipped at the fastest level, as Kubernetes does.
 *
 * - Gzipped, the answer is compressed on libuv's threads as it is written, chunk by chunk, while
 *   the event loop serves other requests; its length is not known ahead, so it is chunked. (Zipped
 *   in one call on the event loop, a list of 10,000 Pods held every other request for the whole
 *   compression.)
 * - Otherwise a large answer leaves in chunks of at most 256 KiB, each joined when the one before has
 *   been handed to the connection: the client receives and decodes the first chunks while the rest
 *   are joined and encrypted, and the server never holds a second copy of a large list. (Written all
 *   at once, the chunks would wait in the socket, which Node corks for the rest of the turn, and
 *   leave together after the last one was joined.)
 */
export function writeAnswer(
  res: ServerResponse,
  head: AnswerHead,
  parts: readonly Buffer[],
  compression: boolean,
): void {
  let length = 0;
  for (const part of parts) length += part.length;
  const headers: Record<string, string | string[]> = { 'Content-Type': head.contentType };
  if (head.warnings.length) headers.Warning = head.warnings.map(warningHeader);
  if (compression && length >= gzipThresholdBytes && acceptsGzip(res.req?.headers['accept-encoding'])) {
    res.writeHead(head.code, { ...headers, 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' });
    const zip = createGzip({ level: 1, chunkSize: 64 * 1024 });
    // a client that goes away ends both; there is nobody left to tell
    pipeline(zip, res, () => undefined);
    writeInChunks(res, zip, parts);
    return;
  }
  res.writeHead(head.code, { ...headers, 'Content-Length': String(length) });
  if (parts.length === 1) res.end(parts[0]);
  else if (length < chunkBytes) res.end(Buffer.concat(parts, length));
  else writeInChunks(res, res, parts);
}

/**
 * Writes `parts` to `out` in chunks of at most {@link chunkBytes} (a part that large goes alone), one
 * chunk at a time: the next is joined when the write of the one before has finished.
 *
 * The parts are joined into one buffer of the answer's, reused for every chunk, since a finished
 * write no longer holds its bytes (the connection has encrypted or compressed them). A new buffer
 * for each chunk cost more than the copying itself: the memory is fresh each time, and a list of
 * 10,000 Pods spent about 10 ms of its 35 ms of apiserver CPU joining chunks that way.
 */
function writeInChunks(res: ServerResponse, out: Writable, parts: readonly Buffer[]): void {
  let next = 0;
  let joined: Buffer | undefined;
  const chunk = (): Buffer => {
    const first = parts[next]!;
    if (first.length >= chunkBytes) {
      next++;
      return first;
    }
    joined ??= Buffer.allocUnsafe(chunkBytes);
    let used = 0;
    while (next < parts.length && used + parts[next]!.length <= chunkBytes) {
      const part = parts[next++]!;
      joined.set(part, used);
      used += part.length;
    }
    return joined.subarray(0, used);
  };
  // a client that goes away stops the rest
  let stopped = false;
  res.once('close', () => (stopped = true));
  const pump = (error?: Error | null): void => {
    if (stopped || error) return;
    if (next < parts.length) out.write(chunk(), pump);
    else out.end();
  };
  pump();
}

function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value
    .split(',')
    .some(
      (part) =>
        part.trim().split(';')[0]!.trim().toLowerCase() === 'gzip' && !/;\s*q=0(\.0*)?\s*$/.test(part),
    );
}
