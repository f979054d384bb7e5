import { sleep } from '../util/sleep';

export type InformerSynced = () => boolean;

export interface WaitForCacheSyncOptions {
  /** Give up (resolve false) after this long; no limit by default. */
  timeoutMs?: number;
  signal?: AbortSignal;
  pollMs?: number;
}

/** Polls until every function reports synced; false when stopped or timed out first. */
export async function waitForCacheSync(
  synced: InformerSynced[],
  opts: WaitForCacheSyncOptions = {},
): Promise<boolean> {
  const deadline = opts.timeoutMs === undefined ? Infinity : Date.now() + opts.timeoutMs;
  const poll = opts.pollMs ?? 100;
  for (;;) {
    if (synced.every((fn) => fn())) {
      return true;
    }
    if (opts.signal?.aborted || Date.now() >= deadline) {
      return false;
    }
    try {
      await sleep(Math.min(poll, Math.max(0, deadline - Date.now())), opts.signal);
    } catch {
      return false;
    }
  }
}
