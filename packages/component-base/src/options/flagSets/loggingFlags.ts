import { flag, type FlagSpec } from '../flagSpec';

/** klog-style logging flags shared by every daemon. */
export function loggingFlags(): FlagSpec[] {
  return [
    flag({
      name: 'add-dir-header',
      type: 'bool',
      help: 'If true, adds the file directory to the header of log messages.',
    }),
    flag({ name: 'alsologtostderr', type: 'bool', help: 'Log to standard error as well as files.' }),
    flag({
      name: 'log-backtrace-at',
      type: 'traceLocation',
      default: { file: '', line: 0 },
      help: 'When logging hits line file:N, emit a stack trace.',
    }),
    flag({ name: 'log-dir', type: 'string', help: 'If non-empty, write log files in this directory.' }),
    flag({ name: 'log-file', type: 'string', help: 'If non-empty, use this log file.' }),
    flag({
      name: 'log-file-max-size',
      type: 'uint',
      default: 1800,
      help: 'Defines the maximum size a log file can grow to. Unit is megabytes. If the value is 0, the maximum file size is unlimited.',
    }),
    flag({
      name: 'log-flush-frequency',
      type: 'duration',
      default: 5_000,
      help: 'Maximum number of seconds between log flushes.',
    }),
    flag({
      name: 'logging-format',
      type: 'string',
      default: 'text',
      help: 'Sets the log format. Permitted formats: "json", "text".',
    }),
    flag({
      name: 'logtostderr',
      type: 'bool',
      default: true,
      help: 'Log to standard error instead of files.',
    }),
    flag({ name: 'skip-headers', type: 'bool', help: 'If true, avoid header prefixes in the log messages.' }),
    flag({ name: 'skip-log-headers', type: 'bool', help: 'If true, avoid headers when opening log files.' }),
    flag({
      name: 'stderrthreshold',
      type: 'severity',
      default: 2,
      help: 'Logs at or above this threshold go to stderr.',
    }),
    flag({ name: 'v', shorthand: 'v', type: 'level', help: 'Number for the log level verbosity.' }),
    flag({
      name: 'vmodule',
      type: 'moduleSpec',
      help: 'Comma-separated list of pattern=N settings for file-filtered logging.',
    }),
  ];
}
