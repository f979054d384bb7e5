import { isIP } from 'node:net';
import { formatDuration, parseDuration } from './duration';

/** A certificate/key pair for SNI, optionally restricted to explicit domain patterns. */
export interface NamedCertKey {
  certFile: string;
  keyFile: string;
  names: string[];
}

/** A `file:N` location at which the logger emits a stack trace. */
export interface TraceLocation {
  file: string;
  line: number;
}

/** One `pattern=N` entry of `--vmodule`. */
export interface ModuleSpecEntry {
  pattern: string;
  level: number;
}

/** The value type held for each flag type. */
export interface FlagTypeMap {
  bool: boolean;
  int: number;
  int32: number;
  uint: number;
  float32: number;
  float: number;
  string: string;
  stringList: string[];
  duration: number;
  ip: string;
  cidr: string;
  cidrList: string[];
  mapStringBool: Record<string, boolean>;
  namedCertKey: NamedCertKey[];
  severity: number;
  level: number;
  traceLocation: TraceLocation;
  moduleSpec: ModuleSpecEntry[];
  version: string;
}

export type FlagType = keyof FlagTypeMap;

/** How one flag type is parsed, printed and shown in help. */
export interface FlagCodec<T> {
  /** The type word shown in help after the flag name (empty for booleans). */
  typeName: string;
  /** True when `--flag` alone means `--flag=true`. */
  boolLike: boolean;
  /** Parses one occurrence; `previous` is set when the flag was already given (lists append). */
  parse(text: string, previous: T | undefined): T;
  /** Prints a value in the form the flag accepts (and Kubernetes prints). */
  format(value: T): string;
  /** Zero values are not shown as defaults in help. */
  isZero(value: T): boolean;
  /** Help shows `(default "x")` with quotes for string-typed flags. */
  quoteDefault?: boolean;
}

const SEVERITIES = ['INFO', 'WARNING', 'ERROR', 'FATAL'];

/** Go's strconv.ParseBool. */
export function parseGoBool(text: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  throw new Error(`strconv.ParseBool: parsing "${text}": invalid syntax`);
}

function parseInteger(text: string, min: number, max: number, fn: string): number {
  const signs = min < 0 ? /^[+-]?\d+$/ : /^\+?\d+$/;
  if (!signs.test(text)) {
    throw new Error(`${fn}: parsing "${text}": invalid syntax`);
  }
  const value = Number(text);
  if (value < min || value > max) throw new Error(`${fn}: parsing "${text}": value out of range`);
  return value;
}

function parseFloatText(text: string, max: number): number {
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text)) {
    throw new Error(`strconv.ParseFloat: parsing "${text}": invalid syntax`);
  }
  const value = Number(text);
  if (Math.abs(value) > max) throw new Error(`strconv.ParseFloat: parsing "${text}": value out of range`);
  return value;
}

/** Splits a comma-separated list the way pflag's string slices do (empty input is an empty list). */
export function splitList(text: string): string[] {
  if (text === '') return [];
  return text.split(',').map((s) => s.trim());
}

