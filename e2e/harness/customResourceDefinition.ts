import { eventually } from '@orch/apiserver';
import type { KubeObject, RestClient } from '@orch/client';

/** What a test custom resource kind is called and where it is served. */
export interface TestCRDNames {
  group: string;
  plural: string;
  kind: string;
  scope?: 'Namespaced' | 'Cluster';
  /** Served versions, the storage one first; ['v1'] unless given. */
  versions?: string[];
}

/**
 * Creates a CustomResourceDefinition with a schema keeping any field (x-kubernetes-preserve-unknown-fields)
 * and waits until it is Established, so its custom resources are served and discovered.
 */
export async function createTestCRD(rest: RestClient, names: TestCRDNames): Promise<KubeObject> {
  const name = `${names.plural}.${names.group}`;
  const versions = names.versions ?? ['v1'];
  await rest
    .post()
    .group('apiextensions.k8s.io')
    .version('v1')
    .resource('customresourcedefinitions')
    .body({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name },
      spec: {
        group: names.group,
        scope: names.scope ?? 'Namespaced',
        names: { plural: names.plural, kind: names.kind },
        versions: versions.map((v, i) => ({
          name: v,
          served: true,
          storage: i === 0,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        })),
      },
    })
    .do();
  return eventually(
    async () => {
      const crd = await rest
        .get()
        .group('apiextensions.k8s.io')
        .version('v1')
        .resource('customresourcedefinitions')
        .name(name)
        .do<KubeObject & { status?: { conditions?: { type: string; status: string }[] } }>();
      return crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')
        ? crd
        : undefined;
    },
    `${name} to be established`,
    10_000,
  );
}
