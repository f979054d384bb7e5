import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword, type SpecialType } from '../schema/fields';

/**
 * A value for every field a schema declares (to a depth limit): strings, numbers, booleans, times,
 * quantities, int-or-strings, bytes, maps and one-item lists — the fullest object of a kind, for
 * tests that must touch every field (protobuf round trips, OpenAPI coverage).
 */
export function sampleOf(schema: TSchema, depth = 14, root = true): unknown {
  const n = schema as Record<string, unknown>;
  const special = n[OrchKeyword.special] as SpecialType | undefined;
  switch (special) {
    case 'time':
      return '2026-11-22T21:00:00Z';
    case 'microTime':
      return '2026-11-22T21:00:00.123456Z';
    case 'intOrString':
      return '25%';
    case 'quantity':
      return '250m';
    case 'bytes':
      return Buffer.from('sample').toString('base64');
    case 'rawExtension':
      return { apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'b' } };
    case 'fieldsV1':
      return { 'f:metadata': { 'f:labels': { '.': {} } } };
    default:
      break;
  }
  if (depth <= 0) return undefined;
  if (n.properties) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(n.properties as Record<string, TSchema>)) {
      // apiVersion and kind of a kind's struct travel in the protobuf envelope's TypeMeta, not in the
      // message: an embedded object (a claim template, delete options) has them only in JSON
      const typeMeta = key === 'apiVersion' || key === 'kind';
      if (typeMeta && (root || (child as Record<string, unknown>)[OrchKeyword.proto] === undefined)) continue;
      const v = sampleOf(child, depth - 1, false);
      if (v !== undefined) out[key] = v;
    }
    return out;
  }
  if (n.type === 'array') {
    const item = sampleOf(n.items as TSchema, depth - 1, false);
    return item === undefined ? undefined : [item];
  }
  if (n.type === 'object' && n.patternProperties) {
    const value = sampleOf(
      Object.values(n.patternProperties as Record<string, TSchema>)[0]!,
      depth - 1,
      false,
    );
    return value === undefined ? undefined : { key: value };
  }
  if (Array.isArray(n.enum)) return n.enum[0];
  switch (n.type) {
    case 'string':
      return 'sample';
    case 'integer':
      return 7;
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    default:
      return undefined;
  }
}
