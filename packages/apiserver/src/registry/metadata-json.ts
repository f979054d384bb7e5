import { isMap } from '@orch/api';

/**
 * `JSON.stringify` of an object's metadata, with the text of each managedFields entry's `fieldsV1`
 * remembered across writes. A FieldsV1 value is not changed once written (the field manager writes
 * changed sets to new values and keeps the levels a write does not touch), and the entries of
 * managers a write leaves alone keep theirs: they are often half of an object's text.
 */
export function stringifyMetadata(metadata: Record<string, unknown>): string {
  const managed = metadata.managedFields;
  if (!Array.isArray(managed) || managed.length === 0) return JSON.stringify(metadata);
  const parts: string[] = [];
  for (const key in metadata) {
    if (key === 'managedFields') {
      parts.push(`"managedFields":[${managed.map(entryJSON).join(',')}]`);
    } else pushMember(parts, key, metadata[key]);
  }
  return `{${parts.join(',')}}`;
}

/** FieldsV1 texts, by value. */
const fieldsV1JSON = new WeakMap<object, string>();

function entryJSON(entry: unknown): string {
  if (!isMap(entry) || !isMap(entry.fieldsV1)) return JSON.stringify(entry) ?? 'null';
  const parts: string[] = [];
  for (const key in entry) {
    const value = entry[key];
    if (key === 'fieldsV1' && isMap(value)) {
      let text = fieldsV1JSON.get(value);
      if (text === undefined) fieldsV1JSON.set(value, (text = JSON.stringify(value)));
      parts.push(`"fieldsV1":${text}`);
    } else pushMember(parts, key, value);
  }
  return `{${parts.join(',')}}`;
}

/** Adds `"key":value` as JSON.stringify writes an object member (nothing for undefined values). */
function pushMember(parts: string[], key: string, value: unknown): void {
  const json = JSON.stringify(value) as string | undefined;
  if (json !== undefined) parts.push(`${JSON.stringify(key)}:${json}`);
}
