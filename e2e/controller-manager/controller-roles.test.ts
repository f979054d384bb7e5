import { controllerClusterRoleBindings, controllerClusterRoles } from '@orch/apiserver';
import { CONTROLLER_REGISTRY } from '@orch/controller-manager';

/** With --use-service-account-credentials each controller acts as its service account: it needs its role. */
test('every built controller has a bootstrap role bound to its service account in orch-system', () => {
  const roles = new Set(controllerClusterRoles.map((r) => r.metadata.name));
  for (const [name, descriptor] of Object.entries(CONTROLLER_REGISTRY)) {
    const serviceAccount = descriptor.serviceAccount ?? `${name}-controller`;
    const role = `system:controller:${serviceAccount}`;
    expect({ name, role, declared: roles.has(role) }).toEqual({ name, role, declared: true });
    const binding = controllerClusterRoleBindings.find((b) => b.roleRef.name === role);
    expect(binding?.subjects).toEqual([
      { kind: 'ServiceAccount', name: serviceAccount, namespace: 'orch-system' },
    ]);
  }
});
