import {
  EndpointSliceKind,
  NodeKind,
  PodKind,
  ServiceKind,
  type EndpointSlice,
  type Node,
  type Pod,
  type Service,
} from '@orch/api';
import { eventually, startTestAPIServer, type TestAPIServer } from '@orch/apiserver';
import { clientFor, loadKubeconfigFile, restConfigFromKubeconfig, RestClient } from '@orch/client';
import { runInProcessManager, type InProcessManager } from './inProcessManager';

jest.setTimeout(90_000);

const NS = 'default';
const ns = { namespace: NS };
const MAX = 2;

let api: TestAPIServer;
let rest: RestClient;
let manager: InProcessManager;

beforeAll(async () => {
  api = await startTestAPIServer({ admissionPlugins: [] });
  rest = new RestClient({ ...restConfigFromKubeconfig(loadKubeconfigFile(api.kubeconfig)).config, qps: -1 });
  manager = runInProcessManager([
    `--kubeconfig=${api.kubeconfig}`,
    '--controllers=*,endpointslice',
    '--feature-gates=EndpointSlice=true',
    `--max-endpoints-per-slice=${MAX}`,
  ]);
});
afterAll(async () => {
  if (manager) expect(await manager.stop()).toBe(0);
  rest?.close();
  await api?.close();
});

const slices = () => clientFor(rest, EndpointSliceKind);
const pods = () => clientFor(rest, PodKind);
const services = () => clientFor(rest, ServiceKind);

/** The slices of service `name` once `check` holds for them. */
function slicesWhen(
  name: string,
  check: (slices: EndpointSlice[]) => boolean,
  what: string,
): Promise<EndpointSlice[]> {
  return eventually(
    async () => {
      const items = (await slices().list({ ...ns, labelSelector: `kubernetes.io/service-name=${name}` }))
        .items;
      return check(items) ? items : undefined;
    },
    what,
    30_000,
  );
}

const endpoints = (list: EndpointSlice[]) => list.flatMap((s) => s.endpoints ?? []);
const addresses = (list: EndpointSlice[]) =>
  endpoints(list)
    .flatMap((e) => e.addresses)
    .sort();

async function createPod(name: string, labels: Record<string, string>): Promise<void> {
  await pods().create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NS, labels },
    spec: {
      nodeName: 'node-a',
      containers: [{ name: 'app', image: 'nginx', ports: [{ name: 'http', containerPort: 8080 }] }],
    },
  } as Pod);
}

/** Writes the pod's status as its kubelet would: running with `ip`, ready or not. */
async function setStatus(name: string, ip: string, ready: boolean): Promise<void> {
  await pods().patch(
    name,
    'merge',
    {
      status: {
        phase: 'Running',
        podIP: ip,
        podIPs: [{ ip }],
        conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
      },
    },
    { ...ns, subresource: 'status' },
  );
}

