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
    const out: FieldsV1 = {};
    const keys = new Set<PathElement>(this.members);
    for (const [pe, c] of this.children) if (!c.empty()) keys.add(pe);
    for (const pe of [...keys].sort(comparePathElements)) {
      const c = this.children.get(pe);
      if (c === undefined || c.empty()) {
        out[pe] = {};
        continue;
      }
      const nested = c.toFieldsV1();
      out[pe] = this.members.has(pe) ? { '.': {}, ...nested } : nested;
    }
    return out;
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
