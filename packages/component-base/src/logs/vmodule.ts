import type { ModuleSpecEntry } from '../options/flagTypes';

function globToRegExp(pattern: string): RegExp {
  const escaped = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`);
}

/**
 * The --vmodule level for a source file, or undefined when no pattern matches. Patterns match the
 * file name without its extension, or the whole path when they contain a slash.
 */
export function vmoduleLevel(spec: readonly ModuleSpecEntry[], path: string): number | undefined {
  const withoutExt = path.replace(/\.(ts|js|mjs|cjs)$/, '');
  const base = withoutExt.slice(withoutExt.lastIndexOf('/') + 1);
  for (const entry of spec) {
    const target = entry.pattern.includes('/') ? withoutExt : base;
    if (globToRegExp(entry.pattern).test(target)) return entry.level;
  }
  return undefined;
}
