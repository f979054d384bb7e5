import {
  controllerClusterRoleBindings,
  controllerClusterRoles,
  controllerRoleBindings,
  controllerRoles,
} from '@orch/apiserver';
import { CLOUD_CONTROLLER_REGISTRY } from '@orch/cloud-controller-manager';
import { CONTROLLER_REGISTRY } from '@orch/controller-manager';

/** With --use-service-account-credentials each controller acts as its service account: it needs its role. */
test('every built controller has a bootstrap role bound to its service account in orch-system', () => {
  // a cluster role, or (bootstrapsigner, tokencleaner) Roles of the namespaces it works in
  const roles = new Set([...controllerClusterRoles, ...controllerRoles].map((r) => r.metadata.name));
  for (const [name, descriptor] of Object.entries(CONTROLLER_REGISTRY)) {
    if (descriptor.rootCredentials) continue;
    const serviceAccount = descriptor.serviceAccount ?? `${name}-controller`;
    const role = `system:controller:${serviceAccount}`;
    expect({ name, role, declared: roles.has(role) }).toEqual({ name, role, declared: true });
    const bindings = [...controllerClusterRoleBindings, ...controllerRoleBindings].filter(
      (b) => b.roleRef.name === role,
    );
    expect(bindings.length).toBeGreaterThan(0);
    for (const binding of bindings)
      expect(binding.subjects).toEqual([
        { kind: 'ServiceAccount', name: serviceAccount, namespace: 'orch-system' },
      ]);
  }
});

/** Kubernetes' namespace policy: the bootstrap signer and token cleaner reach no namespace but theirs. */
test('the bootstrap signer and token cleaner have Roles of orch-system and orch-public only', () => {
  const where = (account: string): string[] =>
    controllerRoles
      .filter((r) => r.metadata.name === `system:controller:${account}`)
      .map((r) => `${r.kind} ${r.metadata.namespace}`)
      .sort();
  expect(where('bootstrap-signer')).toEqual(['Role orch-public', 'Role orch-system']);
  expect(where('token-cleaner')).toEqual(['Role orch-system']);
  const clusterWide = new Set(controllerClusterRoles.map((r) => r.metadata.name));
  expect(clusterWide.has('system:controller:bootstrap-signer')).toBe(false);
  expect(clusterWide.has('system:controller:token-cleaner')).toBe(false);
});

/** As Kubernetes' tokens controller, a controller minting credentials acts with the manager's own. */
test('a controller with the manager credentials has no service account role', () => {
  const roles = new Set(controllerClusterRoles.map((r) => r.metadata.name));
  const rooted = Object.entries(CONTROLLER_REGISTRY).filter(([, d]) => d.rootCredentials);
  expect(rooted.map(([name]) => name)).toEqual(['serviceaccount-token']);
  for (const [name, descriptor] of rooted) {
    for (const account of [descriptor.serviceAccount ?? `${name}-controller`, 'tokens-controller'])
      expect({ name, role: roles.has(`system:controller:${account}`) }).toEqual({ name, role: false });
  }
});

/** The cloud controller manager's controllers act as the service accounts Kubernetes gives them. */
test('every cloud controller has a bootstrap role bound to its service account in orch-system', () => {
  const roles = new Set(controllerClusterRoles.map((r) => r.metadata.name));
  const accounts = Object.entries(CLOUD_CONTROLLER_REGISTRY).map(
    ([name, descriptor]) => [name, descriptor.serviceAccount ?? `${name}-controller`] as const,
  );
  expect(Object.fromEntries(accounts)).toEqual({
    'cloud-node': 'node-controller',
    'cloud-node-lifecycle': 'node-controller',
    route: 'route-controller',
    service: 'service-controller',
  });
  for (const [name, account] of accounts) {
    const role = `system:controller:${account}`;
    expect({ name, role, declared: roles.has(role) }).toEqual({ name, role, declared: true });
  }
});

/** Kubernetes' policy: the garbage collector and namespace controller reach every resource, custom ones too. */
test('the garbage collector and namespace controller roles cover every group and resource', () => {
  const wildcard = (role: string): string[] =>
    (controllerClusterRoles.find((r) => r.metadata.name === `system:controller:${role}`)?.rules ?? [])
      .filter((r) => r.apiGroups?.includes('*') && r.resources?.includes('*'))
      .flatMap((r) => r.verbs ?? []);
  expect(wildcard('generic-garbage-collector').sort()).toEqual(
    ['delete', 'get', 'list', 'patch', 'update', 'watch'].sort(),
  );
  expect(wildcard('namespace-controller').sort()).toEqual(['delete', 'deletecollection', 'get', 'list']);
});
