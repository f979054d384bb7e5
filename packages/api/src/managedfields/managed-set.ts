import { checkFieldsV1, FieldPathSet, type FieldsV1 } from './field-set';
import type { ManagerIdentity } from './managed-fields';

/**
 * The fields one manager owns. A set read from managedFields stays in its FieldsV1 form until an
 * operation needs the decoded set, and is written back as it was read unless it changed: most writes
 * touch fields of one manager only, so the other entries are neither decoded nor encoded again.
 */
export class ManagedSet implements ManagerIdentity {
  readonly manager: string;
  readonly operation: string;
  readonly apiVersion: string;
  readonly subresource: string;
  time: string | undefined;
  private decoded: FieldPathSet | undefined;
  private encoded: FieldsV1 | undefined;

  private constructor(id: ManagerIdentity, time: string | undefined) {
    this.manager = id.manager;
    this.operation = id.operation;
    this.apiVersion = id.apiVersion;
    this.subresource = id.subresource;
    this.time = time;
  }

  static of(id: ManagerIdentity, set: FieldPathSet, time: string | undefined): ManagedSet {
    const m = new ManagedSet(id, time);
    m.decoded = set;
    return m;
  }

  /** An entry read from managedFields; throws FieldsV1Error when `fields` is not FieldsV1. */
  static read(id: ManagerIdentity, fields: unknown, time: string | undefined): ManagedSet {
    const m = new ManagedSet(id, time);
    if (checkFieldsV1(fields)) m.encoded = fields as FieldsV1;
    else m.decoded = FieldPathSet.fromFieldsV1(fields);
    return m;
  }

  /** The owned fields (do not change the set returned: use replace). */
  get set(): FieldPathSet {
    this.decoded ??= FieldPathSet.fromFieldsV1(this.encoded);
    return this.decoded;
  }

  replace(set: FieldPathSet): void {
    this.decoded = set;
    this.encoded = undefined;
  }

  /** The owned fields in their FieldsV1 form (shared: do not change it). */
  toFieldsV1(): FieldsV1 {
    this.encoded ??= this.decoded!.toFieldsV1();
    return this.encoded;
  }

  empty(): boolean {
    if (this.encoded === undefined) return this.decoded!.empty();
    // a checked FieldsV1 with any element has a member
    for (const _pe in this.encoded) return false;
    return true;
  }

  /** Whether the manager owns any field of `set`. */
  intersects(set: FieldPathSet): boolean {
    if (this.encoded !== undefined) return set.intersectsFieldsV1(this.encoded);
    return !this.decoded!.intersection(set).empty();
  }

  /** Whether the manager owns exactly the fields of `set`. */
  sameAs(set: FieldPathSet): boolean {
    if (this.encoded !== undefined) return set.equalsFieldsV1(this.encoded);
    return set.equals(this.decoded!);
  }

  /** Whether the manager owns every field of `set`. */
  covers(set: FieldPathSet): boolean {
    if (this.encoded !== undefined) return set.isSubsetOfFieldsV1(this.encoded);
    return set.difference(this.decoded!).empty();
  }

  /** Whether every field the manager owns is in `set`. */
  within(set: FieldPathSet): boolean {
    if (this.encoded !== undefined) return set.coversFieldsV1(this.encoded);
    return this.decoded!.difference(set).empty();
  }

  /** Gives up the fields of `sets` (nothing changes when the manager owns none of them). */
  release(...sets: FieldPathSet[]): void {
    for (const s of sets) {
      if (s.empty()) continue;
      if (this.encoded !== undefined) {
        // edited in its FieldsV1 form: the levels the write does not touch are kept as they are
        const rest = s.removeFromFieldsV1(this.encoded);
        if (rest !== this.encoded) {
          this.encoded = rest;
          this.decoded = undefined;
        }
      } else if (this.intersects(s)) this.replace(this.set.difference(s));
    }
  }

  /** Takes the fields of `set` too. */
  take(set: FieldPathSet): void {
    if (!this.covers(set)) this.replace(this.set.union(set));
  }
}
