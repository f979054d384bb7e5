import { allKinds } from './index';
import { apiVersionOf } from '../schema/kind';
import { compileKind } from '../validation/compile-kind';
import { ProtobufCodec } from '../protobuf/protobuf-codec';
import { buildOpenAPIv2, buildOpenAPIv3, openAPIv3PathOf } from '../openapi/openapi-document';
import { RESTMapper } from '../restmapping/rest-mapper';
import { columnsOf, toTable } from '../table/table-convertor';
import { sampleOf } from '../testing/sample-object';

/** Every declared kind gets everything derived from its declaration: adding a kind is adding one file. */
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
