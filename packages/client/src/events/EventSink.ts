import { EventKind, type Event } from '@orch/api';
import type { RestClient } from '../rest/RestClient';
import { clientFor } from '../typed/clientFor';

/** Where a broadcaster writes core/v1 Events. */
export interface EventSink {
  create(event: Event): Promise<Event>;
  /** Merge-patches an existing event (count, lastTimestamp, message). */
  patch(event: Event, patch: object): Promise<Event>;
}

/** The API server as the sink: POST and PATCH of events in the event's namespace. */
export function eventSinkFor(rest: RestClient): EventSink {
  const events = clientFor(rest, EventKind);
  return {
    create: (event) => events.create(event, { namespace: event.metadata?.namespace ?? '' }),
    patch: (event, patch) =>
      events.patch(event.metadata?.name ?? '', 'merge', patch, {
        namespace: event.metadata?.namespace ?? '',
      }),
  };
}
