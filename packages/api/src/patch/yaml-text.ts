/**
 * Block YAML of a decoded JSON value, in the style Kubernetes' clients print objects in messages
 * (sorted keys, list items at their key's indentation, strings quoted only when they would not read
 * back as strings).
 */
export function yamlText(value: unknown): string {
  if (isEmptyOrScalar(value)) return `${scalar(value)}\n`;
  return Array.isArray(value) ? list(value, '') : map(value as Record<string, unknown>, '');
}

function isEmptyOrScalar(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;
}

function map(value: Record<string, unknown>, indent: string): string {
  let out = '';
  for (const key of Object.keys(value).sort()) {
    const v = value[key];
    if (isEmptyOrScalar(v)) out += `${indent}${scalar(key)}: ${scalar(v)}\n`;
    else if (Array.isArray(v)) out += `${indent}${scalar(key)}:\n${list(v, indent)}`;
    else out += `${indent}${scalar(key)}:\n${map(v as Record<string, unknown>, `${indent}  `)}`;
  }
  return out;
}

function list(value: unknown[], indent: string): string {
  let out = '';
  for (const v of value) {
    if (isEmptyOrScalar(v)) {
      out += `${indent}- ${scalar(v)}\n`;
    } else {
      // The item's first line follows the dash; the rest is indented under it.
      const body = Array.isArray(v)
        ? list(v, `${indent}  `)
        : map(v as Record<string, unknown>, `${indent}  `);
      out += `${indent}- ${body.slice(indent.length + 2)}`;
    }
  }
  return out;
}

const PLAIN = /^[\w$/.:%@+-]+$/;
const RESERVED = /^(true|false|null|yes|no|on|off|y|n|~)$/i;
/** Text YAML would read as a number, or that starts or ends like YAML syntax. */
const AMBIGUOUS = /^([-+.]?\d|[-:]$|:)|:$/;

function scalar(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return '[]';
  if (typeof value === 'object') return '{}';
  if (typeof value !== 'string') return String(value);
  return PLAIN.test(value) && !RESERVED.test(value) && !AMBIGUOUS.test(value) ? value : JSON.stringify(value);
}
