import {
  rbacGroup,
  type BindingObject,
  type PolicyRule,
  type RoleObject,
  type Subject,
} from './rbac-objects';
import { binding, clusterRole, namespacedBinding, namespacedRole, read, rule } from './bootstrap-roles';

/** The namespace of the controllers' service accounts (--use-service-account-credentials). */
export const controllerServiceAccountNamespace = 'orch-system';

const events: PolicyRule[] = [
  rule(['create', 'update', 'patch'], [''], ['events']),
  rule(['create', 'update', 'patch'], ['events.k8s.io'], ['events']),
];

/**
 * What each controller of orch-controller-manager may do when it runs as its own service account
 * (--use-service-account-credentials), by that service account's name: Kubernetes' controller
 * policy. The controllers read through the manager's shared informers; these rules cover what they
 * read and write through their own clients.
 */
const controllerRules: Record<string, PolicyRule[]> = {
  'attachdetach-controller': [
    rule(['list', 'watch'], [''], ['persistentvolumes', 'persistentvolumeclaims']),
    rule(['get', 'list', 'watch'], [''], ['nodes']),
    rule(['patch', 'update'], [''], ['nodes/status']),
    rule(['list', 'watch'], [''], ['pods']),
    rule(['get', 'create', 'delete', 'list', 'watch'], ['storage.k8s.io'], ['volumeattachments']),
    rule(['get', 'list', 'watch'], ['storage.k8s.io'], ['csidrivers']),
    rule(['get', 'list', 'watch'], ['storage.k8s.io'], ['csinodes']),
  ],
  'cronjob-controller': [
    rule(['get', 'list', 'watch', 'update'], ['batch'], ['cronjobs']),
    rule(['get', 'list', 'watch', 'create', 'update', 'delete', 'patch'], ['batch'], ['jobs']),
    rule(['update'], ['batch'], ['cronjobs/status']),
    rule(['update'], ['batch'], ['cronjobs/finalizers']),
    rule(['list', 'delete'], [''], ['pods']),
  ],
  'daemon-set-controller': [
    rule(read, ['apps', 'extensions'], ['daemonsets']),
    rule(['update'], ['apps', 'extensions'], ['daemonsets/status']),
    rule(['update'], ['apps', 'extensions'], ['daemonsets/finalizers']),
    rule(['list', 'watch'], [''], ['nodes']),
    rule(['list', 'watch', 'create', 'delete', 'patch'], [''], ['pods']),
    rule(['create'], [''], ['pods/binding']),
    rule(['get', 'list', 'watch', 'create', 'delete', 'update', 'patch'], ['apps'], ['controllerrevisions']),
  ],
  'deployment-controller': [
    rule(['get', 'list', 'watch', 'update', 'patch'], ['apps', 'extensions'], ['deployments']),
    rule(['update'], ['apps', 'extensions'], ['deployments/status']),
    rule(['update'], ['apps', 'extensions'], ['deployments/finalizers']),
    rule(
      ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
      ['apps', 'extensions'],
      ['replicasets'],
    ),
    rule(['get', 'list', 'watch', 'update'], [''], ['pods']),
  ],
  'disruption-controller': [
    rule(read, ['apps', 'extensions'], ['deployments']),
    rule(read, ['apps', 'extensions'], ['replicasets']),
    rule(read, [''], ['replicationcontrollers']),
    rule(read, ['policy'], ['poddisruptionbudgets']),
    rule(read, ['apps'], ['statefulsets']),
    rule(['update'], ['policy'], ['poddisruptionbudgets/status']),
    rule(['get'], ['*'], ['*/scale']),
    rule(['patch', 'update'], [''], ['pods/status']),
  ],
  'endpoint-controller': [
    rule(read, [''], ['services', 'pods']),
    rule(['get', 'list', 'create', 'update', 'delete'], [''], ['endpoints']),
    rule(['create'], [''], ['endpoints/restricted']),
  ],
  'endpointslice-controller': [
    rule(read, [''], ['services', 'pods', 'nodes']),
    // slices owned by a service with blockOwnerDeletion need the right to set the service's finalizers
    rule(['update'], [''], ['services/finalizers']),
    rule(['get', 'list', 'create', 'update', 'delete'], ['discovery.k8s.io'], ['endpointslices']),
  ],
  'expand-controller': [
    rule(['get', 'list', 'watch', 'update', 'patch'], [''], ['persistentvolumes']),
    rule(['update', 'patch'], [''], ['persistentvolumeclaims/status']),
    rule(['get', 'list', 'watch'], [''], ['persistentvolumeclaims']),
    rule(['get', 'list', 'watch'], ['storage.k8s.io'], ['storageclasses']),
    rule(['get'], [''], ['services', 'endpoints']),
    rule(['get'], [''], ['secrets']),
  ],
  'generic-garbage-collector': [rule(['get', 'list', 'watch', 'patch', 'update', 'delete'], ['*'], ['*'])],
  'horizontal-pod-autoscaler': [
    rule(['get', 'list', 'watch'], ['autoscaling'], ['horizontalpodautoscalers']),
    rule(['update'], ['autoscaling'], ['horizontalpodautoscalers/status']),
    rule(['get', 'update'], ['*'], ['*/scale']),
    rule(['list'], [''], ['pods']),
    // the resource metrics API and the custom metrics API
    rule(['list'], ['metrics.k8s.io'], ['pods']),
    rule(['get', 'list'], ['custom.metrics.k8s.io'], ['*']),
  ],
  'job-controller': [
    rule(['get', 'list', 'watch', 'update', 'patch'], ['batch'], ['jobs']),
    rule(['update', 'patch'], ['batch'], ['jobs/status']),
    rule(['update'], ['batch'], ['jobs/finalizers']),
    rule(['list', 'watch', 'create', 'delete', 'patch'], [''], ['pods']),
  ],
  'namespace-controller': [
    rule(['get', 'list', 'watch', 'delete'], [''], ['namespaces']),
    rule(['update'], [''], ['namespaces/finalize', 'namespaces/status']),
    rule(['get', 'list', 'delete', 'deletecollection'], ['*'], ['*']),
  ],
  'node-controller': [
    rule(['get', 'list', 'update', 'delete', 'patch'], [''], ['nodes']),
    rule(['patch', 'update'], [''], ['nodes/status']),
    rule(['patch', 'update'], [''], ['pods/status']),
    rule(['list', 'delete'], [''], ['pods']),
    rule(read, ['coordination.k8s.io'], ['leases']),
  ],
  'persistent-volume-binder': [
    rule(['get', 'list', 'watch', 'update', 'create', 'delete'], [''], ['persistentvolumes']),
    rule(['update'], [''], ['persistentvolumes/status']),
    rule(['get', 'list', 'watch', 'update'], [''], ['persistentvolumeclaims']),
    rule(['update'], [''], ['persistentvolumeclaims/status']),
    rule(['list', 'watch', 'get', 'create', 'delete'], [''], ['pods']),
    rule(['get', 'list', 'watch'], ['storage.k8s.io'], ['storageclasses']),
    rule(['get', 'list'], [''], ['nodes']),
    rule(['watch'], [''], ['events']),
  ],
  'pv-protection-controller': [rule(['get', 'list', 'watch', 'update'], [''], ['persistentvolumes'])],
  'pvc-protection-controller': [
    rule(['get', 'list', 'watch', 'update'], [''], ['persistentvolumeclaims']),
    rule(['list', 'watch', 'get'], [''], ['pods']),
  ],
  'pod-garbage-collector': [
    rule(['list', 'watch', 'delete'], [''], ['pods']),
    rule(['get', 'list'], [''], ['nodes']),
    rule(['patch'], [''], ['pods/status']),
  ],
  'replicaset-controller': [
    rule(['get', 'list', 'watch', 'update'], ['apps', 'extensions'], ['replicasets']),
    rule(['update'], ['apps', 'extensions'], ['replicasets/status']),
    rule(['update'], ['apps', 'extensions'], ['replicasets/finalizers']),
    rule(['list', 'watch', 'patch', 'create', 'delete'], [''], ['pods']),
  ],
  'replication-controller': [
    rule(['get', 'list', 'watch', 'update'], [''], ['replicationcontrollers']),
    rule(['update'], [''], ['replicationcontrollers/status']),
    rule(['update'], [''], ['replicationcontrollers/finalizers']),
    rule(['list', 'watch', 'patch', 'create', 'delete'], [''], ['pods']),
  ],
  'resourcequota-controller': [
    rule(['list', 'watch'], ['*'], ['*']),
    rule(['update'], [''], ['resourcequotas/status']),
  ],
  'root-ca-cert-publisher': [rule(['create', 'update'], [''], ['configmaps'])],
  'service-account-controller': [rule(['create'], [''], ['serviceaccounts'])],
  // the cloud controller manager's: its cloud-node and cloud-node-lifecycle controllers act as node-controller
  'route-controller': [rule(['list', 'watch'], [''], ['nodes']), rule(['patch'], [''], ['nodes/status'])],
  'service-controller': [
    rule(['get', 'list', 'watch'], [''], ['services']),
    rule(['patch', 'update'], [''], ['services']),
    rule(['patch', 'update'], [''], ['services/status']),
    rule(['list', 'watch'], [''], ['nodes']),
  ],
  'statefulset-controller': [
    rule(['list', 'watch'], [''], ['pods']),
    rule(['get', 'create', 'delete', 'update', 'patch'], [''], ['pods']),
    rule(['list', 'watch'], ['apps'], ['statefulsets']),
    rule(['get'], ['apps'], ['statefulsets']),
    rule(['update'], ['apps'], ['statefulsets/status']),
    rule(['update'], ['apps'], ['statefulsets/finalizers']),
    rule(['get', 'create', 'update', 'patch'], [''], ['persistentvolumeclaims']),
    rule(['get', 'list', 'watch', 'create', 'delete', 'update', 'patch'], ['apps'], ['controllerrevisions']),
  ],
  'ttl-after-finished-controller': [rule(['get', 'list', 'watch', 'delete'], ['batch'], ['jobs'])],
  'certificate-controller': [
    rule(['get', 'list', 'watch', 'delete'], ['certificates.k8s.io'], ['certificatesigningrequests']),
    rule(
      ['update'],
      ['certificates.k8s.io'],
      ['certificatesigningrequests/status', 'certificatesigningrequests/approval'],
    ),
    rule(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kube-apiserver-client-kubelet']),
    rule(
      ['sign'],
      ['certificates.k8s.io'],
      ['signers'],
      [
        'kubernetes.io/kube-apiserver-client',
        'kubernetes.io/kube-apiserver-client-kubelet',
        'kubernetes.io/kubelet-serving',
        'kubernetes.io/legacy-unknown',
      ],
    ),
    rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
  ],
  'clusterrole-aggregation-controller': [
    rule(['escalate', 'get', 'list', 'watch', 'update', 'patch'], [rbacGroup], ['clusterroles']),
  ],
  'ttl-controller': [rule(['update', 'patch', 'list', 'watch'], [''], ['nodes'])],
};

const serviceAccount = (name: string): Subject => ({
  kind: 'ServiceAccount',
  name,
  namespace: controllerServiceAccountNamespace,
});

/** The controllers' cluster roles, `system:controller:<service account>`, with the rights to send events. */
export const controllerClusterRoles: RoleObject[] = Object.entries(controllerRules).map(([name, rules]) =>
  clusterRole(`system:controller:${name}`, [...rules, ...events]),
);

/** Each controller role bound to its service account in orch-system. */
export const controllerClusterRoleBindings: BindingObject[] = Object.keys(controllerRules).map((name) =>
  binding(`system:controller:${name}`, `system:controller:${name}`, [serviceAccount(name)]),
);

/** The namespace of the bootstrap token Secrets, and that of the public cluster-info ConfigMap. */
const tokenNamespace = controllerServiceAccountNamespace;
const publicNamespace = 'orch-public';
const namespacedEvents = rule(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']);

/**
 * The controllers whose rights Kubernetes' policy gives by Roles of a few namespaces rather than by
 * a cluster role: by namespace, then by service account.
 */
const controllerNamespacedRules: Record<string, Record<string, PolicyRule[]>> = {
  [tokenNamespace]: {
    'bootstrap-signer': [rule(read, [''], ['secrets'])],
    'token-cleaner': [rule(['delete', 'get', 'list', 'watch'], [''], ['secrets']), namespacedEvents],
  },
  [publicNamespace]: {
    'bootstrap-signer': [
      rule(read, [''], ['configmaps']),
      rule(['update'], [''], ['configmaps'], ['cluster-info']),
      namespacedEvents,
    ],
  },
};

const namespacedEntries = Object.entries(controllerNamespacedRules).flatMap(([namespace, byAccount]) =>
  Object.entries(byAccount).map(([name, rules]) => ({ namespace, name, rules })),
);

/** The controllers' Roles, `system:controller:<service account>` in their namespaces. */
export const controllerRoles: RoleObject[] = namespacedEntries.map(({ namespace, name, rules }) =>
  namespacedRole(namespace, `system:controller:${name}`, rules),
);

/** Each controller Role bound, in its namespace, to the controller's service account in orch-system. */
export const controllerRoleBindings: BindingObject[] = namespacedEntries.map(({ namespace, name }) =>
  namespacedBinding(namespace, `system:controller:${name}`, `system:controller:${name}`, [
    serviceAccount(name),
  ]),
);
