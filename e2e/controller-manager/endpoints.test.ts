import { EndpointsKind, PodKind, ServiceKind, type Endpoints, type Service } from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor, isNotFound } from '@orch/client';
import { runningPod, setPodStatus, startCluster, type Cluster } from './harness';

jest.setTimeout(60_000);

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
  // pod statuses (IPs, readiness) are written by the tests themselves
  cluster.pauseKubelet(true);
});
afterAll(async () => {
  await cluster?.close();
});

const ns = { namespace: 'default' };

/** The Endpoints of `name` once `check` holds for them. */
function endpointsWhen(name: string, check: (ep: Endpoints) => boolean, what: string): Promise<Endpoints> {
  const endpoints = clientFor(cluster.rest, EndpointsKind);
  return eventually(
    async () => {
      const ep = await endpoints
        .get(name, ns)
        .catch((e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)));
      return ep && check(ep) ? ep : undefined;
    },
    what,
    20_000,
  );
}

const ips = (ep: Endpoints, field: 'addresses' | 'notReadyAddresses' = 'addresses') =>
  (ep.subsets ?? []).flatMap((s) => (s[field] ?? []).map((a) => a.ip)).sort();

test('a service’s Endpoints follow its pods: readiness, labels, deletion', async () => {
  const services = clientFor(cluster.rest, ServiceKind);
  await runningPod(cluster, 'web-1', { app: 'web' }, '10.244.1.1');
  await runningPod(cluster, 'web-2', { app: 'web' }, '10.244.1.2');
  await runningPod(cluster, 'other', { app: 'other' }, '10.244.1.9');
  await services.create({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default', labels: { tier: 'front' } },
    spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
  } as Service);

  const first = await endpointsWhen('web', (ep) => ips(ep).length === 2, 'endpoints with both pods');
  expect(ips(first)).toEqual(['10.244.1.1', '10.244.1.2']);
  expect(first.subsets![0]!.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
  expect(first.subsets![0]!.addresses![0]!.targetRef).toMatchObject({ kind: 'Pod', name: 'web-1' });
  expect(first.subsets![0]!.addresses![0]!.nodeName).toBe('node-a');
  expect(first.metadata?.labels).toEqual({ tier: 'front' });

  // a pod that stops being ready moves to notReadyAddresses
  await setPodStatus(cluster, 'web-2', '10.244.1.2', false);
  const notReady = await endpointsWhen(
    'web',
    (ep) => ips(ep, 'notReadyAddresses').length === 1,
    'web-2 not ready',
  );
  expect(ips(notReady)).toEqual(['10.244.1.1']);
  expect(ips(notReady, 'notReadyAddresses')).toEqual(['10.244.1.2']);

  // a pod relabelled out of the selector leaves; one relabelled into it comes in
  const pods = clientFor(cluster.rest, PodKind);
  await pods.patch('web-1', 'merge', { metadata: { labels: { app: 'gone' } } }, ns);
  await pods.patch('other', 'merge', { metadata: { labels: { app: 'web' } } }, ns);
  const moved = await endpointsWhen('web', (ep) => ips(ep).join() === '10.244.1.9', 'relabelled pods');
  expect(ips(moved, 'notReadyAddresses')).toEqual(['10.244.1.2']);

  // deleted Endpoints come back; a deleted service takes its Endpoints along
  const endpoints = clientFor(cluster.rest, EndpointsKind);
  const uid = moved.metadata?.uid;
  await endpoints.delete('web', ns);
  const again = await endpointsWhen('web', (ep) => ep.metadata?.uid !== uid, 'endpoints recreated');
  expect(ips(again)).toEqual(['10.244.1.9']);
  await services.delete('web', ns);
  await eventually(
    async () =>
      (await endpoints.get('web', ns).then(
        () => false,
        (e: unknown) => isNotFound(e),
      )) || undefined,
    'endpoints deleted with the service',
    20_000,
  );

  // kubectl shows the addresses of a service exposed by it
  await cluster.kubectl('expose', 'pod', 'other', '--name=exposed', '--port=80', '--target-port=8080');
  await endpointsWhen('exposed', (ep) => ips(ep).length === 1, 'endpoints of the exposed pod');
  const out = await cluster.kubectl('get', 'endpoints', 'exposed');
  expect(out).toMatch(/exposed\s+10\.244\.1\.9:8080\s/);
});

test('Endpoints of a service without a selector are left to their owner', async () => {
  const services = clientFor(cluster.rest, ServiceKind);
  const endpoints = clientFor(cluster.rest, EndpointsKind);
  await services.create({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'external-db', namespace: 'default' },
    spec: { ports: [{ port: 5432 }] },
  } as Service);
  await endpoints.create({
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'external-db', namespace: 'default' },
    subsets: [{ addresses: [{ ip: '192.0.2.10' }], ports: [{ port: 5432 }] }],
  } as Endpoints);
  // a selector service created after it is synced: the selector-less one has had its turn by then
  await runningPod(cluster, 'probe', { app: 'probe' }, '10.244.2.1');
  await services.create({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'probe', namespace: 'default' },
    spec: { selector: { app: 'probe' }, ports: [{ port: 80, targetPort: 8080 }] },
  } as Service);
  await endpointsWhen('probe', (ep) => ips(ep).length === 1, 'endpoints of the probe service');
  const kept = await endpoints.get('external-db', ns);
  expect(ips(kept)).toEqual(['192.0.2.10']);
});