test('a service’s pods are kept in EndpointSlices of at most --max-endpoints-per-slice endpoints', async () => {
  await clientFor(rest, NodeKind).create({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: 'node-a',
      labels: { 'topology.kubernetes.io/zone': 'zone-1', 'topology.kubernetes.io/region': 'region-1' },
    },
  } as Node);
  const svc = await services().create({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: NS },
    spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
  } as Service);

  // no pods yet: one empty slice, labelled, owned by the service, named after it
  const [placeholder] = await slicesWhen('web', (l) => l.length === 1, 'the empty slice of web');
  expect(placeholder!.metadata?.labels).toEqual({
    'kubernetes.io/service-name': 'web',
    'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
  });
  expect(placeholder!.metadata?.name).toMatch(/^web-/);
  expect(placeholder!.metadata?.ownerReferences).toEqual([
    {
      apiVersion: 'v1',
      kind: 'Service',
      name: 'web',
      uid: svc.metadata?.uid,
      controller: true,
      blockOwnerDeletion: true,
    },
  ]);
  expect(placeholder!.addressType).toBe('IPv4');
  expect(placeholder!.endpoints ?? []).toEqual([]);

  // five ready pods: split over slices of at most two
  for (let i = 1; i <= 5; i++) {
    await createPod(`web-${i}`, { app: 'web' });
    await setStatus(`web-${i}`, `10.244.0.${i}`, true);
  }
  const full = await slicesWhen('web', (l) => addresses(l).length === 5, 'five endpoints');
  expect(addresses(full)).toEqual(['10.244.0.1', '10.244.0.2', '10.244.0.3', '10.244.0.4', '10.244.0.5']);
  expect(full).toHaveLength(3);
  for (const slice of full) {
    expect((slice.endpoints ?? []).length).toBeLessThanOrEqual(MAX);
    expect(slice.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
  }
  const first = endpoints(full).find((e) => e.addresses[0] === '10.244.0.1')!;
  expect(first.conditions).toEqual({ ready: true });
  expect(first.targetRef).toMatchObject({ kind: 'Pod', namespace: NS, name: 'web-1' });
  expect(first.topology).toEqual({
    'kubernetes.io/hostname': 'node-a',
    'topology.kubernetes.io/zone': 'zone-1',
    'topology.kubernetes.io/region': 'region-1',
  });

  // a pod that stops being ready stays, not ready
  await setStatus('web-2', '10.244.0.2', false);
  await slicesWhen(
    'web',
    (l) => endpoints(l).some((e) => e.addresses[0] === '10.244.0.2' && e.conditions?.ready === false),
    'web-2 not ready',
  );

  // a settled service's slices are not written again
  const versions = async () =>
    (await slices().list({ ...ns, labelSelector: 'kubernetes.io/service-name=web' })).items
      .map((s) => `${s.metadata?.name}@${s.metadata?.resourceVersion}`)
      .sort();
  const settled = await versions();
  await new Promise((r) => setTimeout(r, 1500));
  expect(await versions()).toEqual(settled);

  // pods going away leave the slices; emptied slices go
  for (const name of ['web-1', 'web-3', 'web-4']) await pods().delete(name, { ...ns, gracePeriodSeconds: 0 });
  const fewer = await slicesWhen('web', (l) => addresses(l).length === 2, 'two endpoints left');
  expect(addresses(fewer)).toEqual(['10.244.0.2', '10.244.0.5']);
  for (const slice of fewer) expect((slice.endpoints ?? []).length).toBeGreaterThan(0);

  // no pods left: one empty slice again
  for (const name of ['web-2', 'web-5']) await pods().delete(name, { ...ns, gracePeriodSeconds: 0 });
  await slicesWhen('web', (l) => l.length === 1 && endpoints(l).length === 0, 'back to one empty slice');

  // the service gone, its slices go
  await services().delete('web', ns);
  await slicesWhen('web', (l) => l.length === 0, 'the slices of web deleted');
});

test('a service without a selector gets no slices; a slice deleted by someone comes back', async () => {
  await services().create({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'external', namespace: NS },
    spec: { ports: [{ port: 5432 }] },
  } as Service);
  await services().create({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'api', namespace: NS },
    spec: { selector: { app: 'api' }, ports: [{ port: 80, targetPort: 8080 }] },
  } as Service);
  await createPod('api-1', { app: 'api' });
  await setStatus('api-1', '10.244.1.1', true);
  const [slice] = await slicesWhen('api', (l) => addresses(l).join() === '10.244.1.1', 'the slice of api');
  expect(slice!.ports).toEqual([{ name: '', port: 8080, protocol: 'TCP' }]);

  await slices().delete(slice!.metadata!.name!, ns);
  await slicesWhen(
    'api',
    (l) => l.length === 1 && l[0]!.metadata?.uid !== slice!.metadata?.uid && addresses(l).length === 1,
    'a new slice of api',
  );
  expect(await slicesWhen('external', () => true, 'the slices of external')).toEqual([]);
});

test('without the EndpointSlice feature gate the controller does not start', async () => {
  const off = runInProcessManager([`--kubeconfig=${api.kubeconfig}`, '--controllers=endpointslice']);
  try {
    await eventually(
      () => off.out.join('').includes('Skipping "endpointslice": the EndpointSlice feature gate is off'),
      'the manager to skip the controller',
      20_000,
    );
  } finally {
    expect(await off.stop()).toBe(0);
  }
});
