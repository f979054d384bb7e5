import type { KindDeclaration } from '../../schema/kind';
import { EventKind } from './event';

// core/v1 declares an Event too: the events.k8s.io declarations are exported under distinct names.
export {
  EventSchema as EventsV1EventSchema,
  EventKind as EventsV1EventKind,
  EventSeriesSchema as EventsV1EventSeriesSchema,
  eventsV1View,
  validateEventsV1,
} from './event';
export type { Event as EventsV1Event } from './event';

/** The kinds of the events.k8s.io group. */
export const eventsKinds: readonly KindDeclaration<any>[] = [EventKind];
