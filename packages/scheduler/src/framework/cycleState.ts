/** Data plugins share within one scheduling cycle of one pod, keyed by plugin-chosen names. */
export class CycleState {
  private readonly data = new Map<string, unknown>();
  /** Whether this cycle's score plugins should record metrics (unused by the in-tree plugins). */
  recordPluginMetrics = false;
  /** Filter plugins whose PreFilter answered Skip: they have nothing to check for this pod. */
  skipFilterPlugins: Set<string> | undefined;
  /** Score plugins whose PreScore answered Skip: they would score every node 0. */
  skipScorePlugins: Set<string> | undefined;
  /**
   * The filter plugins to run on each node, without those whose PreFilter answered Skip: worked out
   * once when PreFilter ends instead of looking each up on every node. Held by the framework.
   */
  filters: readonly unknown[] | undefined;

  read<T>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }

  write(key: string, value: unknown): void {
    this.data.set(key, value);
  }

  delete(key: string): void {
    this.data.delete(key);
  }

  /** A shallow copy (Kubernetes clones the state for preemption dry runs). */
  clone(): CycleState {
    const copy = new CycleState();
    for (const [k, v] of this.data) copy.data.set(k, v);
    copy.recordPluginMetrics = this.recordPluginMetrics;
    if (this.skipFilterPlugins) copy.skipFilterPlugins = new Set(this.skipFilterPlugins);
    if (this.skipScorePlugins) copy.skipScorePlugins = new Set(this.skipScorePlugins);
    copy.filters = this.filters;
    return copy;
  }
}
