import { GroupDiscoveryFailedError, type APIResourceList } from '@orch/client';
import { deletableResources, discoverResources, resourceForKind, staticResources } from './discovery';

const all = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const lists: APIResourceList[] = [
  {
    groupVersion: 'example.com/v1',
    resources: [{ name: 'widgets', singularName: 'widget', namespaced: true, kind: 'Widget', verbs: all }],
  },
  {
    groupVersion: 'v1',
    resources: [
      { name: 'bindings', singularName: 'binding', namespaced: true, kind: 'Binding', verbs: ['create'] },
    ],
  },
];

describe('discoverResources', () => {
  it('keeps what was discovered beside a partial failure, and filters by verbs', async () => {
    const error = new GroupDiscoveryFailedError(new Map([['broken.example.com/v1', new Error('down')]]));
    const found = await discoverResources(
      { serverPreferredResources: () => Promise.resolve({ resources: lists, error }) },
      ['list', 'delete'],
    );
    expect(found.matching.map((r) => `${r.resource}.${r.group}`)).toEqual(['widgets.example.com']);
    expect(found.all.map((r) => r.resource)).toEqual(['widgets', 'bindings']);
    expect(found.error).toBe(error);
  });

  it('returns a discovery that failed altogether as its error, with nothing discovered', async () => {
    const found = await discoverResources(
      { serverPreferredResources: () => Promise.reject(new Error('connection refused')) },
      ['list'],
    );
    expect(found).toEqual({ all: [], matching: [], error: new Error('connection refused') });
  });
});

describe('resourceForKind', () => {
  it('resolves a kind only discovery knows, at the version discovered, whatever version the reference names', () => {
    const discovered = [
      {
        group: 'example.com',
        version: 'v1',
        resource: 'widgets',
        namespaced: true,
        kind: 'Widget',
        verbs: all,
      },
    ];
    expect(resourceForKind('example.com/v1beta1', 'Widget', discovered)).toBe(discovered[0]);
    expect(resourceForKind('example.com/v1', 'Widget')).toBeUndefined();
    expect(resourceForKind('example.com/v1', 'Gadget', discovered)).toBeUndefined();
  });

  it('falls back to the declared kinds at their preferred version', () => {
    expect(resourceForKind('apps/v1', 'Deployment')).toMatchObject({
      group: 'apps',
      version: 'v1',
      resource: 'deployments',
      namespaced: true,
      kind: 'Deployment',
    });
  });
});

test('the static resources are the stored kinds; the deletable ones can be listed, watched and deleted', () => {
  const names = staticResources().map((r) => `${r.resource}.${r.group}`);
  expect(names).toContain('pods.');
  expect(names).not.toContain('tokenreviews.authentication.k8s.io');
  expect(
    deletableResources().every((r) => ['list', 'watch', 'delete'].every((v) => r.verbs.includes(v))),
  ).toBe(true);
});
