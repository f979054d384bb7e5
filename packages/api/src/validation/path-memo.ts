/**
 * Memoized field paths for walks that hand a path to every visited struct. The same positions
 * (`spec.containers[0]`) recur in every object, so each path string is built once and reused; the
 * memo is bounded and simply starts over when full.
 */

const MAX_ENTRIES = 4096;
const MAX_INDEX = 256;

/** `parent.name` for one field name. */
export function fieldPathMemo(name: string): (parent: string) => string {
  const memo = new Map<string, string>();
  return (parent) => {
    let p = memo.get(parent);
    if (p === undefined) {
      p = parent === '' ? name : `${parent}.${name}`;
      if (memo.size >= MAX_ENTRIES) memo.clear();
      memo.set(parent, p);
    }
    return p;
  };
}

/** `parent[i]` for list indices. */
export function indexPathMemo(): (parent: string, index: number) => string {
  const memo = new Map<string, string[]>();
  return (parent, index) => {
    if (index >= MAX_INDEX) return `${parent}[${index}]`;
    let paths = memo.get(parent);
    if (paths === undefined) {
      paths = [];
      if (memo.size >= MAX_ENTRIES) memo.clear();
      memo.set(parent, paths);
    }
    return (paths[index] ??= `${parent}[${index}]`);
  };
}
