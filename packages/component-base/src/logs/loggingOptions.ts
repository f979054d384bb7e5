import type { ModuleSpecEntry, TraceLocation } from '../options/flagTypes';
import type { ParsedFlags } from '../options/parsedFlags';

/** Everything the logging flags configure. */
export interface LoggingOptions {
  verbosity: number;
  vmodule: ModuleSpecEntry[];
  logtostderr: boolean;
  alsologtostderr: boolean;
  /** Severity index (0 INFO … 3 FATAL) from which messages also go to standard error. */
  stderrthreshold: number;
  logDir: string;
  logFile: string;
  /** Megabytes; 0 means unlimited. */
  logFileMaxSizeMB: number;
  flushFrequencyMs: number;
  skipHeaders: boolean;
  addDirHeader: boolean;
  skipLogHeaders: boolean;
  backtraceAt: TraceLocation;
  format: 'text' | 'json';
}

/** klog's defaults (as doc 3's logging table gives them). */
export const DEFAULT_LOGGING_OPTIONS: Readonly<LoggingOptions> = {
  verbosity: 0,
  vmodule: [],
  logtostderr: true,
  alsologtostderr: false,
  stderrthreshold: 2,
  logDir: '',
  logFile: '',
  logFileMaxSizeMB: 1800,
  flushFrequencyMs: 5000,
  skipHeaders: false,
  addDirHeader: false,
  skipLogHeaders: false,
  backtraceAt: { file: '', line: 0 },
  format: 'text',
};

/** Reads the logging flags. */
export function loggingOptionsFromFlags(flags: ParsedFlags): LoggingOptions {
  return {
    verbosity: flags.number('v'),
    vmodule: flags.get('vmodule', 'moduleSpec'),
    logtostderr: flags.bool('logtostderr'),
    alsologtostderr: flags.bool('alsologtostderr'),
    stderrthreshold: flags.number('stderrthreshold'),
    logDir: flags.string('log-dir'),
    logFile: flags.string('log-file'),
    logFileMaxSizeMB: flags.number('log-file-max-size'),
    flushFrequencyMs: flags.duration('log-flush-frequency'),
    skipHeaders: flags.bool('skip-headers'),
    addDirHeader: flags.bool('add-dir-header'),
    skipLogHeaders: flags.bool('skip-log-headers'),
    backtraceAt: flags.get('log-backtrace-at', 'traceLocation'),
    format: flags.string('logging-format') === 'json' ? 'json' : 'text',
  };
}
