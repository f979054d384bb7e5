import { buildAuthorizer, parseAuthorizationModes } from './authorization-modes';
import { forbiddenMessage, type AuthorizationAttributes } from './authorizer';

const attrs = (over: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes => ({
  user: { username: 'jane', groups: ['system:authenticated'] },
  verb: 'create',
  isResourceRequest: true,
  path: '/api/v1/namespaces/default/pods/web/binding',
  namespace: 'default',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: 'binding',
  name: 'web',
  ...over,
});

describe('--authorization-mode', () => {
  it('parses an ordered, comma-separated list', () => {
    expect(parseAuthorizationModes('RBAC,Node')).toEqual(['RBAC', 'Node']);
    expect(parseAuthorizationModes(['Node', 'RBAC'])).toEqual(['Node', 'RBAC']);
    expect(parseAuthorizationModes('AlwaysAllow')).toEqual(['AlwaysAllow']);
  });

  it('rejects unknown, unsupported, repeated and empty modes naming the flag', () => {
    expect(() => parseAuthorizationModes('RBAC,Foo')).toThrow('authorization-mode "Foo" is not a valid mode');
    expect(() => parseAuthorizationModes('RBAC,RBAC')).toThrow(
      'authorization-mode "RBAC" has mode specified more than once',
    );
    expect(() => parseAuthorizationModes('ABAC')).toThrow(
      'authorization-mode "ABAC" is not supported by orch-apiserver',
    );
    expect(() => parseAuthorizationModes('')).toThrow('at least one authorization-mode must be passed');
  });

  it('AlwaysDeny has no opinion and its reason ends up in the Forbidden message', async () => {
    const { authorizer } = await buildAuthorizer(['AlwaysDeny']);
    const result = await authorizer.authorize(attrs());
    expect(result).toEqual({ decision: 'NoOpinion', reason: 'Everything is forbidden.' });
    expect(forbiddenMessage(attrs(), result.reason)).toBe(
      'pods "web" is forbidden: User "jane" cannot create resource "pods/binding" in API group "" in the namespace "default": Everything is forbidden.',
    );
    const masters = await authorizer.authorize(
      attrs({ user: { username: 'root', groups: ['system:masters'] } }),
    );
    expect(masters.decision).toBe('Allow');
  });

  it('AlwaysAllow allows and lists every rule', async () => {
    const { authorizer } = await buildAuthorizer(['AlwaysAllow']);
    expect((await authorizer.authorize(attrs())).decision).toBe('Allow');
    expect(await authorizer.rulesFor!({ username: 'jane', groups: [] }, 'default')).toEqual({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    });
  });

  it('RBAC needs the RBAC stores', async () => {
    await expect(buildAuthorizer(['RBAC'])).rejects.toThrow(
      'authorization-mode "RBAC" needs the RBAC stores',
    );
  });
});
