/** An object with the metadata the assume cache reads. */
interface Versioned {
  metadata?: { resourceVersion?: string };
}

function version(obj: Versioned): bigint {
  try {
    return BigInt(obj.metadata?.resourceVersion ?? '0');
  } catch {
    return 0n;
  }
}

/**
 * Kubernetes' AssumeCache over an informer's objects: the scheduler's own versions of objects it is
 * about to write (a volume bound to a claim, a claim with its selected node) stand in for the
 * informer's until the informer brings a newer version (the write, or anyone else's) or the object
 * goes away, so that pods scheduled meanwhile see them taken.
 */
export class AssumeCache<T extends Versioned> {
  private readonly assumed = new Map<string, T>();

  /**
   * @param description names the kind in errors (as Kubernetes' "v1.PersistentVolume").
   * @param informerGet the informer's object by key.
   */
  constructor(
    private readonly description: string,
    private readonly informerGet: (key: string) => T | undefined,
  ) {}

  /** The latest object: the assumed one while the informer has nothing newer. */
  get(key: string): T | undefined {
    const current = this.informerGet(key);
    const assumed = this.assumed.get(key);
    if (!assumed) return current;
    if (!current || version(current) > version(assumed)) {
      this.assumed.delete(key);
      return current;
    }
    return assumed;
  }

  /** The latest versions of the informer's objects. */
  latest(objects: readonly T[], keyOf: (obj: T) => string): T[] {
    if (this.assumed.size === 0) return [...objects];
    return objects.map((o) => this.get(keyOf(o)) ?? o);
  }

  /** The informer's object, never an assumed one (what the API server last said). */
  getAPIObject(key: string): T | undefined {
    return this.informerGet(key);
  }

  /** Takes `obj` as the latest version of `key`; it must not be older than what is stored. */
  assume(key: string, obj: T): void {
    const stored = this.get(key);
    if (!stored) throw new Error(`could not find ${this.description} "${key}"`);
    if (version(obj) < version(stored))
      throw new Error(
        `${this.description} "${key}" is out of sync (stored: ${version(stored)}, assume: ${version(obj)})`,
      );
    this.assumed.set(key, obj);
  }

  /** Drops the assumed version of `key`: the informer's is the latest again. */
  restore(key: string): void {
    this.assumed.delete(key);
  }

  /** Whether `key` has an assumed version (for tests). */
  isAssumed(key: string): boolean {
    return this.get(key) !== undefined && this.assumed.has(key);
  }
}
