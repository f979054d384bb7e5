import { eventsV1, type ObjectReference } from '@orch/api';
import { hostname } from 'node:os';
import type { RestClient } from '../rest/RestClient';
import { isNotFound, StatusError } from '../rest/StatusError';
import { clientFor } from '../typed/clientFor';
import type { TypedClient } from '../typed/TypedClient';
import type { KubeObject } from '../types';
import { formatMicroTime } from '../util/metaTime';
import type { EventType } from './EventBroadcaster';
import { eventNameSuffix } from './EventCorrelator';
import { EventQueue } from './EventQueue';
import { objectReference } from './objectReference';

type EventsV1Event = eventsV1.EventsV1Event;

/** Records events.k8s.io/v1 Events; never blocks, never throws. */
export interface EventsV1Recorder {
  eventf(
    regarding: KubeObject | ObjectReference,
    related: KubeObject | ObjectReference | undefined,
    type: EventType,
    reason: string,
    action: string,
    note: string,
  ): void;
}

export interface EventsV1BroadcasterOptions {
  queueLength?: number;
  /** How often repeated events' series are written, ms (client-go: 30 minutes). */
  seriesSyncMs?: number;
  /** A series with no occurrence for this long is finished and forgotten, ms (client-go: 6 minutes). */
  seriesFinishMs?: number;
  clock?: () => number;
  onError?: (message: string, err?: unknown) => void;
}

interface Job {
  event: EventsV1Event;
  /** Patch of the series of an existing event instead of a create. */
  series?: boolean;
}

/**
 * The events.k8s.io/v1 broadcaster: an event repeating an isomorphic one (same regarding, related,
 * type, reason, action, reporting controller and instance) becomes a series on the first event —
 * written at once on the first repeat, then every seriesSyncMs.
 */
export class EventsV1Broadcaster {
  private readonly events: TypedClient<EventsV1Event & KubeObject>;
  private readonly cache = new Map<string, EventsV1Event>();
  private readonly dirty = new Set<string>();
  private readonly queue: EventQueue<Job>;
  private readonly clock: () => number;
  private readonly timer: NodeJS.Timeout;
  dropped = 0;

  constructor(
    rest: RestClient,
    private readonly opts: EventsV1BroadcasterOptions = {},
  ) {
    this.events = clientFor(rest, eventsV1.EventsV1EventKind);
    this.clock = opts.clock ?? Date.now;
    this.queue = new EventQueue<Job>(opts.queueLength ?? 1000, (job) => this.write(job));
    this.timer = setInterval(() => this.syncSeries(), opts.seriesSyncMs ?? 30 * 60_000);
    this.timer.unref();
  }

  newRecorder(
    reportingController: string,
    reportingInstance: string = `${reportingController}-${hostname()}`,
  ): EventsV1Recorder {
    return {
      eventf: (regarding, related, type, reason, action, note) => {
        if (type !== 'Normal' && type !== 'Warning') {
          this.opts.onError?.(`Unsupported event type: '${String(type)}'`);
          return;
        }
        const reg = objectReference(regarding);
        const rel = related ? objectReference(related) : undefined;
        const now = this.clock();
        const event: EventsV1Event = {
          apiVersion: 'events.k8s.io/v1',
          kind: 'Event',
          metadata: {
            name: `${reg.name ?? ''}.${eventNameSuffix(now)}`,
            namespace: reg.namespace || 'default',
          },
          eventTime: formatMicroTime(new Date(now)),
          regarding: reg,
          ...(rel ? { related: rel } : {}),
          reason,
          action,
          note,
          type,
          reportingController,
          reportingInstance,
        };
        this.record(event);
      },
    };
  }

  private record(event: EventsV1Event): void {
    const key = JSON.stringify([
      event.type,
      event.action,
      event.reason,
      event.reportingController,
      event.reportingInstance,
      event.regarding,
      event.related ?? null,
    ]);
    const seen = this.cache.get(key);
    const observed = formatMicroTime(new Date(this.clock()));
    if (seen) {
      if (seen.series) {
        seen.series = { count: seen.series.count + 1, lastObservedTime: observed };
        this.dirty.add(key);
        return;
      }
      seen.series = { count: 2, lastObservedTime: observed };
      this.enqueue({ event: structuredClone(seen), series: true });
      return;
    }
    this.cache.set(key, event);
    this.enqueue({ event: structuredClone(event) });
  }

  private enqueue(job: Job): void {
    if (!this.queue.push(job) && !this.queue.stopped.aborted) {
      this.dropped++;
      this.opts.onError?.(`event queue full, dropping event ${job.event.reason}`);
    }
  }

  /** Writes the series of repeated events and forgets finished ones. */
  syncSeries(): void {
    const now = this.clock();
    for (const [key, event] of this.cache) {
      if (this.dirty.delete(key)) {
        this.enqueue({ event: structuredClone(event), series: true });
      }
      const last = Date.parse(event.series?.lastObservedTime ?? event.eventTime);
      if (now - last > (this.opts.seriesFinishMs ?? 6 * 60_000)) {
        this.cache.delete(key);
      }
    }
  }

  private async write(job: Job): Promise<void> {
    const ns = job.event.metadata?.namespace ?? 'default';
    try {
      if (job.series) {
        try {
          await this.events.patch(
            job.event.metadata?.name ?? '',
            'merge',
            { series: job.event.series },
            { namespace: ns },
          );
          return;
        } catch (err) {
          if (!isNotFound(err)) {
            throw err;
          }
        }
      }
      await this.events.create(job.event, { namespace: ns });
    } catch (err) {
      this.opts.onError?.(
        err instanceof StatusError
          ? `server rejected event ${job.event.metadata?.name}`
          : 'unable to write event',
        err,
      );
    }
  }

  flush(): Promise<void> {
    return this.queue.flush();
  }

  shutdown(): Promise<void> {
    clearInterval(this.timer);
    return this.queue.shutdown();
  }
}
