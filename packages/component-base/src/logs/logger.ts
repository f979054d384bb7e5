import { join } from 'node:path';
import { format as formatArgs } from 'node:util';
import winston from 'winston';
import { callerLocation, type CallerLocation } from './callerLocation';
import { FileTransport } from './fileTransport';
import { klogHeader, SEVERITY_NAMES, type Severity } from './klogHeader';
import { DEFAULT_LOGGING_OPTIONS, type LoggingOptions } from './loggingOptions';
import { StreamTransport } from './streamTransport';
import { keyValuePairs, structuredText } from './structuredText';
import { vmoduleLevel } from './vmodule';
import { errorMessage, isErrorLike } from '../errorMessage';

/** What a logger writes to and how it ends the process on FATAL. */
export interface LoggerDeps {
  stderr?: { write(text: string): unknown };
  /** Program name used for the file in --log-dir. */
  program?: string;
  /** Milliseconds since the epoch, possibly fractional. */
  now?: () => number;
  exit?: (code: number) => void;
}

const WINSTON_LEVELS = { fatal: 0, error: 1, warning: 2, info: 3 };
const winstonLevel = (severity: Severity): string => severity.toLowerCase();

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type Caller = Function;

/** The result of `logger.v(n)`: logs only when verbosity n is enabled. */
export class Verbose {
  constructor(
    private readonly logger: Logger,
    readonly level: number,
    readonly enabled: boolean,
  ) {}

  info(...args: unknown[]): void {
    if (this.enabled) this.logger.emit('INFO', Verbose.prototype.info, this.level, formatArgs(...args));
  }

  /** Structured: `msg="..." key="value"`. */
  infoS(msg: string, ...keysAndValues: unknown[]): void {
    if (this.enabled) {
      this.logger.emit('INFO', Verbose.prototype.infoS, this.level, msg, keyValuePairs(keysAndValues));
    }
  }
}

/** A klog-compatible logger on winston. */
export class Logger {
  readonly options: LoggingOptions;
  private readonly winston: winston.Logger;
  private readonly files: FileTransport[] = [];
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  private readonly exit: (code: number) => void;

  constructor(options: Partial<LoggingOptions> = {}, deps: LoggerDeps = {}) {
    this.options = { ...DEFAULT_LOGGING_OPTIONS, ...options };
    this.now = deps.now ?? (() => performance.timeOrigin + performance.now());
    this.exit = deps.exit ?? ((code) => process.exit(code));
    const stderr = deps.stderr ?? process.stderr;
    const o = this.options;
    const transports: winston.transport[] = [];
    const everything = o.logtostderr || o.alsologtostderr;
    transports.push(
      new StreamTransport(
        stderr,
        everything ? 'info' : winstonLevel(SEVERITY_NAMES[o.stderrthreshold] ?? 'ERROR'),
      ),
    );
    if (!o.logtostderr && (o.logFile !== '' || o.logDir !== '')) {
      const path = o.logFile !== '' ? o.logFile : join(o.logDir, `${deps.program ?? 'orch'}.log`);
      this.files.push(
        new FileTransport({
          path,
          maxSizeBytes: o.logFileMaxSizeMB * 1024 * 1024,
          skipLogHeaders: o.skipLogHeaders,
        }),
      );
    }
    this.winston = winston.createLogger({
      levels: WINSTON_LEVELS,
      level: 'info',
      format: winston.format.printf((info) => String(info.message)),
      transports: [...transports, ...this.files],
    });
    if (this.files.length > 0 && o.flushFrequencyMs > 0) {
      this.timer = setInterval(() => this.flush(), o.flushFrequencyMs);
      this.timer.unref();
    }
  }

  info(...args: unknown[]): void {
    this.emit('INFO', Logger.prototype.info, 0, formatArgs(...args));
  }

  warning(...args: unknown[]): void {
    this.emit('WARNING', Logger.prototype.warning, 0, formatArgs(...args));
  }

  error(...args: unknown[]): void {
    this.emit('ERROR', Logger.prototype.error, 0, formatArgs(...args));
  }

  /** Logs at FATAL, flushes and exits with status 255. */
  fatal(...args: unknown[]): void {
    this.emit('FATAL', Logger.prototype.fatal, 0, formatArgs(...args));
    this.flush();
    this.exit(255);
  }

  /** Structured info: `msg="..." key="value"`. */
  infoS(msg: string, ...keysAndValues: unknown[]): void {
    this.emit('INFO', Logger.prototype.infoS, 0, msg, keyValuePairs(keysAndValues));
  }

  /** Structured error: `msg="..." err="..." key="value"`. */
  errorS(err: unknown, msg: string, ...keysAndValues: unknown[]): void {
    const pairs = keyValuePairs(keysAndValues);
    if (err !== undefined && err !== null) pairs.unshift(['err', errorMessage(err)]);
    this.emit('ERROR', Logger.prototype.errorS, 0, msg, pairs);
  }

  /** Verbosity-gated logging: `logger.v(2).info(...)` logs when -v is at least 2 (or --vmodule says so). */
  v(level: number): Verbose {
    let threshold = this.options.verbosity;
    if (this.options.vmodule.length > 0) {
      const file = callerLocation(Logger.prototype.v).path;
      threshold = vmoduleLevel(this.options.vmodule, file) ?? threshold;
    }
    return new Verbose(this, level, level <= threshold);
  }

  /** Forces file output to disk. */
  flush(): void {
    for (const file of this.files) file.flush();
  }

  /** Stops the flush timer and closes files. */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.flush();
    for (const file of this.files) file.close();
  }

  /** @internal Formats and writes one entry; `caller` is the public function called by user code. */
  emit(severity: Severity, caller: Caller, v: number, msg: string, pairs?: [string, unknown][]): void {
    const o = this.options;
    const needLocation = !o.skipHeaders || o.format === 'json' || o.backtraceAt.line > 0;
    const location: CallerLocation = needLocation ? callerLocation(caller) : { path: '', file: '', line: 0 };
    const nowMs = this.now();
    let line: string;
    if (o.format === 'json') {
      const entry: Record<string, unknown> = {
        ts: nowMs / 1000,
        caller: `${location.file}:${location.line}`,
      };
      entry.msg = msg;
      if (severity === 'INFO') entry.v = v;
      for (const [k, value] of pairs ?? []) entry[k] = isErrorLike(value) ? value.message : value;
      line = JSON.stringify(entry);
    } else {
      const body = pairs ? structuredText(msg, pairs) : msg;
      const header = o.skipHeaders
        ? ''
        : klogHeader(
            severity,
            new Date(Math.floor(nowMs)),
            Math.floor((nowMs % 1000) * 1000),
            process.pid,
            o.addDirHeader ? location.path : location.file,
            location.line,
          );
      line = header + body;
    }
    if (
      o.backtraceAt.line > 0 &&
      o.backtraceAt.line === location.line &&
      o.backtraceAt.file === location.file
    ) {
      const holder: { stack?: string } = {};
      Error.captureStackTrace(holder, caller);
      line += `\n${(holder.stack ?? '').split('\n').slice(1).join('\n')}`;
    }
    this.winston.log({ level: winstonLevel(severity), message: line });
  }
}
