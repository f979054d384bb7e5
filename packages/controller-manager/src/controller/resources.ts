import type { ResourceDescriptor } from '@orch/client';

const core = (resource: string, namespaced = true): ResourceDescriptor => ({
  group: '',
  version: 'v1',
  resource,
  namespaced,
});

/** The resources the controllers read and write. */
export const RESOURCES = {
  pods: core('pods'),
  nodes: core('nodes', false),
  namespaces: core('namespaces', false),
  serviceaccounts: core('serviceaccounts'),
  events: core('events'),
  endpoints: core('endpoints'),
  endpointslices: {
    group: 'discovery.k8s.io',
    version: 'v1beta1',
    resource: 'endpointslices',
    namespaced: true,
  },
  services: core('services'),
  persistentvolumeclaims: core('persistentvolumeclaims'),
  configmaps: core('configmaps'),
  secrets: core('secrets'),
  replicationcontrollers: core('replicationcontrollers'),
  replicasets: { group: 'apps', version: 'v1', resource: 'replicasets', namespaced: true },
  daemonsets: { group: 'apps', version: 'v1', resource: 'daemonsets', namespaced: true },
  controllerrevisions: {
    group: 'apps',
    version: 'v1',
    resource: 'controllerrevisions',
    namespaced: true,
  },
  statefulsets: { group: 'apps', version: 'v1', resource: 'statefulsets', namespaced: true },
  poddisruptionbudgets: {
    group: 'policy',
    version: 'v1',
    resource: 'poddisruptionbudgets',
    namespaced: true,
  },
  deployments: { group: 'apps', version: 'v1', resource: 'deployments', namespaced: true },
  jobs: { group: 'batch', version: 'v1', resource: 'jobs', namespaced: true },
  cronjobs: { group: 'batch', version: 'v1', resource: 'cronjobs', namespaced: true },
  horizontalpodautoscalers: {
    group: 'autoscaling',
    version: 'v1',
    resource: 'horizontalpodautoscalers',
    namespaced: true,
  },
  leases: { group: 'coordination.k8s.io', version: 'v1', resource: 'leases', namespaced: true },
  clusterroles: {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    resource: 'clusterroles',
    namespaced: false,
  },
  certificatesigningrequests: {
    group: 'certificates.k8s.io',
    version: 'v1',
    resource: 'certificatesigningrequests',
    namespaced: false,
  },
} satisfies Record<string, ResourceDescriptor>;
