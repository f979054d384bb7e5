interface Recommendation {
  replicas: number;
  at: number;
}

/**
 * The recent recommendations of each autoscaler, by key (Kubernetes' downscale stabilization): a
 * scale-down goes no lower than the highest recommendation of the window.
 */
export class Recommendations {
  private readonly byKey = new Map<string, Recommendation[]>();

  constructor(private readonly windowMs: number) {}

  /** The first recommendation of an autoscaler is the count it found. */
  recordInitial(key: string, replicas: number, now: number): void {
    if (!this.byKey.has(key)) this.byKey.set(key, [{ replicas, at: now }]);
  }

  /**
   * Records `replicas` and returns the highest recommendation of the window, counting it; the new
   * one takes the place of one that left the window.
   */
  stabilize(key: string, replicas: number, now: number): number {
    const list = this.byKey.get(key) ?? [];
    const cutoff = now - this.windowMs;
    let max = replicas;
    let old = -1;
    list.forEach((rec, i) => {
      if (rec.at < cutoff) old = i;
      else if (rec.replicas > max) max = rec.replicas;
    });
    if (old >= 0) list[old] = { replicas, at: now };
    else list.push({ replicas, at: now });
    this.byKey.set(key, list);
    return max;
  }

  forget(key: string): void {
    this.byKey.delete(key);
  }
}
