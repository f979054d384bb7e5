/**
 * Names of nodes that pods are bound to but the node cache does not hold, each kept for a
 * quarantine (the time the cache may take to show a new node) before it is worth asking the API
 * whether the node is really gone. Adding a name already waiting keeps its earlier deadline.
 */
export class NodeQuarantine {
  private readonly readyAt = new Map<string, number>();

  constructor(private readonly quarantineMs: number) {}

  /** Puts `name` in quarantine from `now`, unless it is already there. */
  add(name: string, now: number): void {
    if (!this.readyAt.has(name)) this.readyAt.set(name, now + this.quarantineMs);
  }

  /** Takes out the names whose quarantine is over at `now`. */
  takeReady(now: number): string[] {
    const ready: string[] = [];
    for (const [name, at] of this.readyAt) {
      if (at <= now) {
        ready.push(name);
        this.readyAt.delete(name);
      }
    }
    return ready;
  }

  /** How many names are in quarantine. */
  get size(): number {
    return this.readyAt.size;
  }
}
