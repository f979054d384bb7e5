import type { TSchema } from '@sinclair/typebox';
import { child, key } from './field-error';
import { childNode } from './schema-node';

function unescapePointer(segment: string): string {
  return segment.indexOf('~') < 0 ? segment : segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Converts a JSON pointer (`/spec/containers/0/name`, as ajv reports locations) to Kubernetes'
 * field path notation (`spec.containers[0].name`), following the declaration to tell list indices
 * and map keys (`metadata.labels[app]`, `resources.limits[cpu]`) from struct fields. Only used when
 * an error is reported.
 */
export function fieldPathOf(root: TSchema, pointer: string, last?: string): string {
  let path = '';
  let node: TSchema | undefined = root;
  const segments = pointer === '' ? [] : pointer.slice(1).split('/').map(unescapePointer);
  if (last !== undefined) segments.push(last);
  for (const seg of segments) {
    const next: ReturnType<typeof childNode> = node === undefined ? undefined : childNode(node, seg);
    node = next?.node;
    if (next?.shape === 'key') path = key(path, seg);
    else if (next?.shape === 'index' || (next === undefined && /^[0-9]+$/.test(seg)))
      path = child(path, Number(seg));
    else path = child(path, seg);
  }
  return path;
}
