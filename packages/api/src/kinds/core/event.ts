import type { Static } from '@sinclair/typebox';
import { field, int32, microTime, str, struct, time, type StructSchema } from '../../schema/fields';
import { defineKind, type ColumnDeclaration } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { isDNS1123Subdomain, isQualifiedName } from '../../util/names';
import { invalid, required, type FieldError } from '../../validation/field-error';
import { humanDuration } from '../columns';
import { ObjectReferenceSchema, type ObjectReference } from './object-reference';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;

/** The system namespace (Kubernetes' kube-system), where events about cluster-scoped objects may also live. */
const SYSTEM_NAMESPACE = 'orch-system';

/** Length limits of Kubernetes' event validation. */
export const EVENT_LIMITS = { reportingInstance: 128, action: 128, reason: 128, note: 1024 } as const;

export const EventSourceSchema = struct(core('EventSource'), {
  component: str({ proto: 1, omitZero: true, description: 'Component that generated the event.' }),
  host: str({ proto: 2, omitZero: true, description: 'Node on which the event was generated.' }),
});
export type EventSource = Static<typeof EventSourceSchema>;

export const EventSeriesSchema = struct(core('EventSeries'), {
  count: int32({
    proto: 1,
    omitZero: true,
    description: 'Occurrences in the series up to the last heartbeat.',
  }),
  lastObservedTime: microTime({ proto: 2, description: 'Time of the last occurrence observed.' }),
});

/**
 * An event in the terms shared by core/v1 and events.k8s.io/v1 (Kubernetes keeps one internal type
 * for both): what validation, tables and field selectors read.
 */
export interface EventView {
  namespace?: string;
  name?: string;
  involvedObject?: ObjectReference;
  reason?: string;
  message?: string;
  type?: string;
  action?: string;
  reportingController?: string;
  reportingInstance?: string;
  source?: EventSource;
  firstTimestamp?: string;
  lastTimestamp?: string;
  eventTime?: string;
  count?: number;
  series?: { count?: number; lastObservedTime?: string };
}

/** Kubernetes' legacyValidateEvent, which every event (either API) must pass. */
export function legacyValidateEvent(e: EventView): FieldError[] {
  const errors: FieldError[] = [];
  const ns = e.namespace ?? '';
  const objectNs = e.involvedObject?.namespace ?? '';
  const mismatch = (): FieldError =>
    invalid('involvedObject.namespace', objectNs, 'does not match event.namespace');
  if (!e.eventTime) {
    if (objectNs === '' ? ns !== '' && ns !== 'default' : ns !== objectNs) errors.push(mismatch());
  } else {
    if (objectNs === '' && ns !== 'default' && ns !== SYSTEM_NAMESPACE) errors.push(mismatch());
    const controller = e.reportingController ?? '';
    if (!controller) errors.push(required('reportingController', ''));
    for (const msg of isQualifiedName(controller))
      errors.push(invalid('reportingController', controller, msg));
    const lengthRules: [keyof typeof EVENT_LIMITS, string, string | undefined, boolean][] = [
      ['reportingInstance', 'reportingInstance', e.reportingInstance, true],
      ['action', 'action', e.action, true],
      ['reason', 'reason', e.reason, true],
      ['note', 'message', e.message, false],
    ];
    for (const [limit, path, value, mandatory] of lengthRules) {
      if (mandatory && !value) errors.push(required(path, ''));
      if ((value ?? '').length > EVENT_LIMITS[limit]) {
        errors.push(invalid(path, '', `can have at most ${EVENT_LIMITS[limit]} characters`));
      }
    }
  }
  for (const msg of isDNS1123Subdomain(ns)) errors.push(invalid('namespace', ns, msg));
  return errors;
}

const eventFields = {
  ...typeMeta(),
  metadata: objectMeta(),
  involvedObject: field(ObjectReferenceSchema, { proto: 2, description: 'The object the event is about.' }),
  reason: str({ proto: 3, omitZero: true, description: 'Short machine-readable reason for the transition.' }),
  message: str({ proto: 4, omitZero: true, description: 'Human-readable description of the status.' }),
  source: field(EventSourceSchema, { proto: 5, description: 'Component reporting the event.' }),
  firstTimestamp: time({ proto: 6, description: 'When the event was first recorded.' }),
  lastTimestamp: time({ proto: 7, description: 'When the most recent occurrence was recorded.' }),
  count: int32({ proto: 8, omitZero: true, description: 'Number of times the event occurred.' }),
  type: str({ proto: 9, omitZero: true, description: 'Type of the event: Normal or Warning.' }),
  eventTime: microTime({ proto: 10, description: 'When the event was first observed.' }),
  series: field(EventSeriesSchema, { proto: 11, description: 'The series this event belongs to, if any.' }),
  action: str({ proto: 12, omitZero: true, description: 'Action taken or failed on the involved object.' }),
  related: field(ObjectReferenceSchema, { proto: 13, description: 'Secondary object of the action.' }),
  reportingComponent: str({
    omitZero: true,
    proto: 14,
    description: 'Controller that emitted the event, e.g. kubernetes.io/kubelet.',
  }),
  reportingInstance: str({
    proto: 15,
    omitZero: true,
    description: 'Instance of the controller, e.g. kubelet-xyzf.',
  }),
};

