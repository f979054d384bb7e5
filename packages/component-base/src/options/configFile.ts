import { readFileSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { FlagError } from './flagError';
import { flagCodec } from './flagTypes';
import type { ParsedFlags } from './parsedFlags';

/** Flags that never come from or go to a configuration file. */
const COMMAND_ONLY = new Set(['config', 'write-config-to', 'help', 'version']);

function lookup(doc: Record<string, unknown>, dotted: string): unknown {
  let node: unknown = doc;
  for (const part of dotted.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

function toFlagText(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(',');
  if (value !== null && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(',');
  }
  return String(value);
}

/**
 * Applies a YAML or JSON configuration file to the flags not given explicitly. Each flag is read
 * from its `configKey` path (e.g. `leaderElection.leaseDuration`) or from a top-level key named like
 * the flag; values use the flags' syntax (`15s`, lists as arrays or comma-separated strings).
 */
export function applyConfigFile(flags: ParsedFlags, file: string): void {
  let doc: unknown;
  try {
    doc = parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new FlagError(`--config: failed to read "${file}": ${(err as Error).message}`);
  }
  if (doc === null || doc === undefined) return;
  if (typeof doc !== 'object' || Array.isArray(doc))
    throw new FlagError(`--config: "${file}" must hold a mapping`);
  const record = doc as Record<string, unknown>;
  const known = new Set(['apiVersion', 'kind']);
  const errors: string[] = [];
  for (const spec of flags.allSpecs()) {
    if (COMMAND_ONLY.has(spec.name)) continue;
    known.add(spec.name);
    if (spec.configKey) known.add(spec.configKey.split('.')[0]);
    const value =
      spec.configKey !== undefined && lookup(record, spec.configKey) !== undefined
        ? lookup(record, spec.configKey)
        : record[spec.name];
    if (value === undefined || flags.changed(spec.name)) continue;
    const codec = flagCodec(spec.type);
    const text = toFlagText(value);
    try {
      const parsed =
        spec.type === 'namedCertKey' && Array.isArray(value)
          ? value.reduce<unknown>((prev, item) => codec.parse(String(item), prev as never), [])
          : codec.parse(text, undefined);
      flags.setDefault(spec.name, parsed);
    } catch (err) {
      errors.push(
        `--config: invalid value "${text}" for ${spec.configKey ?? spec.name}: ${(err as Error).message}`,
      );
    }
  }
  for (const key of Object.keys(record))
    if (!known.has(key)) errors.push(`--config: unknown field "${key}" in ${file}`);
  if (errors.length > 0) throw new FlagError(errors.join('\n'));
}

/** Writes every configurable flag's current value as YAML (readable again with --config). */
export function writeConfigFile(flags: ParsedFlags, file: string): void {
  const out: Record<string, unknown> = {};
  for (const spec of flags.allSpecs()) {
    if (COMMAND_ONLY.has(spec.name)) continue;
    const value = flags.value(spec.name);
    if (spec.type === 'stringList' || spec.type === 'cidrList' || spec.type === 'mapStringBool')
      out[spec.name] = value;
    else if (spec.type === 'namedCertKey') {
      out[spec.name] = flags
        .get(spec.name, 'namedCertKey')
        .map((n) => `${n.certFile},${n.keyFile}${n.names.length ? ':' + n.names.join(',') : ''}`);
    } else out[spec.name] = flags.format(spec.name);
  }
  writeFileSync(file, stringify(out));
}
