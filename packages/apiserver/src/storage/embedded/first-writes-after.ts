import { partitionPoint } from '../partition-point';

/** A key's first write after a revision, as its history row tells it. */
export interface FirstWrite {
  key: Buffer;
  /** The row the write replaced, which is the key's state at the revision; 0 if the write created the key. */
  prevRev: number;
  /** The key's createRevision at the revision (when `prevRev` is not 0). */
  createRev: number;
}

/**
 * The keys of a range [start, end) written after `revision`, each with its first write after it, as
 * read from the writes up to `scannedTo`. A list at a past revision reads a key not written since
 * from the current state and a key written since from the row its first write replaced; the pages
 * of such a list share one of these and extend it with the writes since the page before, instead of
 * each reading every write after the revision again.
 */
export class FirstWritesAfter {
  /** The writes up to this revision have been added. */
  scannedTo: number;
  /** Every key written after the revision, by its bytes (latin1 maps bytes to a string one to one). */
  private readonly written = new Set<string>();
  /** The keys that existed at the revision (`prevRev` > 0), in key order when `sorted`. */
  private readonly existing: FirstWrite[] = [];
  private sorted = true;

  constructor(
    readonly revision: number,
    readonly start: Buffer,
    readonly end: Buffer,
  ) {
    this.scannedTo = revision;
  }

  /** How many keys were written after the revision. */
  get size(): number {
    return this.written.size;
  }

  covers(revision: number, start: Buffer, end: Buffer): boolean {
    return revision === this.revision && start.equals(this.start) && end.equals(this.end);
  }

  /**
   * Adds the writes after `scannedTo` up to `to`, given as the first write of each key among them
   * (a key already known was first written earlier).
   */
  add(writes: readonly FirstWrite[], to: number): void {
    for (const write of writes) {
      const id = write.key.toString('latin1');
      if (this.written.has(id)) continue;
      this.written.add(id);
      if (write.prevRev > 0) {
        this.existing.push(write);
        this.sorted = false;
      }
    }
    this.scannedTo = to;
  }

  /**
   * The keys from `from` on that existed at the revision and were written since, in key order
   * (bytewise, as the store orders keys), and where they begin in that list.
   */
  existedFrom(from: Buffer): { writes: readonly FirstWrite[]; first: number } {
    if (!this.sorted) {
      this.existing.sort((a, b) => Buffer.compare(a.key, b.key));
      this.sorted = true;
    }
    const first = partitionPoint(this.existing, 0, (w) => Buffer.compare(w.key, from) < 0);
    return { writes: this.existing, first };
  }
}
