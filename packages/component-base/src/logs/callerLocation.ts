import { basename } from 'node:path';

/** Where a log call was made. */
export interface CallerLocation {
  /** Full path of the calling file. */
  path: string;
  /** File name without directory. */
  file: string;
  line: number;
}

/**
 * The location of the code that called `below` (the public logging function), read from V8's
 * structured stack with a one-frame limit so the cost stays small.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export function callerLocation(below: Function): CallerLocation {
  const prepare = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  const holder: { stack?: NodeJS.CallSite[] } = {};
  try {
    Error.stackTraceLimit = 1;
    Error.prepareStackTrace = (_err, sites) => sites;
    Error.captureStackTrace(holder, below);
    const site = holder.stack?.[0];
    let path = site?.getFileName() ?? '???';
    if (path.startsWith('file://')) path = new URL(path).pathname;
    return { path, file: basename(path), line: site?.getLineNumber() ?? 0 };
  } finally {
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = limit;
  }
}
