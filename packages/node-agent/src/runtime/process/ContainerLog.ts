import { createWriteStream, type WriteStream } from 'node:fs';

/** Most bytes of the output kept in memory for FallbackToLogsOnError. */
const TAIL_BYTES = 16 * 1024;
/** A line longer than this is written in partial pieces (tag P), as container runtimes do. */
const MAX_LINE_BYTES = 16 * 1024;

export type LogStream = 'stdout' | 'stderr';

/**
 * A container's log file in the CRI format the kubelet reads (`<RFC3339Nano time> <stream> <F|P>
 * <text>` per line, P for a piece of a longer line), plus the last bytes of its output in memory.
 */
export class ContainerLog {
  private readonly out: WriteStream;
  private readonly partial: Record<LogStream, Buffer> = { stdout: Buffer.alloc(0), stderr: Buffer.alloc(0) };
  private tailBuf = Buffer.alloc(0);

  constructor(readonly file: string) {
    this.out = createWriteStream(file, { flags: 'a' });
    this.out.on('error', () => undefined);
  }

  /** Output of the process on `stream`. */
  write(stream: LogStream, chunk: Buffer): void {
    this.tailBuf = Buffer.concat([this.tailBuf, chunk]);
    if (this.tailBuf.length > TAIL_BYTES)
      this.tailBuf = this.tailBuf.subarray(this.tailBuf.length - TAIL_BYTES);
    let buf = Buffer.concat([this.partial[stream], chunk]);
    for (let nl = buf.indexOf(0x0a); nl >= 0; nl = buf.indexOf(0x0a)) {
      this.line(stream, 'F', buf.subarray(0, nl));
      buf = buf.subarray(nl + 1);
    }
    while (buf.length > MAX_LINE_BYTES) {
      this.line(stream, 'P', buf.subarray(0, MAX_LINE_BYTES));
      buf = buf.subarray(MAX_LINE_BYTES);
    }
    this.partial[stream] = buf;
  }

  /** The last bytes of the output, both streams interleaved as they came. */
  tail(): Buffer {
    return this.tailBuf;
  }

  /** Writes what is left of unfinished lines and closes the file. */
  close(): Promise<void> {
    for (const stream of ['stdout', 'stderr'] as const) {
      if (this.partial[stream].length > 0) this.line(stream, 'F', this.partial[stream]);
      this.partial[stream] = Buffer.alloc(0);
    }
    return new Promise((resolve) => this.out.end(() => resolve()));
  }

  private line(stream: LogStream, tag: 'F' | 'P', text: Buffer): void {
    this.out.write(
      Buffer.concat([Buffer.from(`${new Date().toISOString()} ${stream} ${tag} `), text, Buffer.from('\n')]),
    );
  }
}
