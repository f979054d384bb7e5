/** How long expectations are trusted before a sync goes ahead anyway (Kubernetes' ExpectationsTimeout). */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60_000;

interface Expectation {
  add: number;
  del: number;
  timestamp: number;
}

/**
 * Creations and deletions a controller has asked for and not yet seen in its informer, per
 * controller key (Kubernetes' ControllerExpectations): while any are pending the controller does
 * not act again on a stale cache.
 */
export class ControllerExpectations {
  private readonly store = new Map<string, Expectation>();

  constructor(private readonly now: () => number = Date.now) {}

  /** True when the key has nothing pending, never had expectations, or they expired. */
  satisfied(key: string): boolean {
    const e = this.store.get(key);
    if (!e) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return this.now() - e.timestamp > EXPECTATIONS_TIMEOUT_MS;
  }

  expectCreations(key: string, n: number): void {
    this.store.set(key, { add: n, del: 0, timestamp: this.now() });
  }

  expectDeletions(key: string, n: number): void {
    this.store.set(key, { add: 0, del: n, timestamp: this.now() });
  }

  creationObserved(key: string): void {
    const e = this.store.get(key);
    if (e) e.add--;
  }

  deletionObserved(key: string): void {
    const e = this.store.get(key);
    if (e) e.del--;
  }

  delete(key: string): void {
    this.store.delete(key);
  }
}
