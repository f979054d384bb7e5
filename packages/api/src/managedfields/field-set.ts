import { comparePathElements, isPathElement, type Path, type PathElement } from './path-element';

/** The JSON form of a field set (metadata.managedFields[].fieldsV1). */
export type FieldsV1 = { [key: string]: FieldsV1 };

/** A malformed fieldsV1 value. */
export class FieldsV1Error extends Error {}

/**
 * A set of paths into an object (Kubernetes' fieldpath.Set): the paths that are members at this level
 * and, per element, the set of paths below it. An element may be both a member and a parent (`.` in
 * FieldsV1).
 */
export class FieldPathSet {
  private readonly members = new Set<PathElement>();
  private readonly children = new Map<PathElement, FieldPathSet>();

  /** Adds a path. */
  insert(path: Path): void {
    if (path.length === 0) return;
    const last = path.length - 1;
    (last === 0 ? this : this.child(path[0]!).descend(path, 1, last)).members.add(path[last]!);
  }

  /** Whether a path is a member. */
  has(path: Path): boolean {
    if (path.length === 0) return false;
    let set = path.length > 1 ? this.children.get(path[0]!) : this;
    for (let i = 1; i < path.length - 1 && set; i++) set = set.children.get(path[i]!);
    return set !== undefined && set.members.has(path[path.length - 1]!);
  }

  /** The set at path[from..to), created when missing. */
  private descend(path: Path, from: number, to: number): FieldPathSet {
    return from >= to ? this : this.child(path[from]!).descend(path, from + 1, to);
  }

  addMember(pe: PathElement): void {
    this.members.add(pe);
  }

  deleteMember(pe: PathElement): void {
    this.members.delete(pe);
  }

  hasMember(pe: PathElement): boolean {
    return this.members.has(pe);
  }

  /** The set below an element, created when missing. */
  child(pe: PathElement): FieldPathSet {
    let c = this.children.get(pe);
    if (c === undefined) {
      c = new FieldPathSet();
      this.children.set(pe, c);
    }
    return c;
  }

  /** The set below an element, if any. */
  childIfAny(pe: PathElement): FieldPathSet | undefined {
    return this.children.get(pe);
  }

  /** Drops an element: as a member and everything below it. */
  removeElement(pe: PathElement): void {
    this.members.delete(pe);
    this.children.delete(pe);
  }

  empty(): boolean {
    if (this.members.size) return false;
    for (const c of this.children.values()) if (!c.empty()) return false;
    return true;
  }

  union(other: FieldPathSet): FieldPathSet {
    const out = this.copy();
    out.addAll(other);
    return out;
  }

  /** Adds every path of `other` to this set. */
  addAll(other: FieldPathSet): void {
    for (const m of other.members) this.members.add(m);
    for (const [pe, c] of other.children) this.child(pe).addAll(c);
  }

  /** The paths of this set that are not in `other` (members only: a member does not cover its children). */
  difference(other: FieldPathSet): FieldPathSet {
    const out = new FieldPathSet();
    for (const m of this.members) if (!other.members.has(m)) out.members.add(m);
    for (const [pe, c] of this.children) {
      const o = other.children.get(pe);
      const d = o ? c.difference(o) : c.copy();
      if (!d.empty()) out.children.set(pe, d);
    }
    return out;
  }

  intersection(other: FieldPathSet): FieldPathSet {
    const out = new FieldPathSet();
    for (const m of this.members) if (other.members.has(m)) out.members.add(m);
    for (const [pe, c] of this.children) {
      const o = other.children.get(pe);
      if (!o) continue;
      const i = c.intersection(o);
      if (!i.empty()) out.children.set(pe, i);
    }
    return out;
  }

  copy(): FieldPathSet {
    const out = new FieldPathSet();
    for (const m of this.members) out.members.add(m);
    for (const [pe, c] of this.children) out.children.set(pe, c.copy());
    return out;
  }

  equals(other: FieldPathSet): boolean {
    return this.difference(other).empty() && other.difference(this).empty();
  }

  /** Every member path, in Kubernetes' order (members of a level before the levels below it). */
  paths(): PathElement[][] {
    const out: PathElement[][] = [];
    this.collect([], out);
    return out;
  }

  private collect(prefix: PathElement[], out: PathElement[][]): void {
    for (const m of [...this.members].sort(comparePathElements)) out.push([...prefix, m]);
    for (const pe of [...this.children.keys()].sort(comparePathElements)) {
      this.children.get(pe)!.collect([...prefix, pe], out);
    }
  }

  /** The FieldsV1 JSON of this set: keys sorted as Kubernetes writes them, `.` first. */
  toFieldsV1(): FieldsV1 {
    return this.encode(false) ?? {};
  }

