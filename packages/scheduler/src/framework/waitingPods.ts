import type { Pod } from '@orch/api';
import type { WaitingPod } from './interfaces';
import { Code, Status } from './status';

/** A pod held by Permit plugins until each allows it, one rejects it, or a plugin's timeout passes. */
export class WaitingPodImpl implements WaitingPod {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private settle!: (s: Status) => void;
  readonly result: Promise<Status>;
  private done = false;

  constructor(
    readonly pod: Pod,
    pluginTimeouts: ReadonlyMap<string, number>,
  ) {
    this.result = new Promise((resolve) => (this.settle = resolve));
    for (const [plugin, timeoutMs] of pluginTimeouts) {
      const timer = setTimeout(
        () => this.reject(`rejected due to timeout after waiting ${timeoutMs / 1000}s at plugin ${plugin}`),
        timeoutMs,
      );
      timer.unref();
      this.timers.set(plugin, timer);
    }
  }

  pendingPlugins(): string[] {
    return [...this.timers.keys()];
  }

  allow(pluginName: string): void {
    const timer = this.timers.get(pluginName);
    if (timer === undefined || this.done) return;
    clearTimeout(timer);
    this.timers.delete(pluginName);
    if (this.timers.size === 0) this.finish(Status.success());
  }

  reject(message: string): void {
    this.finish(new Status(Code.Unschedulable, [message]));
  }

  private finish(status: Status): void {
    if (this.done) return;
    this.done = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.settle(status);
  }
}

/** The waiting pods of a framework, by pod uid. */
export class WaitingPodsMap {
  private readonly pods = new Map<string, WaitingPodImpl>();

  add(uid: string, wp: WaitingPodImpl): void {
    this.pods.set(uid, wp);
  }

  remove(uid: string): void {
    this.pods.delete(uid);
  }

  get(uid: string): WaitingPodImpl | undefined {
    return this.pods.get(uid);
  }

  forEach(fn: (wp: WaitingPod) => void): void {
    for (const wp of this.pods.values()) fn(wp);
  }
}