export const EventSchema = struct(core('Event'), eventFields, {
  description: 'A report of something that happened in the cluster, about one object.',
  validate: (ev): FieldError[] => legacyValidateEvent(coreEventView(ev)),
});
export type Event = Static<typeof EventSchema>;

/** The shared view of a core/v1 Event. */
export function coreEventView(ev: Static<StructSchema<typeof eventFields>>): EventView {
  return {
    namespace: ev.metadata?.namespace,
    name: ev.metadata?.name,
    involvedObject: ev.involvedObject,
    reason: ev.reason,
    message: ev.message,
    type: ev.type,
    action: ev.action,
    reportingController: ev.reportingComponent,
    reportingInstance: ev.reportingInstance,
    source: ev.source,
    firstTimestamp: ev.firstTimestamp,
    lastTimestamp: ev.lastTimestamp,
    eventTime: ev.eventTime,
    count: ev.count,
    series: ev.series,
  };
}

/** The field selectors Kubernetes offers on events (ToSelectableFields), keyed by their core/v1 names. */
export function eventSelectableValues(e: EventView): Record<string, string> {
  const o = e.involvedObject ?? {};
  return {
    'involvedObject.kind': o.kind ?? '',
    'involvedObject.namespace': o.namespace ?? '',
    'involvedObject.name': o.name ?? '',
    'involvedObject.uid': o.uid ?? '',
    'involvedObject.apiVersion': o.apiVersion ?? '',
    'involvedObject.resourceVersion': o.resourceVersion ?? '',
    'involvedObject.fieldPath': o.fieldPath ?? '',
    reason: e.reason ?? '',
    reportingComponent: e.reportingController ?? '',
    source: e.source?.component || e.reportingController || '',
    type: e.type ?? '',
  };
}

/** One event printed the way Kubernetes' printEvent does (server tables are wide). */
function eventCells(e: EventView, now: Date): Record<string, unknown> {
  const firstSeen = e.firstTimestamp ? humanDuration(e.firstTimestamp, now) : humanDuration(e.eventTime, now);
  let lastSeen = e.lastTimestamp ? humanDuration(e.lastTimestamp, now) : firstSeen;
  let count = e.count ?? 0;
  if (e.series) {
    lastSeen = humanDuration(e.series.lastObservedTime, now);
    count = e.series.count ?? 0;
  } else if (count === 0) {
    count = 1; // singleton events of the new API carry no count
  }
  const kind = (e.involvedObject?.kind ?? '').toLowerCase();
  const object = e.involvedObject?.name ? `${kind}/${e.involvedObject.name}` : kind;
  // The source's component and host, or the reporting controller and instance of the new API.
  const component = e.source?.component || e.reportingController || '';
  const host = e.source?.host || e.reportingInstance || '';
  const source = host ? `${component}, ${host}` : component;
  return {
    'Last Seen': lastSeen,
    Type: e.type ?? '',
    Reason: e.reason ?? '',
    Object: object,
    Subobject: e.involvedObject?.fieldPath ?? '',
    Source: source,
    Message: (e.message ?? '').trim(),
    'First Seen': firstSeen,
    Count: count,
    Name: e.name ?? '',
  };
}

const eventColumnDefs: readonly Omit<ColumnDeclaration, 'cell'>[] = [
  { name: 'Last Seen', type: 'string', description: 'Time since the most recent occurrence.' },
  { name: 'Type', type: 'string', description: 'Type of the event: Normal or Warning.' },
  { name: 'Reason', type: 'string', description: 'Short machine-readable reason.' },
  { name: 'Object', type: 'string', description: 'The object the event is about (kind/name).' },
  { name: 'Subobject', type: 'string', priority: 1, description: 'Part of the object the event is about.' },
  {
    name: 'Source',
    type: 'string',
    priority: 1,
    description: 'Component (and node) that reported the event.',
  },
  { name: 'Message', type: 'string', description: 'Human-readable description.' },
  { name: 'First Seen', type: 'string', priority: 1, description: 'Time since the first occurrence.' },
  { name: 'Count', type: 'string', priority: 1, description: 'Number of occurrences.' },
  {
    name: 'Name',
    type: 'string',
    priority: 1,
    format: 'name',
    description: 'Name must be unique within a namespace.',
  },
];

/** The event table of Kubernetes' printers, for any event representation mapped to the shared view. */
export function eventColumns<T>(view: (obj: T) => EventView): ColumnDeclaration<T>[] {
  return eventColumnDefs.map((def) => ({
    ...def,
    cell: (obj: T, now: Date) => eventCells(view(obj), now)[def.name],
  }));
}

export const EventKind = defineKind({
  group: '',
  versions: ['v1'],
  kind: 'Event',
  plural: 'events',
  singular: 'event',
  shortNames: ['ev'],
  namespaced: true,
  schema: EventSchema,
  timeToLive: 'event-ttl',
  selectableFields: Object.fromEntries(
    Object.keys(eventSelectableValues({})).map((name) => [
      name,
      (ev: Event) => eventSelectableValues(coreEventView(ev))[name],
    ]),
  ),
  columns: eventColumns(coreEventView),
});