  /**
   * The FieldsV1 of this level, `.` first when `dot` (the element above is a member too); undefined
   * when the level holds no member. One walk: each level is encoded once and written in order.
   */
  private encode(dot: boolean): FieldsV1 | undefined {
    let nested: Map<PathElement, FieldsV1> | undefined;
    const keys: PathElement[] = [];
    for (const m of this.members) keys.push(m);
    for (const [pe, c] of this.children) {
      const member = this.members.has(pe);
      const n = c.encode(member);
      if (n === undefined) continue;
      (nested ??= new Map()).set(pe, n);
      if (!member) keys.push(pe);
    }
    if (keys.length === 0) return undefined;
    if (keys.length > 1) keys.sort(comparePathElements);
    const out: FieldsV1 = dot ? { '.': {} } : {};
    for (let i = 0; i < keys.length; i++) {
      const pe = keys[i]!;
      out[pe] = nested?.get(pe) ?? {};
    }
    return out;
  }

  /** Whether some member of this set is a member of the set a (checked) FieldsV1 value encodes. */
  intersectsFieldsV1(fields: FieldsV1): boolean {
    for (const m of this.members) if (isMemberIn(fields, m)) return true;
    for (const [pe, c] of this.children) {
      const nested = ownValue(fields, pe);
      if (nested !== undefined && c.intersectsFieldsV1(nested)) return true;
    }
    return false;
  }

  /** Whether every member of this set is a member of the set a (checked) FieldsV1 value encodes. */
  isSubsetOfFieldsV1(fields: FieldsV1): boolean {
    for (const m of this.members) if (!isMemberIn(fields, m)) return false;
    for (const [pe, c] of this.children) {
      const nested = ownValue(fields, pe);
      if (nested === undefined ? !c.empty() : !c.isSubsetOfFieldsV1(nested)) return false;
    }
    return true;
  }

  /** Whether every member of the set a (checked) FieldsV1 value encodes is a member of this set. */
  coversFieldsV1(fields: FieldsV1): boolean {
    for (const pe in fields) {
      if (pe === '.') continue;
      const nested = fields[pe]!;
      const below = namesElements(nested);
      if (below) {
        const c = this.children.get(pe);
        if (c === undefined || !c.coversFieldsV1(nested)) return false;
      }
      if ((!below || nested['.'] !== undefined) && !this.members.has(pe)) return false;
    }
    return true;
  }

  /** Whether this set is the set a (checked) FieldsV1 value encodes (one walk of both). */
  equalsFieldsV1(fields: FieldsV1): boolean {
    let members = 0;
    let parents = 0;
    for (const pe in fields) {
      if (pe === '.') continue;
      const nested = fields[pe]!;
      const below = namesElements(nested);
      if (!below || nested['.'] !== undefined) {
        if (!this.members.has(pe)) return false;
        members++;
      }
      if (below) {
        const c = this.children.get(pe);
        if (c === undefined || !c.equalsFieldsV1(nested)) return false;
        parents++;
      }
    }
    if (members !== this.members.size) return false;
    if (parents === this.children.size) return true;
    // levels below elements the value has nothing below must be empty
    for (const [pe, c] of this.children) {
      const nested = ownValue(fields, pe);
      if ((nested === undefined || !namesElements(nested)) && !c.empty()) return false;
    }
    return true;
  }

  /**
   * The set a (checked, canonical) FieldsV1 value encodes without the members of this set (as
   * `difference`), spelled canonically too; levels this set leaves unchanged are shared, not copied.
   * Returns `fields` itself when nothing is removed.
   */
  removeFromFieldsV1(fields: FieldsV1): FieldsV1 {
    const out = removeLevel(this, fields);
    return out === unchanged ? fields : (out ?? {});
  }

  /** Reads a FieldsV1 value; throws FieldsV1Error when it is not one. */
  static fromFieldsV1(value: unknown): FieldPathSet {
    const out = new FieldPathSet();
    readInto(out, value, '');
    return out;
  }
}

function readInto(set: FieldPathSet, value: unknown, at: string): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new FieldsV1Error(`expected an object${at ? ` at ${at}` : ''}`);
  }
  for (const key of Object.keys(value)) {
    if (key === '.') continue;
    if (!isPathElement(key)) throw new FieldsV1Error(`unexpected path element ${JSON.stringify(key)}`);
    const nested = (value as Record<string, unknown>)[key];
    if (typeof nested !== 'object' || nested === null || Array.isArray(nested)) {
      throw new FieldsV1Error(`expected an object at ${key}`);
    }
    const keys = Object.keys(nested);
    if (keys.length === 0 || keys.includes('.')) set.addMember(key);
    if (keys.length > (keys.includes('.') ? 1 : 0)) readInto(set.child(key), nested, key);
  }
}

