import type { APIGroup, APIResource, APIResourceList } from './discoveryTypes';
import { GroupDiscoveryFailedError } from './GroupDiscoveryFailedError';
import {
  discoveredResources,
  filteredBy,
  parseGroupVersion,
  preferredResources,
  supportsAllVerbs,
} from './preferredResources';

const resource = (name: string, kind: string, verbs: string[], namespaced = true): APIResource => ({
  name,
  singularName: '',
  namespaced,
  kind,
  verbs,
});
const all = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

const groups: APIGroup[] = [
  {
    name: '',
    versions: [{ groupVersion: 'v1', version: 'v1' }],
    preferredVersion: { groupVersion: 'v1', version: 'v1' },
  },
  {
    name: 'example.com',
    versions: [
      { groupVersion: 'example.com/v1beta1', version: 'v1beta1' },
      { groupVersion: 'example.com/v1', version: 'v1' },
    ],
    preferredVersion: { groupVersion: 'example.com/v1', version: 'v1' },
  },
];
const lists = new Map<string, APIResourceList>([
  [
    'v1',
    {
      groupVersion: 'v1',
      resources: [
        resource('pods', 'Pod', all),
        resource('pods/status', 'Pod', ['get', 'patch', 'update']),
        resource('nodes', 'Node', all, false),
        resource('bindings', 'Binding', ['create']),
      ],
    },
  ],
  [
    'example.com/v1beta1',
    {
      groupVersion: 'example.com/v1beta1',
      resources: [resource('widgets', 'Widget', all), resource('legacies', 'Legacy', all)],
    },
  ],
  ['example.com/v1', { groupVersion: 'example.com/v1', resources: [resource('widgets', 'Widget', all)] }],
]);

describe('preferredResources', () => {
  it('takes each resource from its group’s preferred version, else from the first version serving it', () => {
    const out = preferredResources(groups, lists);
    expect(out.map((l) => [l.groupVersion, l.resources.map((r) => r.name)])).toEqual([
      ['v1', ['pods', 'nodes', 'bindings']],
      ['example.com/v1beta1', ['legacies']],
      ['example.com/v1', ['widgets']],
    ]);
  });

  it('leaves out group/versions that were not discovered', () => {
    const partial = new Map(lists);
    partial.delete('example.com/v1');
    const out = preferredResources(groups, partial);
    expect(out.map((l) => [l.groupVersion, l.resources.map((r) => r.name)])).toEqual([
      ['v1', ['pods', 'nodes', 'bindings']],
      ['example.com/v1beta1', ['widgets', 'legacies']],
    ]);
  });
});

describe('filteredBy and supportsAllVerbs', () => {
  it('keeps resources with every verb and drops lists left empty', () => {
    const out = filteredBy(
      [lists.get('v1')!, { groupVersion: 'x.io/v1', resources: [resource('reviews', 'Review', ['create'])] }],
      supportsAllVerbs(['list', 'watch', 'delete']),
    );
    expect(out.map((l) => [l.groupVersion, l.resources.map((r) => r.name)])).toEqual([
      ['v1', ['pods', 'nodes']],
    ]);
  });
});

describe('discoveredResources', () => {
  it('names where each resource is served, the core group as ""', () => {
    expect(discoveredResources(preferredResources(groups, lists)).slice(0, 2)).toEqual([
      { group: '', version: 'v1', resource: 'pods', namespaced: true, kind: 'Pod', verbs: all },
      { group: '', version: 'v1', resource: 'nodes', namespaced: false, kind: 'Node', verbs: all },
    ]);
    expect(parseGroupVersion('rbac.authorization.k8s.io/v1')).toEqual({
      group: 'rbac.authorization.k8s.io',
      version: 'v1',
    });
  });
});

describe('GroupDiscoveryFailedError', () => {
  it('lists the failed group/versions sorted, as client-go words it', () => {
    const err = new GroupDiscoveryFailedError(
      new Map<string, unknown>([
        ['metrics.k8s.io/v1beta1', new Error('the server is currently unable to handle the request')],
        ['example.com/v1', new Error('the server could not find the requested resource')],
      ]),
    );
    expect(err.message).toBe(
      'unable to retrieve the complete list of server APIs: ' +
        'example.com/v1: the server could not find the requested resource, ' +
        'metrics.k8s.io/v1beta1: the server is currently unable to handle the request',
    );
  });
});