/** True when `text` is a valid CIDR (`address/prefix`). */
export function isCIDR(text: string): boolean {
  const slash = text.indexOf('/');
  if (slash < 0) return false;
  const family = isIP(text.slice(0, slash));
  const prefix = text.slice(slash + 1);
  if (family === 0 || !/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

function list<T>(previous: T[] | undefined, items: T[]): T[] {
  return previous ? [...previous, ...items] : items;
}

const integer = (min: number, max: number, fn: string, typeName: string): FlagCodec<number> => ({
  typeName,
  boolLike: false,
  parse: (text) => parseInteger(text, min, max, fn),
  format: (v) => String(v),
  isZero: (v) => v === 0,
});

const float = (max: number, typeName: string): FlagCodec<number> => ({
  typeName,
  boolLike: false,
  parse: (text) => parseFloatText(text, max),
  format: (v) => String(v),
  isZero: (v) => v === 0,
});

function parseSeverity(text: string): number {
  const byName = SEVERITIES.indexOf(text.toUpperCase());
  if (byName >= 0) return byName;
  if (/^\d+$/.test(text) && Number(text) < SEVERITIES.length) return Number(text);
  throw new Error(`unknown severity "${text}"; use INFO, WARNING, ERROR, FATAL or 0-3`);
}

function parseNamedCertKey(text: string): NamedCertKey {
  const colon = text.indexOf(':');
  const pair = (colon < 0 ? text : text.slice(0, colon)).split(',').map((s) => s.trim());
  if (pair.length !== 2 || pair[0] === '' || pair[1] === '') {
    throw new Error('expected comma separated certificate and key file paths');
  }
  const names = colon < 0 ? [] : splitList(text.slice(colon + 1)).filter((n) => n !== '');
  return { certFile: pair[0], keyFile: pair[1], names };
}

function formatNamedCertKey(v: NamedCertKey): string {
  return `${v.certFile},${v.keyFile}${v.names.length ? ':' + v.names.join(',') : ''}`;
}

function parseTraceLocation(text: string): TraceLocation {
  if (text === '' || text === ':0') return { file: '', line: 0 };
  const colon = text.lastIndexOf(':');
  if (colon <= 0) throw new Error('syntax error: expect file.go:234');
  const line = text.slice(colon + 1);
  if (!/^\d+$/.test(line)) throw new Error('syntax error: expect file.go:234');
  return { file: text.slice(0, colon), line: Number(line) };
}

function parseModuleSpec(text: string): ModuleSpecEntry[] {
  const out: ModuleSpecEntry[] = [];
  for (const part of splitList(text)) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) throw new Error(`syntax error: expect comma-separated list of pattern=N, got "${part}"`);
    const level = part.slice(eq + 1);
    if (!/^\d+$/.test(level))
      throw new Error(`syntax error: expect comma-separated list of pattern=N, got "${part}"`);
    out.push({ pattern: part.slice(0, eq), level: Number(level) });
  }
  return out;
}

function parseMapStringBool(
  text: string,
  previous: Record<string, boolean> | undefined,
): Record<string, boolean> {
  const out: Record<string, boolean> = { ...(previous ?? {}) };
  for (const part of splitList(text)) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) throw new Error(`missing bool value for ${part}`);
    const key = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim();
    try {
      out[key] = parseGoBool(raw);
    } catch {
      throw new Error(
        `invalid value of ${key}=${raw}, err: strconv.ParseBool: parsing "${raw}": invalid syntax`,
      );
    }
  }
  return out;
}

