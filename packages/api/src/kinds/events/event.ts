import type { Static } from '@sinclair/typebox';
import { field, int32, microTime, required, str, struct, time, type StructSchema } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { invalid, required as requiredError, type FieldError } from '../../validation/field-error';
import {
  EventSourceSchema,
  eventColumns,
  eventSelectableValues,
  legacyValidateEvent,
  type EventView,
} from '../core/event';
import { ObjectReferenceSchema } from '../core/object-reference';

const events = (name: string): string => `io.k8s.api.events.v1.${name}`;

export const EventSeriesSchema = struct(events('EventSeries'), {
  count: required(
    int32({ proto: 1, description: 'Occurrences in the series up to the last heartbeat (at least 2).' }),
  ),
  lastObservedTime: required(microTime({ proto: 2, description: 'Time of the last occurrence observed.' })),
});

const eventFields = {
  ...typeMeta(),
  metadata: objectMeta(),
  eventTime: required(microTime({ proto: 2, description: 'When the event was first observed.' })),
  series: field(EventSeriesSchema, { proto: 3, description: 'The series this event belongs to, if any.' }),
  reportingController: str({
    proto: 4,
    description: 'Controller that emitted the event, e.g. kubernetes.io/kubelet.',
  }),
  reportingInstance: str({
    proto: 5,
    description: 'Instance of the controller, e.g. kubelet-xyzf (at most 128 characters).',
  }),
  action: str({
    proto: 6,
    description: 'Action taken or failed on the regarding object (at most 128 characters).',
  }),
  reason: str({ proto: 7, description: 'Why the action was taken (at most 128 characters).' }),
  regarding: field(ObjectReferenceSchema, { proto: 8, description: 'The object the event is about.' }),
  related: field(ObjectReferenceSchema, { proto: 9, description: 'Secondary object of the action.' }),
  note: str({ proto: 10, description: 'Human-readable description (at most 1kB).' }),
  type: str({ proto: 11, description: 'Type of the event: Normal or Warning.' }),
  deprecatedSource: field(EventSourceSchema, { proto: 12, description: 'Deprecated core/v1 source field.' }),
  deprecatedFirstTimestamp: time({ proto: 13, description: 'Deprecated core/v1 firstTimestamp field.' }),
  deprecatedLastTimestamp: time({ proto: 14, description: 'Deprecated core/v1 lastTimestamp field.' }),
  deprecatedCount: int32({ proto: 15, description: 'Deprecated core/v1 count field.' }),
};
type EventValue = Static<StructSchema<typeof eventFields>>;

/** The shared view of an events.k8s.io Event (the fields Kubernetes maps onto its internal event). */
export function eventsV1View(ev: EventValue): EventView {
  return {
    namespace: ev.metadata?.namespace,
    name: ev.metadata?.name,
    involvedObject: ev.regarding,
    reason: ev.reason,
    message: ev.note,
    type: ev.type,
    action: ev.action,
    reportingController: ev.reportingController,
    reportingInstance: ev.reportingInstance,
    source: ev.deprecatedSource,
    firstTimestamp: ev.deprecatedFirstTimestamp,
    lastTimestamp: ev.deprecatedLastTimestamp,
    eventTime: ev.eventTime,
    count: ev.deprecatedCount,
    series: ev.series,
  };
}

/** Kubernetes' ValidateEventCreate for events.k8s.io/v1: the legacy rules plus the strict ones of the new API. */
export function validateEventsV1(ev: EventValue): FieldError[] {
  const errors = legacyValidateEvent(eventsV1View(ev));
  if (ev.series) {
    if ((ev.series.count ?? 0) < 2) errors.push(invalid('series.count', '', 'should be at least 2'));
    if (!ev.series.lastObservedTime) errors.push(requiredError('series.lastObservedTime', ''));
  }
  if (!ev.eventTime) errors.push(requiredError('eventTime', ''));
  if (ev.type !== 'Normal' && ev.type !== 'Warning') {
    errors.push(invalid('type', '', `has invalid value: ${ev.type ?? ''}`));
  }
  if (ev.deprecatedFirstTimestamp) errors.push(invalid('deprecatedFirstTimestamp', '', 'needs to be unset'));
  if (ev.deprecatedLastTimestamp) errors.push(invalid('deprecatedLastTimestamp', '', 'needs to be unset'));
  if (ev.deprecatedCount) errors.push(invalid('deprecatedCount', '', 'needs to be unset'));
  if (ev.deprecatedSource?.component || ev.deprecatedSource?.host) {
    errors.push(invalid('deprecatedSource', '', 'needs to be unset'));
  }
  return errors;
}

export const EventSchema = struct(events('Event'), eventFields, {
  description: 'A report of something that happened in the cluster, about one object.',
  validate: (ev): FieldError[] => validateEventsV1(ev),
});
export type Event = Static<typeof EventSchema>;

/** events.k8s.io field selectors and the core/v1 field each one reads (Kubernetes' field label conversion). */
const selectableFieldNames: Record<string, string> = {
  'regarding.kind': 'involvedObject.kind',
  'regarding.namespace': 'involvedObject.namespace',
  'regarding.name': 'involvedObject.name',
  'regarding.uid': 'involvedObject.uid',
  'regarding.apiVersion': 'involvedObject.apiVersion',
  'regarding.resourceVersion': 'involvedObject.resourceVersion',
  'regarding.fieldPath': 'involvedObject.fieldPath',
  reason: 'reason',
  reportingController: 'reportingComponent',
  type: 'type',
};

export const EventKind = defineKind({
  group: 'events.k8s.io',
  versions: ['v1'],
  kind: 'Event',
  plural: 'events',
  singular: 'event',
  shortNames: ['ev'],
  namespaced: true,
  schema: EventSchema,
  timeToLive: 'event-ttl',
  selectableFields: Object.fromEntries(
    Object.entries(selectableFieldNames).map(([name, coreName]) => [
      name,
      (ev: Event) => eventSelectableValues(eventsV1View(ev))[coreName],
    ]),
  ),
  columns: eventColumns(eventsV1View),
});
