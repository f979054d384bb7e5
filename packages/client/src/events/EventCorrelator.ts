import type { Event } from '@orch/api';
import { TokenBucket, type Clock } from '../rest/TokenBucket';
import { LruCache } from '../util/LruCache';
import { formatTime } from '../util/metaTime';
import { aggregateKey, eventKey, spamKey } from './eventKeys';

/** Entries of each correlation cache, as client-go. */
export const MAX_LRU_CACHE_ENTRIES = 4096;
/** Distinct messages of similar events after which they are combined. */
export const DEFAULT_AGGREGATE_MAX_EVENTS = 10;
/** Window of the aggregation, in seconds. */
export const DEFAULT_AGGREGATE_INTERVAL_SECONDS = 600;
/** Spam filter: burst per source and object, and refill (one token per five minutes). */
export const DEFAULT_SPAM_BURST = 25;
export const DEFAULT_SPAM_QPS = 1 / 300;

export const AGGREGATED_MESSAGE_PREFIX = '(combined from similar events): ';

export interface EventCorrelatorOptions {
  maxEvents?: number;
  maxIntervalSeconds?: number;
  spamBurst?: number;
  spamQps?: number;
  /** Wall clock (ms since the epoch), for tests. */
  clock?: Clock;
}

/** What to do with an event: skip it, create it, or patch the existing one. */
export interface CorrelationResult {
  event: Event;
  /** Merge patch of count, lastTimestamp and message when the event repeats an earlier one. */
  patch?: { count: number; lastTimestamp: string; message: string };
  skip: boolean;
}

interface AggregateRecord {
  localKeys: Set<string>;
  lastTimestamp: number;
}

interface ObservedEvent {
  count: number;
  firstTimestamp: string;
  name: string;
  resourceVersion: string;
}

/** Unique suffix of event names: the time in nanoseconds, in hex. */
export function eventNameSuffix(ms: number): string {
  const nanos = BigInt(Math.floor(ms)) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n);
  return nanos.toString(16);
}

/**
 * Kubernetes' event correlator: similar events with many distinct messages are combined into one,
 * repeats of an event increment its count (a PATCH of the existing event), and a token bucket per
 * source and object drops spam.
 */
export class EventCorrelator {
  private readonly aggregates = new LruCache<string, AggregateRecord>(MAX_LRU_CACHE_ENTRIES);
  private readonly observed = new LruCache<string, ObservedEvent>(MAX_LRU_CACHE_ENTRIES);
  private readonly spam = new LruCache<string, TokenBucket>(MAX_LRU_CACHE_ENTRIES);
  /** Cache key by name of the events handed out, so updateState files the stored event correctly. */
  private readonly keyOfStored = new LruCache<string, string>(MAX_LRU_CACHE_ENTRIES);
  private readonly maxEvents: number;
  private readonly intervalMs: number;
  private readonly spamBurst: number;
  private readonly spamQps: number;
  private readonly clock: Clock;

  constructor(opts: EventCorrelatorOptions = {}) {
    this.maxEvents = opts.maxEvents ?? DEFAULT_AGGREGATE_MAX_EVENTS;
    this.intervalMs = (opts.maxIntervalSeconds ?? DEFAULT_AGGREGATE_INTERVAL_SECONDS) * 1000;
    this.spamBurst = opts.spamBurst ?? DEFAULT_SPAM_BURST;
    this.spamQps = opts.spamQps ?? DEFAULT_SPAM_QPS;
    this.clock = opts.clock ?? Date.now;
  }

  correlate(newEvent: Event): CorrelationResult {
    const [aggregated, key] = this.aggregate(newEvent);
    const { event, patch } = this.observe(aggregated, key);
    if (!this.allow(event)) {
      return { event, skip: true };
    }
    return { event, ...(patch ? { patch } : {}), skip: false };
  }

  /** Records what the server stored so the next repeat patches it. */
  updateState(stored: Event): void {
    const key = this.keyOfStored.get(stored.metadata?.name ?? '') ?? eventKey(stored);
    this.observed.set(key, {
      count: stored.count ?? 1,
      firstTimestamp: stored.firstTimestamp ?? '',
      name: stored.metadata?.name ?? '',
      resourceVersion: stored.metadata?.resourceVersion ?? '',
    });
  }

  private aggregate(e: Event): [Event, string] {
    const now = this.clock();
    const akey = aggregateKey(e);
    let record = this.aggregates.get(akey);
    if (!record || now - record.lastTimestamp > this.intervalMs) {
      record = { localKeys: new Set(), lastTimestamp: now };
    }
    record.localKeys.add(e.message ?? '');
    record.lastTimestamp = now;
    this.aggregates.set(akey, record);
    if (record.localKeys.size < this.maxEvents) {
      return [e, eventKey(e)];
    }
    // Keep the set from growing: drop one message, and combine from now on.
    record.localKeys.delete(record.localKeys.values().next().value as string);
    const t = formatTime(now);
    const combined: Event = {
      ...e,
      metadata: {
        name: `${e.involvedObject?.name ?? ''}.${eventNameSuffix(now)}`,
        namespace: e.metadata?.namespace ?? '',
      },
      count: 1,
      firstTimestamp: t,
      lastTimestamp: t,
      message: `${AGGREGATED_MESSAGE_PREFIX}${e.message ?? ''}`,
    };
    return [combined, akey];
  }

  private observe(e: Event, key: string): { event: Event; patch?: CorrelationResult['patch'] } {
    const last = this.observed.get(key);
    let event = e;
    let patch: CorrelationResult['patch'];
    if (last && last.count > 0) {
      event = {
        ...e,
        count: last.count + 1,
        firstTimestamp: last.firstTimestamp,
        metadata: { ...e.metadata, name: last.name, resourceVersion: last.resourceVersion },
      };
      patch = { count: event.count!, lastTimestamp: event.lastTimestamp ?? '', message: event.message ?? '' };
    }
    this.observed.set(key, {
      count: event.count ?? 1,
      firstTimestamp: event.firstTimestamp ?? '',
      name: event.metadata?.name ?? '',
      resourceVersion: event.metadata?.resourceVersion ?? '',
    });
    this.keyOfStored.set(event.metadata?.name ?? '', key);
    return patch ? { event, patch } : { event };
  }

  private allow(e: Event): boolean {
    const key = spamKey(e);
    let bucket = this.spam.get(key);
    if (!bucket) {
      bucket = new TokenBucket(this.spamQps, this.spamBurst, this.clock);
      this.spam.set(key, bucket);
    }
    return bucket.tryAccept();
  }
}
