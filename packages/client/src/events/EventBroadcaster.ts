import type { Event, ObjectReference } from '@orch/api';
import { hostname } from 'node:os';
import { isAlreadyExists, isNotFound, StatusError } from '../rest/StatusError';
import type { KubeObject } from '../types';
import { sleep } from '../util/sleep';
import { formatTime } from '../util/metaTime';
import { EventCorrelator, eventNameSuffix, type EventCorrelatorOptions } from './EventCorrelator';
import { EventQueue } from './EventQueue';
import type { EventSink } from './EventSink';
import { objectReference } from './objectReference';

export type EventType = 'Normal' | 'Warning';

/** Records events about objects; never blocks, never throws. */
export interface EventRecorder {
  event(object: KubeObject | ObjectReference, type: EventType, reason: string, message: string): void;
  annotatedEvent(
    object: KubeObject | ObjectReference,
    annotations: Record<string, string>,
    type: EventType,
    reason: string,
    message: string,
  ): void;
}

export interface EventSource {
  component: string;
  host?: string;
}

export interface EventBroadcasterOptions {
  /** Events waiting to be written; further ones are dropped. */
  queueLength?: number;
  /** Attempts per event when the server cannot be reached. */
  maxTries?: number;
  /** Wait between attempts (the first one is randomized), in ms. */
  retrySleepMs?: number;
  correlator?: EventCorrelatorOptions;
  /** Wall clock, ms since the epoch. */
  clock?: () => number;
  /** Told about events that were dropped or could not be written. */
  onError?: (message: string, err?: unknown) => void;
}

export const DEFAULT_EVENT_QUEUE_LENGTH = 1000;
export const DEFAULT_MAX_TRIES_PER_EVENT = 12;
export const DEFAULT_EVENT_RETRY_SLEEP_MS = 10_000;

/**
 * Writes the core/v1 Events of its recorders to a sink, one at a time, through Kubernetes' event
 * correlator (aggregation, count deduplication, spam filter). Recording only enqueues: a full queue
 * drops the event.
 */
export class EventBroadcaster {
  private readonly queue: EventQueue<Event>;
  private readonly correlator: EventCorrelator;
  private readonly maxTries: number;
  private readonly retrySleepMs: number;
  private readonly clock: () => number;
  /** Events dropped because the queue was full. */
  dropped = 0;

  constructor(
    private readonly sink: EventSink,
    private readonly opts: EventBroadcasterOptions = {},
  ) {
    this.queue = new EventQueue(opts.queueLength ?? DEFAULT_EVENT_QUEUE_LENGTH, (event, stopped) =>
      this.recordToSink(event, stopped),
    );
    this.maxTries = opts.maxTries ?? DEFAULT_MAX_TRIES_PER_EVENT;
    this.retrySleepMs = opts.retrySleepMs ?? DEFAULT_EVENT_RETRY_SLEEP_MS;
    this.clock = opts.clock ?? Date.now;
    this.correlator = new EventCorrelator({ clock: this.clock, ...opts.correlator });
  }

  /** A recorder stamping events with `source` (host defaults to this machine's name). */
  newRecorder(source: EventSource): EventRecorder {
    const src = { component: source.component, host: source.host ?? hostname() };
    const record = (
      object: KubeObject | ObjectReference,
      annotations: Record<string, string> | undefined,
      type: EventType,
      reason: string,
      message: string,
    ): void => {
      if (type !== 'Normal' && type !== 'Warning') {
        this.opts.onError?.(`Unsupported event type: '${String(type)}'`);
        return;
      }
      this.enqueue(this.makeEvent(objectReference(object), annotations, type, reason, message, src));
    };
    return {
      event: (object, type, reason, message) => record(object, undefined, type, reason, message),
      annotatedEvent: (object, annotations, type, reason, message) =>
        record(object, annotations, type, reason, message),
    };
  }

  private makeEvent(
    ref: ObjectReference,
    annotations: Record<string, string> | undefined,
    type: EventType,
    reason: string,
    message: string,
    source: { component: string; host: string },
  ): Event {
    const now = this.clock();
    const t = formatTime(now);
    return {
      metadata: {
        name: `${ref.name ?? ''}.${eventNameSuffix(now)}`,
        namespace: ref.namespace || 'default',
        ...(annotations ? { annotations } : {}),
      },
      involvedObject: ref,
      reason,
      message,
      firstTimestamp: t,
      lastTimestamp: t,
      count: 1,
      type,
      source,
      reportingComponent: source.component,
      reportingInstance: source.host,
    };
  }

  private enqueue(event: Event): void {
    if (!this.queue.push(event) && !this.queue.stopped.aborted) {
      this.dropped++;
      this.opts.onError?.(
        `event queue full, dropping event ${event.reason} on ${event.involvedObject?.name}`,
      );
    }
  }

  private async recordToSink(event: Event, stopped: AbortSignal): Promise<void> {
    const result = this.correlator.correlate(event);
    if (result.skip) {
      return;
    }
    for (let tries = 1; ; tries++) {
      if (await this.write(result.event, result.patch)) {
        return;
      }
      if (tries >= this.maxTries) {
        this.opts.onError?.(`unable to write event ${result.event.metadata?.name} (retry limit exceeded!)`);
        return;
      }
      const wait = tries === 1 ? Math.random() * this.retrySleepMs : this.retrySleepMs;
      try {
        await sleep(wait, stopped);
      } catch {
        return;
      }
    }
  }

  /** One attempt; true when done (written, or refused for good), false to retry. */
  private async write(event: Event, patch: object | undefined): Promise<boolean> {
    let stored: Event | undefined;
    let err: unknown;
    if (patch) {
      try {
        stored = await this.sink.patch(event, patch);
      } catch (e) {
        err = e;
      }
    }
    if (!patch || (err !== undefined && isNotFound(err))) {
      err = undefined;
      try {
        const fresh: Event = { ...event, metadata: { ...event.metadata, resourceVersion: undefined } };
        delete fresh.metadata!.resourceVersion;
        stored = await this.sink.create(fresh);
      } catch (e) {
        err = e;
      }
    }
    if (stored) {
      this.correlator.updateState(stored);
      return true;
    }
    if (err instanceof StatusError) {
      if (!isAlreadyExists(err)) {
        this.opts.onError?.(`server rejected event ${event.metadata?.name} (will not retry!)`, err);
      }
      return true;
    }
    return false;
  }

  /** Resolves once every queued event has been handled. */
  flush(): Promise<void> {
    return this.queue.flush();
  }

  /** Stops writing; queued events are discarded. */
  shutdown(): Promise<void> {
    return this.queue.shutdown();
  }
}
