import { allKinds } from './index';
import { apiVersionOf } from '../schema/kind';
import { compileKind } from '../validation/compile-kind';
import { ProtobufCodec } from '../protobuf/protobuf-codec';
import { buildOpenAPIv2, buildOpenAPIv3, openAPIv3PathOf } from '../openapi/openapi-document';
import { RESTMapper } from '../restmapping/rest-mapper';
import { columnDefinitions, columnsOf, toTable } from '../table/table-convertor';
import { sampleOf } from '../testing/sample-object';

/** Every declared kind gets everything derived from its declaration: adding a kind is adding one file. */
/** Core and events.k8s.io Events print the same columns. */
const eventColumns = [
  'Last Seen:string',
  'Type:string',
  'Reason:string',
  'Object:string',
  'Subobject:string:wide',
  'Source:string:wide',
  'Message:string',
  'First Seen:string:wide',
  'Count:string:wide',
  'Name:string:name:wide',
];

describe('every declared kind', () => {
  const mapper = new RESTMapper(allKinds);
  const codec = new ProtobufCodec(allKinds);
  const openapi = buildOpenAPIv2(mapper.all(), { title: 'orch', version: 'test' }) as {
    definitions: Record<
      string,
      { 'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[] }
    >;
    paths: Record<string, unknown>;
  };
  const cases = allKinds.flatMap((decl) =>
    decl.versions.map(
      (version) => [`${apiVersionOf(decl.group, version)} ${decl.kind}`, decl, version] as const,
    ),
  );

  it('declares the kinds the issue names', () => {
    const names = new Set(allKinds.map((d) => `${d.group}/${d.kind}`));
    for (const k of [
      '/Namespace',
      '/Pod',
      '/Node',
      '/Service',
      '/Endpoints',
      '/ConfigMap',
      '/Secret',
      '/ServiceAccount',
      '/Event',
      '/Binding',
      '/ReplicationController',
      '/PodTemplate',
      '/ResourceQuota',
      '/LimitRange',
      '/PersistentVolume',
      '/PersistentVolumeClaim',
      'apps/Deployment',
      'apps/ReplicaSet',
      'apps/DaemonSet',
      'apps/StatefulSet',
      'apps/ControllerRevision',
      'batch/Job',
      'batch/CronJob',
      'autoscaling/Scale',
      'autoscaling/HorizontalPodAutoscaler',
      'coordination.k8s.io/Lease',
      'events.k8s.io/Event',
      'discovery.k8s.io/EndpointSlice',
      'networking.k8s.io/Ingress',
      'networking.k8s.io/IngressClass',
      'networking.k8s.io/NetworkPolicy',
      'policy/PodDisruptionBudget',
      'policy/Eviction',
      'scheduling.k8s.io/PriorityClass',
      'rbac.authorization.k8s.io/Role',
      'rbac.authorization.k8s.io/ClusterRole',
      'rbac.authorization.k8s.io/RoleBinding',
      'rbac.authorization.k8s.io/ClusterRoleBinding',
      'authentication.k8s.io/TokenReview',
      'authentication.k8s.io/TokenRequest',
      'authorization.k8s.io/SubjectAccessReview',
      'authorization.k8s.io/SelfSubjectAccessReview',
      'authorization.k8s.io/LocalSubjectAccessReview',
      'authorization.k8s.io/SelfSubjectRulesReview',
      'certificates.k8s.io/CertificateSigningRequest',
      'storage.k8s.io/StorageClass',
      'storage.k8s.io/VolumeAttachment',
      'storage.k8s.io/CSINode',
    ]) {
      expect(names).toContain(k);
    }
    expect(mapper.forKind('batch', 'v1beta1', 'CronJob')).toBeDefined();
  });

  it.each(cases)(
    '%s: REST mapping, validator, defaults, OpenAPI, protobuf and table',
    (_name, decl, version) => {
      // REST mapping by every name a user types
      const mapping = mapper.forResource(decl.group, version, decl.plural)!;
      expect(mapping.gvk).toEqual({ group: decl.group, version, kind: decl.kind });
      expect(mapping.namespaced).toBe(decl.namespaced);
      for (const name of [decl.plural, decl.singular, ...(decl.shortNames ?? [])]) {
        // a name the core group's kinds also have is theirs (metrics.k8s.io nodes and pods): typed qualified
        const core = decl.group !== '' && mapper.resolve(name)?.gvk.group === '';
        expect(mapper.resolve(core ? `${name}.${decl.group}` : name)?.gvk.kind).toBe(decl.kind);
      }

      // validator and defaults compiled from the declaration, runnable on the fullest object
      const compiled = compileKind(decl);
      const sample = {
        apiVersion: apiVersionOf(decl.group, version),
        kind: decl.kind,
        ...(sampleOf(decl.schema) as object),
      } as Record<string, unknown>;
      expect(compiled.prune(structuredClone(sample)).unknown).toEqual([]);
      const defaulted = structuredClone(sample);
      compiled.default(defaulted);
      expect(Array.isArray(compiled.validate(defaulted))).toBe(true);
      const empty = {
        apiVersion: sample.apiVersion,
        kind: decl.kind,
        metadata: { name: 'x', namespace: decl.namespaced ? 'ns' : undefined },
      };
      compiled.default(empty);
      expect(Array.isArray(compiled.validate(empty))).toBe(true);

      // OpenAPI v2 definition carrying the group/version/kind, v3 document per group/version
      const def = Object.values(openapi.definitions).find((d) =>
        (d['x-kubernetes-group-version-kind'] ?? []).some(
          (g) => g.group === decl.group && g.version === version && g.kind === decl.kind,
        ),
      );
      expect(def).toBeDefined();
      const v3 = buildOpenAPIv3([mapping], { title: 'orch', version: 'test' }) as {
        components: { schemas: object };
      };
      expect(Object.keys(v3.components.schemas).length).toBeGreaterThan(0);
      expect(openAPIv3PathOf(decl.group, version)).toBe(
        decl.group ? `apis/${decl.group}/${version}` : `api/${version}`,
      );

      // protobuf: every field round-trips JSON -> protobuf -> JSON unchanged
      // (JSON-only kinds have none, as in Kubernetes)
      expect(codec.supports(sample.apiVersion as string, decl.kind)).toBe(!decl.jsonOnly);
      if (!decl.jsonOnly) expect(codec.decode(codec.encode(sample))).toEqual(sample);

      // table columns (the kind's own or Name / Created At)
      const columns = columnsOf(decl);
      expect(columns.length).toBeGreaterThanOrEqual(2);
      const table = toTable(decl, [sample as never], { now: new Date('2026-11-23T00:00:00Z') });
      expect(table.rows?.[0]?.cells).toHaveLength(columns.length);
    },
  );
});

describe('tables', () => {
  it('declare the columns of Kubernetes 1.29 for every served kind', () => {
    // name:type[:format][:wide] of each column, as Kubernetes 1.29's server printers declare them
    // (Name / Created At for the kinds it has no printer for; the metrics server's for metrics)
    const expected: Record<string, string[]> = {
      '/ConfigMap': ['Name:string:name', 'Data:string', 'Age:string'],
      '/Pod': [
        'Name:string:name',
        'Ready:string',
        'Status:string',
        'Restarts:string',
        'Age:string',
        'IP:string:wide',
        'Node:string:wide',
        'Nominated Node:string:wide',
        'Readiness Gates:string:wide',
      ],
      '/PodTemplate': ['Name:string:name', 'Containers:string', 'Images:string', 'Pod Labels:string'],
      '/ReplicationController': [
        'Name:string:name',
        'Desired:integer',
        'Current:integer',
        'Ready:integer',
        'Age:string',
        'Containers:string:wide',
        'Images:string:wide',
        'Selector:string:wide',
      ],
      '/Namespace': ['Name:string:name', 'Status:string', 'Age:string'],
      '/Node': [
        'Name:string:name',
        'Status:string',
        'Roles:string',
        'Age:string',
        'Version:string',
        'Internal-IP:string:wide',
        'External-IP:string:wide',
        'OS-Image:string:wide',
        'Kernel-Version:string:wide',
        'Container-Runtime:string:wide',
      ],
      '/Service': [
        'Name:string:name',
        'Type:string',
        'Cluster-IP:string',
        'External-IP:string',
        'Port(s):string',
        'Age:string',
        'Selector:string:wide',
      ],
      '/Endpoints': ['Name:string:name', 'Endpoints:string', 'Age:string'],
      '/Secret': ['Name:string:name', 'Type:string', 'Data:string', 'Age:string'],
      '/ServiceAccount': ['Name:string:name', 'Secrets:string', 'Age:string'],
      '/Event': eventColumns,
      '/Binding': ['Name:string:name', 'Created At:date'],
      '/ResourceQuota': ['Name:string:name', 'Age:string', 'Request:string', 'Limit:string'],
      '/LimitRange': ['Name:string:name', 'Created At:date'],
      '/PersistentVolume': [
        'Name:string:name',
        'Capacity:string',
        'Access Modes:string',
        'Reclaim Policy:string',
        'Status:string',
        'Claim:string',
        'StorageClass:string',
        'VolumeAttributesClass:string',
        'Reason:string',
        'Age:string',
        'VolumeMode:string:wide',
      ],
      '/PersistentVolumeClaim': [
        'Name:string:name',
        'Status:string',
        'Volume:string',
        'Capacity:string',
        'Access Modes:string',
        'StorageClass:string',
        'VolumeAttributesClass:string',
        'Age:string',
        'VolumeMode:string:wide',
      ],
      'apps/Deployment': [
        'Name:string:name',
        'Ready:string',
        'Up-to-date:string',
        'Available:string',
        'Age:string',
        'Containers:string:wide',
        'Images:string:wide',
        'Selector:string:wide',
      ],
      'apps/ReplicaSet': [
        'Name:string:name',
        'Desired:integer',
        'Current:integer',
        'Ready:integer',
        'Age:string',
        'Containers:string:wide',
        'Images:string:wide',
        'Selector:string:wide',
      ],
      'apps/DaemonSet': [
        'Name:string:name',
        'Desired:integer',
        'Current:integer',
        'Ready:integer',
        'Up-to-date:integer',
        'Available:integer',
        'Node Selector:string',
        'Age:string',
        'Containers:string:wide',
        'Images:string:wide',
        'Selector:string:wide',
      ],
      'apps/StatefulSet': [
        'Name:string:name',
        'Ready:string',
        'Age:string',
        'Containers:string:wide',
        'Images:string:wide',
      ],
      'apps/ControllerRevision': ['Name:string:name', 'Controller:string', 'Revision:string', 'Age:string'],
      'batch/Job': [
        'Name:string:name',
        'Completions:string',
        'Duration:string',
        'Age:string',
        'Containers:string:wide',
        'Images:string:wide',
        'Selector:string:wide',
      ],
      'batch/CronJob': [
        'Name:string:name',
        'Schedule:string',
        'Suspend:boolean',
        'Active:integer',
        'Last Schedule:string',
        'Age:string',
        'Containers:string:wide',
        'Images:string:wide',
        'Selector:string:wide',
      ],
      'autoscaling/HorizontalPodAutoscaler': [
        'Name:string:name',
        'Reference:string',
        'Targets:string',
        'MinPods:string',
        'MaxPods:string',
        'Replicas:string',
        'Age:string',
      ],
      'autoscaling/Scale': ['Name:string', 'Desired:integer', 'Available:integer', 'Age:string'],
      'coordination.k8s.io/Lease': ['Name:string:name', 'Holder:string', 'Age:string'],
      'discovery.k8s.io/EndpointSlice': [
        'Name:string:name',
        'AddressType:string',
        'Ports:string',
        'Endpoints:string',
        'Age:string',
      ],
      'networking.k8s.io/Ingress': [
        'Name:string:name',
        'Class:string',
        'Hosts:string',
        'Address:string',
        'Ports:string',
        'Age:string',
      ],
      'networking.k8s.io/IngressClass': [
        'Name:string:name',
        'Controller:string',
        'Parameters:string',
        'Age:string',
      ],
      'networking.k8s.io/NetworkPolicy': ['Name:string:name', 'Pod-Selector:string', 'Age:string'],
      'events.k8s.io/Event': eventColumns,
      'policy/PodDisruptionBudget': [
        'Name:string:name',
        'Min Available:string',
        'Max Unavailable:string',
        'Allowed Disruptions:integer',
        'Age:string',
      ],
      'policy/Eviction': ['Name:string:name', 'Created At:date'],
      'scheduling.k8s.io/PriorityClass': [
        'Name:string:name',
        'Value:integer',
        'Global-Default:boolean',
        'Age:string',
      ],
      'rbac.authorization.k8s.io/Role': ['Name:string:name', 'Created At:date'],
      'rbac.authorization.k8s.io/ClusterRole': ['Name:string:name', 'Created At:date'],
      'rbac.authorization.k8s.io/RoleBinding': [
        'Name:string:name',
        'Role:string',
        'Age:string',
        'Users:string:wide',
        'Groups:string:wide',
        'ServiceAccounts:string:wide',
      ],
      'rbac.authorization.k8s.io/ClusterRoleBinding': [
        'Name:string:name',
        'Role:string',
        'Age:string',
        'Users:string:wide',
        'Groups:string:wide',
        'ServiceAccounts:string:wide',
      ],
      'authentication.k8s.io/TokenReview': ['Name:string:name', 'Created At:date'],
      'authentication.k8s.io/TokenRequest': ['Name:string:name', 'Created At:date'],
      'authentication.k8s.io/SelfSubjectReview': ['Name:string:name', 'Created At:date'],
      'authorization.k8s.io/SubjectAccessReview': ['Name:string:name', 'Created At:date'],
      'authorization.k8s.io/SelfSubjectAccessReview': ['Name:string:name', 'Created At:date'],
      'authorization.k8s.io/LocalSubjectAccessReview': ['Name:string:name', 'Created At:date'],
      'authorization.k8s.io/SelfSubjectRulesReview': ['Name:string:name', 'Created At:date'],
      'certificates.k8s.io/CertificateSigningRequest': [
        'Name:string:name',
        'Age:string',
        'SignerName:string',
        'Requestor:string',
        'RequestedDuration:string',
        'Condition:string',
      ],
      'storage.k8s.io/StorageClass': [
        'Name:string:name',
        'Provisioner:string',
        'ReclaimPolicy:string',
        'VolumeBindingMode:string',
        'AllowVolumeExpansion:string',
        'Age:string',
      ],
      'storage.k8s.io/VolumeAttachment': [
        'Name:string:name',
        'Attacher:string:name',
        'PV:string',
        'Node:string',
        'Attached:boolean',
        'Age:string',
      ],
      'storage.k8s.io/CSINode': ['Name:string:name', 'Drivers:integer', 'Age:string'],
      'apiextensions.k8s.io/CustomResourceDefinition': ['Name:string:name', 'Created At:date'],
      'metrics.k8s.io/NodeMetrics': [
        'Name:string:name',
        'cpu:string:quantity',
        'memory:string:quantity',
        'Window:string:duration',
      ],
      'metrics.k8s.io/PodMetrics': [
        'Name:string:name',
        'cpu:string:quantity',
        'memory:string:quantity',
        'Window:string:duration',
      ],
    };
    const declared = Object.fromEntries(
      allKinds.map((decl) => [
        `${decl.group}/${decl.kind}`,
        columnDefinitions(decl).map(
          (c) => `${c.name}:${c.type}${c.format ? `:${c.format}` : ''}${c.priority ? ':wide' : ''}`,
        ),
      ]),
    );
    expect(declared).toEqual(expected);
  });
});
