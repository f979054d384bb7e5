/**
 * A list edited the way a Go slice over another list's backing array is. Kubernetes deletes items of
 * a merging list by shifting the rest left in place and appends new items into the freed slots, and
 * it later orders the merged list by that same backing array (still seen with the original length).
 * The resulting order depends on this, so the edits are reproduced here: `view()` is the backing
 * array as the original slice sees it, `items()` the edited slice.
 */
export class SharedSlice {
  private readonly backing: unknown[];
  /** Items appended beyond the original length (a new array in Go, invisible to the original). */
  private readonly overflow: unknown[] = [];
  private length: number;

  constructor(original: readonly unknown[]) {
    this.backing = original.slice();
    this.length = original.length;
  }

  get size(): number {
    return this.length;
  }

  at(index: number): unknown {
    return index < this.backing.length ? this.backing[index] : this.overflow[index - this.backing.length];
  }

  set(index: number, value: unknown): void {
    if (index < this.backing.length) this.backing[index] = value;
    else this.overflow[index - this.backing.length] = value;
  }

  /** `s = append(s[:i], s[i+1:]...)`. */
  deleteAt(index: number): void {
    for (let p = index; p < this.length - 1; p++) this.set(p, this.at(p + 1));
    this.length--;
  }

  /** `s = append(s, v)`. */
  append(value: unknown): void {
    this.set(this.length, value);
    this.length++;
  }

  items(): unknown[] {
    const out = new Array<unknown>(this.length);
    for (let p = 0; p < this.length; p++) out[p] = this.at(p);
    return out;
  }

  /** The backing array as the original slice (with its original length) sees it. */
  view(): unknown[] {
    return this.backing.slice();
  }
}
