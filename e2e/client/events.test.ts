import { EventKind, eventsV1, NamespaceKind, type ConfigMapKind, type ObjectOf } from '@orch/api';
import { startTestAPIServer, type TestAPIServer } from '@orch/apiserver';
import {
  buildConfigFromFlags,
  Clientset,
  EventBroadcaster,
  eventSinkFor,
  EventsV1Broadcaster,
} from '@orch/client';

type ConfigMap = ObjectOf<typeof ConfigMapKind>;

let api: TestAPIServer;
let cs: Clientset;

beforeAll(async () => {
  api = await startTestAPIServer({ admissionPlugins: [] });
  cs = Clientset.forConfig({ ...buildConfigFromFlags({ kubeconfig: api.kubeconfig }).config, qps: -1 });
  await cs.for(NamespaceKind).create({ metadata: { name: 'ev' } });
});

afterAll(async () => {
  cs?.rest.close();
  await api?.close();
});

const cm: ConfigMap = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'subject', namespace: 'ev', uid: '6a0e2f0a-1b1c-4c55-9d2b-0a8f4d3b8c11' },
};

describe('EventRecorder against orch-apiserver', () => {
  it('creates core/v1 events, patches the count of repeats, and combines similar ones', async () => {
    const b = new EventBroadcaster(eventSinkFor(cs.rest));
    const rec = b.newRecorder({ component: 'e2e-controller', host: 'host-1' });
    const patches: string[] = [];
    const send = cs.rest.send.bind(cs.rest);
    cs.rest.send = (method, path, headers, body, signal) => {
      if (method === 'PATCH') patches.push(`${headers['Content-Type']} ${body?.toString()}`);
      return send(method, path, headers, body, signal);
    };
    try {
      rec.event(cm, 'Normal', 'Synced', 'synced ok');
      rec.event(cm, 'Normal', 'Synced', 'synced ok');
      rec.event(cm, 'Normal', 'Synced', 'synced ok');
      await b.flush();
      const events = (await cs.for(EventKind).list({ namespace: 'ev' })).items;
      expect(events).toHaveLength(1);
      const e = events[0]!;
      expect(e.metadata?.name).toMatch(/^subject\.[0-9a-f]+$/);
      expect(e).toMatchObject({
        reason: 'Synced',
        message: 'synced ok',
        type: 'Normal',
        count: 3,
        source: { component: 'e2e-controller', host: 'host-1' },
        involvedObject: { kind: 'ConfigMap', name: 'subject', namespace: 'ev', uid: cm.metadata!.uid },
      });
      expect(patches).toHaveLength(2);
      expect(patches[0]).toMatch(
        /^application\/merge-patch\+json \{"count":2,"lastTimestamp":"[^"]+","message":"synced ok"\}$/,
      );

      for (let i = 0; i < 12; i++) rec.event(cm, 'Warning', 'Failed', `attempt ${i} failed`);
      await b.flush();
      const warnings = (await cs.for(EventKind).list({ namespace: 'ev', fieldSelector: 'reason=Failed' }))
        .items;
      const combined = warnings.filter((w) => w.message?.startsWith('(combined from similar events): '));
      expect(warnings.length - combined.length).toBe(9);
      expect(combined).toHaveLength(1);
      expect(combined[0]).toMatchObject({
        count: 3,
        message: '(combined from similar events): attempt 11 failed',
      });

      // Unsupported types are dropped without throwing.
      expect(() => rec.event(cm, 'Bogus' as 'Normal', 'X', 'y')).not.toThrow();
    } finally {
      cs.rest.send = send;
      await b.shutdown();
    }
  });

  it('never blocks the caller and drops events when its queue is full', async () => {
    const b = new EventBroadcaster(eventSinkFor(cs.rest), { queueLength: 5 });
    const rec = b.newRecorder({ component: 'flood' });
    for (let i = 0; i < 50; i++) {
      // event() returns nothing to wait for: the caller goes on at once
      expect(
        rec.event({ ...cm, metadata: { ...cm.metadata, name: `o${i}` } }, 'Normal', 'Flood', `m${i}`),
      ).toBeUndefined();
    }
    // Decided before anything was written: the first is being written, five wait; the rest are dropped.
    expect(b.dropped).toBe(44);
    await b.flush();
    const flood = (await cs.for(EventKind).list({ namespace: 'ev', fieldSelector: 'reason=Flood' })).items;
    expect(flood).toHaveLength(6);
    await b.shutdown();
  });

  it('writes events.k8s.io/v1 events and turns repeats into a series', async () => {
    const b = new EventsV1Broadcaster(cs.rest, { seriesSyncMs: 60_000 });
    const rec = b.newRecorder('e2e.io/controller', 'instance-1');
    try {
      rec.eventf(cm, undefined, 'Normal', 'Scaled', 'Scale', 'scaled to 3');
      rec.eventf(cm, undefined, 'Normal', 'Scaled', 'Scale', 'scaled to 3');
      rec.eventf(cm, undefined, 'Normal', 'Scaled', 'Scale', 'scaled to 3');
      await b.flush();
      let items = (await cs.for(eventsV1.EventsV1EventKind).list({ namespace: 'ev' })).items.filter(
        (e) => e.reason === 'Scaled',
      );
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        reportingController: 'e2e.io/controller',
        reportingInstance: 'instance-1',
        action: 'Scale',
        note: 'scaled to 3',
        regarding: { kind: 'ConfigMap', name: 'subject' },
        series: { count: 2 },
      });
      expect(items[0]!.eventTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      b.syncSeries();
      await b.flush();
      items = (await cs.for(eventsV1.EventsV1EventKind).list({ namespace: 'ev' })).items.filter(
        (e) => e.reason === 'Scaled',
      );
      expect(items[0]!.series?.count).toBe(3);
    } finally {
      await b.shutdown();
    }
  });
});
