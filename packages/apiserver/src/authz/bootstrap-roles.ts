import type { BindingObject, PolicyRule, RoleObject, Subject } from './rbac-objects';
import { rbacAPIVersion, rbacGroup } from './rbac-objects';

export const autoupdateAnnotation = 'rbac.authorization.kubernetes.io/autoupdate';
export const bootstrappingLabel = 'kubernetes.io/bootstrapping';
const aggregateTo = (role: string): string => `rbac.authorization.k8s.io/aggregate-to-${role}`;

export const read = ['get', 'list', 'watch'];
export const write = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const readWrite = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** A resource rule. */
export function rule(
  verbs: string[],
  apiGroups: string[],
  resources: string[],
  resourceNames?: string[],
): PolicyRule {
  return { verbs, apiGroups, resources, ...(resourceNames ? { resourceNames } : {}) };
}

/** A non-resource URL rule. */
export function urlRule(verbs: string[], nonResourceURLs: string[]): PolicyRule {
  return { verbs, nonResourceURLs };
}

export function clusterRole(
  name: string,
  rules: PolicyRule[],
  extra: Partial<RoleObject> = {},
  labels: Record<string, string> = {},
): RoleObject {
  return {
    apiVersion: rbacAPIVersion,
    kind: 'ClusterRole',
    metadata: {
      name,
      labels: { [bootstrappingLabel]: 'rbac-defaults', ...labels },
      annotations: { [autoupdateAnnotation]: 'true' },
    },
    rules,
    ...extra,
  };
}

/** A Role of `namespace`, labelled and annotated as the default cluster roles are. */
export function namespacedRole(namespace: string, name: string, rules: PolicyRule[]): RoleObject {
  const r = clusterRole(name, rules);
  return { ...r, kind: 'Role', metadata: { ...r.metadata, namespace } };
}

const user = (name: string): Subject => ({ kind: 'User', apiGroup: rbacGroup, name });
const group = (name: string): Subject => ({ kind: 'Group', apiGroup: rbacGroup, name });

export function binding(name: string, role: string, subjects: Subject[]): BindingObject {
  return {
    apiVersion: rbacAPIVersion,
    kind: 'ClusterRoleBinding',
    metadata: {
      name,
      labels: { [bootstrappingLabel]: 'rbac-defaults' },
      annotations: { [autoupdateAnnotation]: 'true' },
    },
    roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: role },
    subjects,
  };
}

/** A RoleBinding of `namespace` to the Role `role` of that namespace. */
export function namespacedBinding(
  namespace: string,
  name: string,
  role: string,
  subjects: Subject[],
): BindingObject {
  const b = binding(name, role, subjects);
  return {
    ...b,
    kind: 'RoleBinding',
    metadata: { ...b.metadata, namespace },
    roleRef: { ...b.roleRef, kind: 'Role' },
  };
}

const aggregated = (role: string): Partial<RoleObject> => ({
  aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [aggregateTo(role)]: 'true' } }] },
});