const CODECS: { [K in FlagType]: FlagCodec<FlagTypeMap[K]> } = {
  bool: {
    typeName: '',
    boolLike: true,
    parse: (text) => parseGoBool(text),
    format: (v) => String(v),
    isZero: (v) => !v,
  },
  int: integer(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'strconv.ParseInt', 'int'),
  int32: integer(-2147483648, 2147483647, 'strconv.ParseInt', 'int32'),
  uint: integer(0, Number.MAX_SAFE_INTEGER, 'strconv.ParseUint', 'uint'),
  float32: float(3.4028234663852886e38, 'float32'),
  float: float(Number.MAX_VALUE, 'float'),
  string: {
    typeName: 'string',
    boolLike: false,
    parse: (text) => text,
    format: (v) => v,
    isZero: (v) => v === '',
    quoteDefault: true,
  },
  stringList: {
    typeName: 'strings',
    boolLike: false,
    parse: (text, prev) => list(prev, splitList(text)),
    format: (v) => `[${v.join(',')}]`,
    isZero: (v) => v.length === 0,
  },
  duration: {
    typeName: 'duration',
    boolLike: false,
    parse: (text) => parseDuration(text),
    format: (v) => formatDuration(v),
    isZero: (v) => v === 0,
  },
  ip: {
    typeName: 'ip',
    boolLike: false,
    parse: (text) => {
      const ip = text.trim();
      if (ip !== '' && isIP(ip) === 0) throw new Error(`failed to parse IP: "${text}"`);
      return ip;
    },
    format: (v) => v,
    isZero: (v) => v === '',
  },
  cidr: {
    typeName: 'ipNet',
    boolLike: false,
    parse: (text) => {
      if (!isCIDR(text.trim())) throw new Error(`invalid CIDR address: ${text}`);
      return text.trim();
    },
    format: (v) => v,
    isZero: (v) => v === '',
  },
  cidrList: {
    typeName: 'cidrs',
    boolLike: false,
    parse: (text, prev) => {
      const items = splitList(text).filter((s) => s !== '');
      for (const item of items) if (!isCIDR(item)) throw new Error(`invalid CIDR address: ${item}`);
      return list(prev, items);
    },
    format: (v) => v.join(','),
    isZero: (v) => v.length === 0,
  },
  mapStringBool: {
    typeName: 'mapStringBool',
    boolLike: false,
    parse: (text, prev) => parseMapStringBool(text, prev),
    format: (v) =>
      Object.keys(v)
        .sort()
        .map((k) => `${k}=${v[k]}`)
        .join(','),
    isZero: (v) => Object.keys(v).length === 0,
  },
  namedCertKey: {
    typeName: 'namedCertKey',
    boolLike: false,
    parse: (text, prev) => list(prev, [parseNamedCertKey(text)]),
    format: (v) => `[${v.map(formatNamedCertKey).join(';')}]`,
    isZero: (v) => v.length === 0,
  },
  severity: {
    typeName: 'severity',
    boolLike: false,
    parse: (text) => parseSeverity(text),
    format: (v) => String(v),
    isZero: (v) => v === 0,
  },
  level: {
    typeName: 'Level',
    boolLike: false,
    parse: (text) => parseInteger(text, 0, 2147483647, 'strconv.ParseInt'),
    format: (v) => String(v),
    isZero: (v) => v === 0,
  },
  traceLocation: {
    typeName: 'traceLocation',
    boolLike: false,
    parse: (text) => parseTraceLocation(text),
    format: (v) => `${v.file}:${v.line}`,
    isZero: (v) => v.file === '' && v.line === 0,
  },
  moduleSpec: {
    typeName: 'pattern=N,...',
    boolLike: false,
    parse: (text) => parseModuleSpec(text),
    format: (v) => v.map((e) => `${e.pattern}=${e.level}`).join(','),
    isZero: (v) => v.length === 0,
  },
  version: {
    typeName: 'version[=true]',
    boolLike: true,
    parse: (text) => {
      if (text === 'raw') return 'raw';
      return String(parseGoBool(text));
    },
    format: (v) => v,
    isZero: (v) => v === 'false',
  },
};

/** The codec (parse/print rules) for a flag type. */
export function flagCodec<T extends FlagType>(type: T): FlagCodec<FlagTypeMap[T]> {
  return CODECS[type] as unknown as FlagCodec<FlagTypeMap[T]>;
}

/** The zero value of each flag type, used when a declaration gives no default. */
export function zeroValue<T extends FlagType>(type: T): FlagTypeMap[T] {
  const zeros: { [K in FlagType]: FlagTypeMap[K] } = {
    bool: false,
    int: 0,
    int32: 0,
    uint: 0,
    float32: 0,
    float: 0,
    string: '',
    stringList: [],
    duration: 0,
    ip: '',
    cidr: '',
    cidrList: [],
    mapStringBool: {},
    namedCertKey: [],
    severity: 0,
    level: 0,
    traceLocation: { file: '', line: 0 },
    moduleSpec: [],
    version: 'false',
  };
  return zeros[type] as FlagTypeMap[T];
}
