import { startTestAPIServer, type TestAPIServer } from '@orch/apiserver';
import {
  buildConfigFromFlags,
  DiscoveryClient,
  discoveredResources,
  isGroupDiscoveryFailed,
  RestClient,
} from '@orch/client';
import { createTestCRD } from '../harness/customResourceDefinition';

let api: TestAPIServer;
let rest: RestClient;
let discovery: DiscoveryClient;

beforeAll(async () => {
  api = await startTestAPIServer({ admissionPlugins: [] });
  rest = new RestClient({ ...buildConfigFromFlags({ kubeconfig: api.kubeconfig }).config, qps: -1 });
  discovery = new DiscoveryClient(rest);
  await createTestCRD(rest, {
    group: 'discovery.example.com',
    plural: 'gizmos',
    kind: 'Gizmo',
    versions: ['v1', 'v1beta1'],
  });
});

afterAll(async () => {
  rest?.close();
  await api?.close();
});

describe('DiscoveryClient against orch-apiserver', () => {
  it('lists the core group first, then the named groups with their preferred versions', async () => {
    const { groups } = await discovery.serverGroups();
    expect(groups[0]).toEqual({
      name: '',
      versions: [{ groupVersion: 'v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'v1', version: 'v1' },
    });
    expect(groups.find((g) => g.name === 'apps')?.preferredVersion).toEqual({
      groupVersion: 'apps/v1',
      version: 'v1',
    });
    expect(groups.find((g) => g.name === 'discovery.example.com')?.versions.map((v) => v.version)).toEqual(
      expect.arrayContaining(['v1', 'v1beta1']),
    );
  });

  it('reads the resources of a group/version, subresources included', async () => {
    const core = await discovery.serverResourcesForGroupVersion('v1');
    expect(core.groupVersion).toBe('v1');
    expect(core.resources.find((r) => r.name === 'pods')).toMatchObject({
      kind: 'Pod',
      namespaced: true,
      verbs: expect.arrayContaining(['list', 'watch', 'delete']),
    });
    const apps = await discovery.serverResourcesForGroupVersion('apps/v1');
    expect(apps.resources.map((r) => r.name)).toEqual(
      expect.arrayContaining(['deployments', 'deployments/scale']),
    );
    await expect(discovery.serverResourcesForGroupVersion('nosuch.example.com/v1')).rejects.toMatchObject({
      code: 404,
    });
  });

  it('gives each resource once, at its group’s preferred version, custom resources included', async () => {
    const { resources, error } = await discovery.serverPreferredResources();
    expect(error).toBeUndefined();
    const found = discoveredResources(resources);
    const gizmos = found.filter((r) => r.group === 'discovery.example.com');
    expect(gizmos).toEqual([
      {
        group: 'discovery.example.com',
        version: 'v1',
        resource: 'gizmos',
        namespaced: true,
        kind: 'Gizmo',
        verbs: expect.arrayContaining(['list', 'watch', 'delete', 'deletecollection']),
      },
    ]);
    expect(found.some((r) => r.resource.includes('/'))).toBe(false);
    expect(found.filter((r) => r.group === 'apps' && r.resource === 'deployments')).toHaveLength(1);
    const namespaced = discoveredResources((await discovery.serverPreferredNamespacedResources()).resources);
    expect(namespaced.some((r) => r.resource === 'nodes')).toBe(false);
    expect(namespaced.some((r) => r.resource === 'gizmos')).toBe(true);
  });

  it('reports a group/version that fails and still returns the others', async () => {
    const send = rest.send.bind(rest);
    rest.send = (method, path, headers, body, signal) =>
      send(method, path === '/apis/batch/v1' ? '/apis/nosuch.example.com/v1' : path, headers, body, signal);
    try {
      const { resources, error } = await discovery.serverPreferredResources();
      expect(isGroupDiscoveryFailed(error)).toBe(true);
      expect([...error!.groups.keys()]).toEqual(['batch/v1']);
      expect(error!.message).toMatch(/^unable to retrieve the complete list of server APIs: batch\/v1: /);
      const found = discoveredResources(resources);
      expect(found.some((r) => r.group === 'batch' && r.version === 'v1')).toBe(false);
      expect(found.some((r) => r.resource === 'pods')).toBe(true);
      expect(found.some((r) => r.resource === 'gizmos')).toBe(true);
    } finally {
      rest.send = send;
    }
  });
});