const unchanged: FieldsV1 = Object.freeze({}) as FieldsV1;

/**
 * One level of removeFromFieldsV1: `unchanged` when no member of `set` is at or below this level,
 * else the level's elements without `.` (undefined when none is left).
 */
function removeLevel(set: FieldPathSet, fields: FieldsV1): FieldsV1 | undefined {
  let out: FieldsV1 | undefined;
  let copied = false;
  for (const pe in fields) {
    if (pe === '.') continue;
    const nested = fields[pe]!;
    const below = namesElements(nested);
    const member = !below || nested['.'] !== undefined;
    const drop = member && set.hasMember(pe);
    const child = below ? set.childIfAny(pe) : undefined;
    const rest = child === undefined ? unchanged : removeLevel(child, nested);
    let value: FieldsV1 | undefined = nested;
    if (drop || rest !== unchanged) {
      const remaining = rest === unchanged ? withoutDot(nested) : rest;
      if (member && !drop) value = remaining === undefined ? {} : { '.': {}, ...remaining };
      else value = remaining;
      if (!copied) {
        // the elements before this one are kept as they are
        out = {};
        for (const k in fields) {
          if (k === pe) break;
          if (k !== '.') out[k] = fields[k]!;
        }
        copied = true;
      }
    }
    if (copied && value !== undefined) out![pe] = value;
  }
  if (!copied) return unchanged;
  for (const _k in out) return out;
  return undefined;
}

/** Whether a FieldsV1 level has elements (keys other than `.`). */
function namesElements(fields: FieldsV1): boolean {
  for (const k in fields) if (k !== '.') return true;
  return false;
}

/** A level's elements without its `.` marker (undefined when it has none). */
function withoutDot(fields: FieldsV1): FieldsV1 | undefined {
  let out: FieldsV1 | undefined;
  for (const k in fields) if (k !== '.') (out ??= {})[k] = fields[k]!;
  return out;
}

/** The value of an element in a FieldsV1 level (path elements never name inherited properties). */
function ownValue(fields: FieldsV1, pe: PathElement): FieldsV1 | undefined {
  return fields[pe] as FieldsV1 | undefined;
}

/** Whether an element is a member of a FieldsV1 level: a leaf `{}` or a parent marked with `.`. */
function isMemberIn(fields: FieldsV1, pe: PathElement): boolean {
  const nested = ownValue(fields, pe);
  if (nested === undefined) return false;
  for (const _k in nested) return nested['.'] !== undefined;
  return true;
}

const hasDot = 1;
const hasElements = 2;
const notCanonical = 4;

/**
 * Checks that a value is FieldsV1 (throws FieldsV1Error as fromFieldsV1 does) and tells whether it is
 * spelled exactly as toFieldsV1 writes it (keys in order, `.` first, empty and only on parents), so it
 * can be written back as it is.
 */
export function checkFieldsV1(value: unknown): boolean {
  if (typeof value === 'object' && value !== null && canonicalFieldsV1.has(value)) return true;
  const canonical = (checkLevel(value, '', true) & notCanonical) === 0;
  if (canonical) canonicalFieldsV1.add(value as object);
  return canonical;
}

/**
 * FieldsV1 values found canonical. Once read, a FieldsV1 value is not changed (field sets are written
 * to new values), and every write of an object reads its entries again: the stored object's entries
 * are checked once.
 */
const canonicalFieldsV1 = new WeakSet<object>();

/** Checks one level; returns hasDot, hasElements and notCanonical flags. */
function checkLevel(value: unknown, at: string, root: boolean): number {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new FieldsV1Error(`expected an object${at ? ` at ${at}` : ''}`);
  }
  let flags = 0;
  let previous: string | undefined;
  for (const key in value) {
    const nested = (value as Record<string, unknown>)[key];
    if (key === '.') {
      if (root || flags !== 0 || !isEmptyObject(nested)) flags |= notCanonical;
      flags |= hasDot;
      continue;
    }
    flags |= hasElements;
    if (!isPathElement(key)) throw new FieldsV1Error(`unexpected path element ${JSON.stringify(key)}`);
    if (previous !== undefined && comparePathElements(previous, key) >= 0) flags |= notCanonical;
    previous = key;
    const below = checkLevel(nested, key, false);
    // a member without fields below it is written `{}`, never `{".": {}}`
    if ((below & notCanonical) !== 0 || (below & (hasDot | hasElements)) === hasDot) flags |= notCanonical;
  }
  return flags;
}

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const _k in value) return false;
  return true;
}
