import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword, structHooks } from '../../schema/fields';
import { errorMessage, type FieldError } from '../../validation/field-error';
import { eventsKinds, EventsV1EventKind, EventsV1EventSchema, type EventsV1Event } from './index';

const protos = (s: { properties: Record<string, TSchema> }): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(s.properties).map(([k, v]) => [
      k,
      (v as unknown as Record<string, unknown>)[OrchKeyword.proto],
    ]),
  );
const run = (value: unknown): string[] =>
  (structHooks(EventsV1EventSchema)!.validate!(value, '', { root: value }) as FieldError[]).map(errorMessage);

const now = new Date('2021-01-10T00:00:00Z');

const event: EventsV1Event = {
  metadata: { name: 'web-1.164', namespace: 'default' },
  eventTime: '2021-01-09T23:50:00.000000Z',
  reportingController: 'example.com/controller',
  reportingInstance: 'controller-1',
  action: 'Scale',
  reason: 'ScaledUp',
  regarding: { kind: 'Deployment', name: 'web', namespace: 'default', apiVersion: 'apps/v1' },
  note: 'Scaled up to 3 ',
  type: 'Normal',
};

describe('events.k8s.io/v1 Event', () => {
  it('is the only kind of the group', () => {
    expect(eventsKinds).toEqual([EventsV1EventKind]);
    expect(EventsV1EventKind).toMatchObject({
      group: 'events.k8s.io',
      versions: ['v1'],
      plural: 'events',
      namespaced: true,
    });
  });

  it('has Kubernetes protobuf numbers and a required eventTime', () => {
    expect(protos(EventsV1EventSchema)).toEqual({
      apiVersion: undefined,
      kind: undefined,
      metadata: 1,
      eventTime: 2,
      series: 3,
      reportingController: 4,
      reportingInstance: 5,
      action: 6,
      reason: 7,
      regarding: 8,
      related: 9,
      note: 10,
      type: 11,
      deprecatedSource: 12,
      deprecatedFirstTimestamp: 13,
      deprecatedLastTimestamp: 14,
      deprecatedCount: 15,
    });
    expect(EventsV1EventSchema.required).toEqual(['eventTime']);
    expect(
      (EventsV1EventSchema.properties.eventTime as unknown as Record<string, unknown>)[OrchKeyword.special],
    ).toBe('microTime');
  });

  it('validates new events with Kubernetes messages', () => {
    expect(run(event)).toEqual([]);
    expect(
      run({
        ...event,
        type: 'Info',
        series: { count: 1, lastObservedTime: '2021-01-09T23:55:00.000000Z' },
        deprecatedCount: 2,
        deprecatedSource: { component: 'x' },
        note: 'n'.repeat(1025),
      }),
    ).toEqual([
      'message: Invalid value: "": can have at most 1024 characters',
      'series.count: Invalid value: "": should be at least 2',
      'type: Invalid value: "": has invalid value: Info',
      'deprecatedCount: Invalid value: "": needs to be unset',
      'deprecatedSource: Invalid value: "": needs to be unset',
    ]);
    expect(
      run({ ...event, metadata: { namespace: 'team-a' }, regarding: { kind: 'Node', name: 'n1' } }),
    ).toEqual(['involvedObject.namespace: Invalid value: "": does not match event.namespace']);
    expect(
      run({ metadata: { namespace: 'team-a' }, type: 'Normal', regarding: { namespace: 'default' } }),
    ).toEqual([
      'involvedObject.namespace: Invalid value: "default": does not match event.namespace',
      'eventTime: Required value',
    ]);
  });

  it('prints the event table', () => {
    const cells = Object.fromEntries(EventsV1EventKind.columns!.map((c) => [c.name, c.cell(event, now)]));
    expect(cells).toEqual({
      'Last Seen': '10m',
      Type: 'Normal',
      Reason: 'ScaledUp',
      Object: 'deployment/web',
      Subobject: '',
      // the reporting controller and instance, as Kubernetes shows them for the new API
      Source: 'example.com/controller, controller-1',
      Message: 'Scaled up to 3',
      'First Seen': '10m',
      Count: 1,
      Name: 'web-1.164',
    });
    const series = { ...event, series: { count: 4, lastObservedTime: '2021-01-09T23:59:30.000000Z' } };
    expect(EventsV1EventKind.columns!.map((c) => c.cell(series, now)).slice(0, 1)).toEqual(['30s']);
  });

  it('offers the events.k8s.io field selectors', () => {
    const fields = EventsV1EventKind.selectableFields!;
    expect(Object.fromEntries(Object.keys(fields).map((k) => [k, fields[k]!(event)]))).toEqual({
      'regarding.kind': 'Deployment',
      'regarding.namespace': 'default',
      'regarding.name': 'web',
      'regarding.uid': '',
      'regarding.apiVersion': 'apps/v1',
      'regarding.resourceVersion': '',
      'regarding.fieldPath': '',
      reason: 'ScaledUp',
      reportingController: 'example.com/controller',
      type: 'Normal',
    });
  });
});
