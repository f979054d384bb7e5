/** How long expectations are waited for before a controller syncs anyway (kube-controller-manager: 5 minutes). */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60_000;

/** What a controller still expects to observe for one controllee key. */
export interface ControlleeExpectations {
  add: number;
  del: number;
  /** When they were set, ms. */
  timestamp: number;
}

/**
 * kube-controller-manager's ControllerExpectations: a controller records how many creations and
 * deletions it issued for a key, the informer handlers lower the counts as they observe them, and
 * the controller syncs the key only once they are met (or after the TTL, in case a watch event was
 * missed).
 */
export class ControllerExpectations {
  private readonly store = new Map<string, ControlleeExpectations>();

  constructor(
    private readonly ttlMs: number = EXPECTATIONS_TIMEOUT_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  get(key: string): ControlleeExpectations | undefined {
    const e = this.store.get(key);
    return e ? { ...e } : undefined;
  }

  delete(key: string): void {
    this.store.delete(key);
  }

  /**
   * True when the controller may sync the key: no expectations recorded, all of them observed, or
   * they are older than the TTL.
   */
  satisfiedExpectations(key: string): boolean {
    const e = this.store.get(key);
    if (!e) {
      return true;
    }
    return (e.add <= 0 && e.del <= 0) || this.clock() - e.timestamp > this.ttlMs;
  }

  setExpectations(key: string, add: number, del: number): void {
    this.store.set(key, { add, del, timestamp: this.clock() });
  }

  expectCreations(key: string, adds: number): void {
    this.setExpectations(key, adds, 0);
  }

  expectDeletions(key: string, dels: number): void {
    this.setExpectations(key, 0, dels);
  }

  /** Adds to the expectations of a key (only when some are recorded). */
  raiseExpectations(key: string, add: number, del: number): void {
    const e = this.store.get(key);
    if (e) {
      e.add += add;
      e.del += del;
    }
  }

  /** Subtracts from the expectations of a key (only when some are recorded). */
  lowerExpectations(key: string, add: number, del: number): void {
    const e = this.store.get(key);
    if (e) {
      e.add -= add;
      e.del -= del;
    }
  }

  creationObserved(key: string): void {
    this.lowerExpectations(key, 1, 0);
  }

  deletionObserved(key: string): void {
    this.lowerExpectations(key, 0, 1);
  }
}

/**
 * Expectations that also track which objects a controller deletes, so a deletion is counted once
 * whether it is observed through the watch or noticed by the controller itself (the
 * UIDTrackingControllerExpectations of kube-controller-manager).
 */
export class UIDTrackingControllerExpectations extends ControllerExpectations {
  private readonly deleting = new Map<string, Set<string>>();

  /** Expects the deletion of the objects with these keys (`namespace/name`). */
  expectDeletionsOf(key: string, deletedKeys: string[]): void {
    this.deleting.set(key, new Set(deletedKeys));
    this.expectDeletions(key, deletedKeys.length);
  }

  /** Observes the deletion of one object; counted only when it was expected and not seen before. */
  deletionObservedOf(key: string, deletedKey: string): void {
    const set = this.deleting.get(key);
    if (set?.delete(deletedKey)) {
      this.deletionObserved(key);
    }
  }

  /** The keys still expected to be deleted. */
  getUIDs(key: string): ReadonlySet<string> | undefined {
    return this.deleting.get(key);
  }

  override delete(key: string): void {
    super.delete(key);
    this.deleting.delete(key);
  }
}