const discoveryURLs = [
  '/api',
  '/api/*',
  '/apis',
  '/apis/*',
  '/healthz',
  '/livez',
  '/openapi',
  '/openapi/*',
  '/readyz',
  '/version',
  '/version/',
];
const publicInfoURLs = ['/healthz', '/livez', '/readyz', '/version', '/version/'];
const eventRules = [rule(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events'])];
const delegationRules = [
  rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
  rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
];

/** The default cluster roles, named and shaped as Kubernetes' bootstrap policy (kube → orch). */
export const bootstrapClusterRoles: RoleObject[] = [
  clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urlRule(['*'], ['*'])]),
  clusterRole('system:discovery', [urlRule(['get'], discoveryURLs)]),
  clusterRole('system:public-info-viewer', [urlRule(['get'], publicInfoURLs)]),
  clusterRole('system:basic-user', [
    rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
    rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
  ]),
  clusterRole('admin', [], aggregated('admin')),
  clusterRole('edit', [], aggregated('edit'), { [aggregateTo('admin')]: 'true' }),
  clusterRole('view', [], aggregated('view'), { [aggregateTo('edit')]: 'true' }),
  clusterRole(
    'system:aggregate-to-admin',
    [
      rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']),
      rule(readWrite, [rbacGroup], ['rolebindings', 'roles']),
    ],
    {},
    { [aggregateTo('admin')]: 'true' },
  ),
  clusterRole(
    'system:aggregate-to-edit',
    [
      rule(
        read,
        [''],
        ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy'],
      ),
      rule(['impersonate'], [''], ['serviceaccounts']),
      rule(write, [''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy']),
      rule(['create'], [''], ['pods/eviction']),
      rule(
        write,
        [''],
        [
          'configmaps',
          'events',
          'persistentvolumeclaims',
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'secrets',
          'serviceaccounts',
          'services',
          'services/proxy',
        ],
      ),
      rule(['create'], [''], ['serviceaccounts/token']),
      rule(
        write,
        ['apps'],
        [
          'daemonsets',
          'deployments',
          'deployments/rollback',
          'deployments/scale',
          'replicasets',
          'replicasets/scale',
          'statefulsets',
          'statefulsets/scale',
        ],
      ),
      rule(write, ['autoscaling'], ['horizontalpodautoscalers']),
      rule(write, ['batch'], ['cronjobs', 'jobs']),
      rule(write, ['networking.k8s.io'], ['ingresses', 'networkpolicies']),
      rule(write, ['policy'], ['poddisruptionbudgets']),
      rule(
        ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        ['coordination.k8s.io'],
        ['leases'],
      ),
    ],
    {},
    { [aggregateTo('admin')]: 'true', [aggregateTo('edit')]: 'true' },
  ),
  clusterRole(
    'system:aggregate-to-view',
    [
      rule(
        read,
        [''],
        [
          'configmaps',
          'endpoints',
          'persistentvolumeclaims',
          'persistentvolumeclaims/status',
          'pods',
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'serviceaccounts',
          'services',
          'services/status',
        ],
      ),
      rule(
        read,
        [''],
        [
          'bindings',
          'events',
          'limitranges',
          'namespaces/status',
          'pods/log',
          'pods/status',
          'replicationcontrollers/status',
          'resourcequotas',
          'resourcequotas/status',
        ],
      ),
      rule(read, [''], ['namespaces']),
      rule(read, ['discovery.k8s.io'], ['endpointslices']),
      rule(
        read,
        ['apps'],
        [
          'controllerrevisions',
          'daemonsets',
          'daemonsets/status',
          'deployments',
          'deployments/scale',
          'deployments/status',
          'replicasets',
          'replicasets/scale',
          'replicasets/status',
          'statefulsets',
          'statefulsets/scale',
          'statefulsets/status',
        ],
      ),
      rule(read, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
      rule(read, ['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']),
      rule(read, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
      rule(read, ['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies']),
    ],
    {},
    { [aggregateTo('admin')]: 'true', [aggregateTo('edit')]: 'true', [aggregateTo('view')]: 'true' },
  ),
  // what the csrapproving controller asks of a node client certificate's requester: any node's, or its own
  clusterRole('system:certificates.k8s.io:certificatesigningrequests:nodeclient', [
    rule(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/nodeclient']),
  ]),
  clusterRole('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', [
    rule(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/selfnodeclient']),
  ]),
  clusterRole('system:orch-scheduler', [
    ...eventRules,
    // leader election (any lock object the scheduler is configured with)
    rule(['create', 'get', 'update'], ['coordination.k8s.io'], ['leases']),
    rule(['create', 'get', 'update'], [''], ['endpoints', 'configmaps']),
    rule(read, [''], ['nodes']),
    rule(['delete', 'get', 'list', 'watch'], [''], ['pods']),
    rule(['create'], [''], ['bindings', 'pods/binding']),
    rule(['patch', 'update'], [''], ['pods/status']),
    rule(
      read,
      [''],
      [
        'replicationcontrollers',
        'services',
        'namespaces',
        'persistentvolumeclaims',
        'persistentvolumes',
        'configmaps',
      ],
    ),
    rule(read, ['apps', 'extensions'], ['replicasets']),
    rule(read, ['apps'], ['statefulsets']),
    rule(read, ['policy'], ['poddisruptionbudgets']),
    rule(read, ['storage.k8s.io'], ['storageclasses', 'csinodes', 'csidrivers', 'csistoragecapacities']),
    ...delegationRules,
  ]),
  // what the scheduler's volume binding writes: a volume's claimRef, a claim's selected node
  clusterRole('system:volume-scheduler', [
    rule(['get', 'list', 'update', 'watch'], [''], ['persistentvolumes']),
    rule(read, ['storage.k8s.io'], ['storageclasses']),
    rule(['get', 'list', 'patch', 'update', 'watch'], [''], ['persistentvolumeclaims']),
  ]),
  // The controllers of orch-controller-manager run under its one identity, so its role is their union:
  // everything, on every resource (Kubernetes splits this over per-controller service accounts).
  clusterRole('system:orch-controller-manager', [
    rule(['*'], ['*'], ['*']),
    urlRule(['get'], ['/healthz', '/livez', '/readyz', '/version', '/metrics']),
  ]),
  clusterRole('system:node', [
    ...delegationRules,
    rule(
      read,
      [''],
      ['services', 'endpoints', 'configmaps', 'secrets', 'persistentvolumeclaims', 'persistentvolumes'],
    ),
    rule(['create', 'get', 'list', 'watch', 'update', 'patch', 'delete'], [''], ['nodes']),
    rule(['patch', 'update'], [''], ['nodes/status']),
    rule(['create', 'patch', 'update'], [''], ['events']),
    rule(['create', 'delete', 'get', 'list', 'watch'], [''], ['pods']),
    rule(['patch', 'update'], [''], ['pods/status']),
    // the claim's capacity once the node has grown its file system (ExpandPersistentVolumes)
    rule(['get', 'update', 'patch'], [''], ['persistentvolumeclaims/status']),
    rule(['create'], [''], ['pods/eviction']),
    rule(['create'], [''], ['serviceaccounts/token']),
    rule(['create', 'delete', 'get', 'patch', 'update'], ['coordination.k8s.io'], ['leases']),
    rule(['get'], ['storage.k8s.io'], ['csidrivers', 'csinodes', 'volumeattachments']),
    rule(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests']),
  ]),
  clusterRole('system:orch-cloud-controller-manager', [
    ...eventRules,
    rule(['*'], [''], ['nodes']),
    rule(['patch', 'update'], [''], ['nodes/status']),
    rule(['list', 'patch', 'update', 'watch'], [''], ['services']),
    rule(['patch', 'update'], [''], ['services/status']),
    rule(['create', 'get', 'list', 'watch'], [''], ['serviceaccounts']),
    rule(['create'], [''], ['serviceaccounts/token']),
    rule(['get', 'list', 'update', 'watch'], [''], ['persistentvolumes']),
    rule(['create', 'get', 'list', 'update', 'watch'], [''], ['endpoints']),
    rule(['create', 'get', 'list', 'update', 'watch'], ['coordination.k8s.io'], ['leases']),
    rule(read, [''], ['configmaps']),
    ...delegationRules,
  ]),
];

/** The default cluster role bindings. */
export const bootstrapClusterRoleBindings: BindingObject[] = [
  binding('cluster-admin', 'cluster-admin', [group('system:masters')]),
  binding('system:discovery', 'system:discovery', [group('system:authenticated')]),
  binding('system:basic-user', 'system:basic-user', [group('system:authenticated')]),
  binding('system:public-info-viewer', 'system:public-info-viewer', [
    group('system:authenticated'),
    group('system:unauthenticated'),
  ]),
  binding('system:orch-scheduler', 'system:orch-scheduler', [user('system:orch-scheduler')]),
  binding('system:volume-scheduler', 'system:volume-scheduler', [user('system:orch-scheduler')]),
  binding('system:orch-controller-manager', 'system:orch-controller-manager', [
    user('system:orch-controller-manager'),
  ]),
  binding('system:node', 'system:node', [group('system:nodes')]),
  binding('system:orch-cloud-controller-manager', 'system:orch-cloud-controller-manager', [
    user('system:orch-cloud-controller-manager'),
  ]),
];
