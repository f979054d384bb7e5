import { parseRequestInfo } from './request-info';

const parse = (method: string, url: string) => {
  const u = new URL(url, 'https://x');
  return parseRequestInfo(method, u.pathname, u.searchParams);
};

describe('parseRequestInfo', () => {
  it.each([
    [
      'GET',
      '/api/v1/namespaces/default/pods',
      { verb: 'list', namespace: 'default', resource: 'pods', name: '' },
    ],
    ['GET', '/api/v1/namespaces/default/pods?watch=1', { verb: 'watch', resource: 'pods' }],
    ['GET', '/api/v1/namespaces/default/pods?watch=false', { verb: 'list', resource: 'pods' }],
    ['GET', '/api/v1/namespaces/default/pods/web', { verb: 'get', name: 'web', namespace: 'default' }],
    ['GET', '/api/v1/namespaces/default/pods/web/log', { verb: 'get', subresource: 'log' }],
    [
      'POST',
      '/api/v1/namespaces/default/pods/web/binding',
      { verb: 'create', subresource: 'binding', name: 'web' },
    ],
    ['GET', '/api/v1/pods', { verb: 'list', namespace: '', resource: 'pods' }],
    ['GET', '/api/v1/namespaces', { verb: 'list', resource: 'namespaces', name: '' }],
    ['GET', '/api/v1/namespaces/kube', { verb: 'get', resource: 'namespaces', name: 'kube' }],
    [
      'PUT',
      '/api/v1/namespaces/kube/finalize',
      { verb: 'update', resource: 'namespaces', name: 'kube', subresource: 'finalize' },
    ],
    [
      'PUT',
      '/api/v1/namespaces/kube/status',
      { verb: 'update', resource: 'namespaces', subresource: 'status' },
    ],
    [
      'DELETE',
      '/apis/apps/v1/namespaces/ns/deployments',
      { verb: 'deletecollection', apiGroup: 'apps', apiVersion: 'v1' },
    ],
    ['DELETE', '/apis/apps/v1/namespaces/ns/deployments/d', { verb: 'delete', name: 'd' }],
    ['PATCH', '/apis/apps/v1/namespaces/ns/deployments/d/scale', { verb: 'patch', subresource: 'scale' }],
    [
      'GET',
      '/apis/apps/v1/watch/namespaces/ns/deployments',
      { verb: 'watch', deprecatedWatchPath: true, namespace: 'ns' },
    ],
    ['GET', '/apis/apps/v1/watch/namespaces/ns/deployments/d', { verb: 'watch', name: 'd' }],
    ['GET', '/apis/apps/v1/watch/deployments', { verb: 'watch', resource: 'deployments', namespace: '' }],
    [
      'GET',
      '/apis/rbac.authorization.k8s.io/v1/clusterroles/admin',
      { apiGroup: 'rbac.authorization.k8s.io', name: 'admin' },
    ],
  ])('%s %s', (method, url, expected) => {
    const info = parse(method, url);
    expect(info.isResourceRequest).toBe(true);
    expect(info).toMatchObject(expected);
  });

  it.each(['/version', '/api', '/api/v1', '/apis', '/apis/apps', '/apis/apps/v1', '/healthz', '/openapi/v2'])(
    '%s is not a resource request',
    (url) => {
      expect(parse('GET', url).isResourceRequest).toBe(false);
    },
  );
});
