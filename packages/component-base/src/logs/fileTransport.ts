import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import TransportStream from 'winston-transport';

const MESSAGE = Symbol.for('message');

/** Options of the log file writer. */
export interface FileTransportOptions {
  path: string;
  /** Rotate when the file would grow beyond this many bytes; 0 means unlimited. */
  maxSizeBytes: number;
  /** Omit the klog file header written when a file is opened. */
  skipLogHeaders: boolean;
  /** Lowest winston level written (defaults to every level). */
  level?: string;
}

/**
 * A winston transport writing synchronously to one log file. When the file would exceed the size
 * limit it is renamed to `<path>.1` (replacing an older one) and a new file is started.
 */
export class FileTransport extends TransportStream {
  private fd: number | undefined;
  private size = 0;

  constructor(private readonly options: FileTransportOptions) {
    super({ level: options.level });
    this.open();
  }

  override log(info: Record<string | symbol, unknown>, next: () => void): void {
    this.append(`${String(info[MESSAGE])}\n`);
    next();
  }

  /** Forces written data to disk. */
  flush(): void {
    if (this.fd !== undefined) fsyncSync(this.fd);
  }

  override close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private append(text: string): void {
    const bytes = Buffer.byteLength(text);
    if (this.options.maxSizeBytes > 0 && this.size > 0 && this.size + bytes > this.options.maxSizeBytes) {
      this.rotate();
    }
    if (this.fd === undefined) return;
    writeSync(this.fd, text);
    this.size += bytes;
  }

  private open(): void {
    mkdirSync(dirname(this.options.path), { recursive: true });
    this.fd = openSync(this.options.path, 'a');
    this.size = fstatSync(this.fd).size;
    if (!this.options.skipLogHeaders && this.size === 0) {
      const now = new Date();
      const header =
        `Log file created at: ${now.toISOString().replace('T', ' ').replace('Z', '')}\n` +
        `Running on machine: ${hostname()}\n` +
        `Binary: node ${process.version} for ${process.platform}/${process.arch}\n` +
        'Log line format: [IWEF]mmdd hh:mm:ss.uuuuuu threadid file:line] msg\n';
      writeSync(this.fd, header);
      this.size += Buffer.byteLength(header);
    }
  }

  private rotate(): void {
    this.close();
    renameSync(this.options.path, `${this.options.path}.1`);
    this.open();
  }
}
