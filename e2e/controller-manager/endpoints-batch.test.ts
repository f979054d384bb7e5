import { EndpointsKind, ServiceKind, type Endpoints, type Service } from '@orch/api';
import { clientFor, type WatchEvent } from '@orch/client';
import { runningPod, startCluster, type Cluster } from './harness';

jest.setTimeout(60_000);

const batchPeriodMs = 1500;
let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster({
    controllers: ['endpoint'],
    duration: (flag) => (flag === 'endpoint-updates-batch-period' ? batchPeriodMs : undefined),
  });
  cluster.pauseKubelet(true);
});
afterAll(async () => {
  await cluster?.close();
});

const ns = { namespace: 'default' };

const ips = (ep: Endpoints) =>
  (ep.subsets ?? []).flatMap((s) => (s.addresses ?? []).map((a) => a.ip ?? '')).sort();

test('--endpoint-updates-batch-period joins the changes of several pods into one Endpoints update', async () => {
  const endpoints = clientFor(cluster.rest, EndpointsKind);
  await clientFor(cluster.rest, ServiceKind).create({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'batched', namespace: 'default' },
    spec: { selector: { app: 'batched' }, ports: [{ port: 80 }] },
  } as Service);
  // a service change is not delayed: its (empty) Endpoints come at once
  const watch = await endpoints.watch({ ...ns, fieldSelector: 'metadata.name=batched' });
  const seen: { at: number; ips: string[] }[] = [];
  const reading = (async () => {
    for await (const e of watch as AsyncIterable<WatchEvent<Endpoints>>) {
      if (e.type === 'ADDED' || e.type === 'MODIFIED') seen.push({ at: Date.now(), ips: ips(e.object) });
    }
  })();
  const deadline = Date.now() + 10_000;
  while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(seen).toEqual([{ at: expect.any(Number), ips: [] }]);

  // three pods become ready one after another, within the batch period
  const start = Date.now();
  await runningPod(cluster, 'b-1', { app: 'batched' }, '10.244.2.1');
  await runningPod(cluster, 'b-2', { app: 'batched' }, '10.244.2.2');
  await runningPod(cluster, 'b-3', { app: 'batched' }, '10.244.2.3');
  const changedBy = Date.now();
  expect(changedBy - start).toBeLessThan(batchPeriodMs);
  while (seen.length < 2 && Date.now() < deadline + 10_000) await new Promise((r) => setTimeout(r, 20));
  // wait a further batch period: no later update follows
  await new Promise((r) => setTimeout(r, batchPeriodMs + 500));
  watch.stop();
  await reading.catch(() => undefined);
  expect(seen.map((s) => s.ips)).toEqual([[], ['10.244.2.1', '10.244.2.2', '10.244.2.3']]);
  // the one update came a batch period after the first pod's change, not at once
  expect(seen[1]!.at - start).toBeGreaterThanOrEqual(batchPeriodMs - 100);
});
