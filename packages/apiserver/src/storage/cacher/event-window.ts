import type { WatchEvent } from '../storage';
import { partitionPoint } from '../partition-point';

export interface EventWindowOptions {
  /** Keep events at least this long (unless the capacity is reached). */
  windowMs: number;
  /** Keep at most this many events. */
  capacity: number;
  now: () => number;
}

/**
 * The recent events of a watch cache, oldest first, with the revision the window starts after:
 * every event with a revision above `startRevision` that the cache has seen is held here. Events
 * leave when they are older than `windowMs` or when more than `capacity` are held.
 */
export class EventWindow {
  private events: { event: WatchEvent; at: number }[] = [];
  private head = 0;

  constructor(
    private readonly options: EventWindowOptions,
    /** Events after this revision are all in the window. */
    public startRevision: number,
  ) {}

  get size(): number {
    return this.events.length - this.head;
  }

  push(event: WatchEvent): void {
    this.events.push({ event, at: this.options.now() });
    this.expire();
  }

  /** Drops events that are too old, or over capacity. */
  expire(): void {
    const oldest = this.options.now() - this.options.windowMs;
    while (this.size > 0 && (this.size > this.options.capacity || this.events[this.head].at < oldest)) {
      this.startRevision = this.events[this.head++].event.modRevision;
    }
    this.pack();
  }

  /** Drops events at or below `revision` (after a compaction). */
  dropThrough(revision: number): void {
    while (this.size > 0 && this.events[this.head].event.modRevision <= revision) this.head++;
    this.startRevision = Math.max(this.startRevision, revision);
    this.pack();
  }

  /** Events with a revision above `revision`, oldest first. Requires `revision >= startRevision`. */
  since(revision: number): WatchEvent[] {
    const from = partitionPoint(this.events, this.head, (e) => e.event.modRevision <= revision);
    return this.events.slice(from).map((e) => e.event);
  }

  private pack(): void {
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
  }
}
