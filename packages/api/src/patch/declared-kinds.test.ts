import { parse } from 'yaml';
import { DeploymentSchema } from '../kinds/apps/deployment';
import { PodSchema } from '../kinds/core/pod';
import { ObjectMetaSchema } from '../meta/object-meta';
import { strategicMergePatch, supportsStrategicMerge } from './strategic-merge-patch';

const y = (text: string): unknown => parse(text) as unknown;

const pod = (): unknown =>
  y(`
apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: {app: web, tier: front}
  finalizers: [example.com/a, example.com/b]
  ownerReferences:
  - {apiVersion: apps/v1, kind: ReplicaSet, name: web-1, uid: u1, controller: true}
spec:
  containers:
  - name: app
    image: nginx:1.19
    args: [--port, "8080", --verbose]
    ports: [{containerPort: 8080, protocol: TCP}, {containerPort: 9090, name: metrics, protocol: TCP}]
    env: [{name: A, value: "1"}, {name: B, value: "2"}]
    resources: {limits: {cpu: 500m, memory: 128Mi}}
  - name: sidecar
    image: busybox:1.32
  volumes:
  - name: data
    emptyDir: {}
  - name: conf
    configMap: {name: web-conf}
`);

/** What real clients send for built-in kinds, read from the declarations. */
describe('strategicMergePatch on declared kinds', () => {
  it('changes a container image by name (kubectl set image)', () => {
    const out = strategicMergePatch(
      pod(),
      y('spec: {containers: [{name: sidecar, image: busybox:1.33}]}'),
      PodSchema,
    ) as {
      spec: { containers: { name: string; image: string }[] };
    };
    expect(out.spec.containers.map((c) => [c.name, c.image])).toEqual([
      ['app', 'nginx:1.19'],
      ['sidecar', 'busybox:1.33'],
    ]);
  });

  it('adds, changes and removes env vars by name, ports by containerPort', () => {
    const out = strategicMergePatch(
      pod(),
      y(`
spec:
  containers:
  - name: app
    $setElementOrder/env: [{name: A}, {name: C}]
    env: [{name: C, value: "3"}, {name: B, $patch: delete}]
    ports: [{containerPort: 9090, name: prom}]`),
      PodSchema,
    ) as { spec: { containers: { env: unknown; ports: unknown; args: unknown }[] } };
    const app = out.spec.containers[0]!;
    expect(app.env).toEqual([
      { name: 'A', value: '1' },
      { name: 'C', value: '3' },
    ]);
    expect(app.ports).toEqual([
      { containerPort: 8080, protocol: 'TCP' },
      { containerPort: 9090, name: 'prom', protocol: 'TCP' },
    ]);
    expect(app.args).toEqual(['--port', '8080', '--verbose']);
  });

  it('replaces lists without a merge strategy (container args)', () => {
    const out = strategicMergePatch(
      pod(),
      y('spec: {containers: [{name: app, args: [--port, "80"]}]}'),
      PodSchema,
    ) as {
      spec: { containers: { args: unknown }[] };
    };
    expect(out.spec.containers[0]!.args).toEqual(['--port', '80']);
  });

  it('deletes a container with $patch: delete', () => {
    const out = strategicMergePatch(
      pod(),
      y('spec: {containers: [{name: sidecar, $patch: delete}]}'),
      PodSchema,
    ) as {
      spec: { containers: { name: string }[] };
    };
    expect(out.spec.containers.map((c) => c.name)).toEqual(['app']);
  });

  it('reorders containers with $setElementOrder', () => {
    const out = strategicMergePatch(
      pod(),
      y('spec: {$setElementOrder/containers: [{name: sidecar}, {name: app}]}'),
      PodSchema,
    ) as { spec: { containers: { name: string }[] } };
    expect(out.spec.containers.map((c) => c.name)).toEqual(['sidecar', 'app']);
  });

  it('merges and deletes finalizers ($deleteFromPrimitiveList/finalizers)', () => {
    const out = strategicMergePatch(
      pod(),
      y(`
metadata:
  $deleteFromPrimitiveList/finalizers: [example.com/a]
  finalizers: [example.com/c, example.com/b]`),
      PodSchema,
    ) as { metadata: { finalizers: string[] } };
    expect(out.metadata.finalizers).toEqual(['example.com/c', 'example.com/b']);
  });

  it('orders finalizers with $setElementOrder, server-only values interleaved by live order', () => {
    const original = y('finalizers: [b, e, a, c, d]');
    const patch = y(`
$setElementOrder/finalizers: [a, b, f]
$deleteFromPrimitiveList/finalizers: [c]
finalizers: [f]`);
    expect(strategicMergePatch(original, patch, ObjectMetaSchema)).toEqual({
      finalizers: ['e', 'a', 'b', 'f', 'd'],
    });
  });

  it('merges ownerReferences by uid', () => {
    const out = strategicMergePatch(
      pod(),
      y(
        'metadata: {ownerReferences: [{uid: u1, blockOwnerDeletion: true}, {uid: u2, apiVersion: v1, kind: Node, name: n}]}',
      ),
      PodSchema,
    ) as { metadata: { ownerReferences: unknown[] } };
    expect(out.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: 'web-1',
        uid: 'u1',
        controller: true,
        blockOwnerDeletion: true,
      },
      { uid: 'u2', apiVersion: 'v1', kind: 'Node', name: 'n' },
    ]);
  });

  it('deletes a label with null and keeps the others', () => {
    const out = strategicMergePatch(
      pod(),
      y('metadata: {labels: {tier: null, track: stable}}'),
      PodSchema,
    ) as {
      metadata: { labels: unknown };
    };
    expect(out.metadata.labels).toEqual({ app: 'web', track: 'stable' });
  });

  it('merges resource maps key by key and keeps quantities as they are', () => {
    const out = strategicMergePatch(
      pod(),
      y(
        'spec: {containers: [{name: app, resources: {limits: {memory: null, cpu: "1"}, requests: {cpu: 250m}}}]}',
      ),
      PodSchema,
    ) as { spec: { containers: { resources: unknown }[] } };
    expect(out.spec.containers[0]!.resources).toEqual({ limits: { cpu: '1' }, requests: { cpu: '250m' } });
  });

  it('switches a volume source with $retainKeys (merge,retainKeys list)', () => {
    const out = strategicMergePatch(
      pod(),
      y('spec: {volumes: [{name: data, $retainKeys: [name, hostPath], hostPath: {path: /srv}}]}'),
      PodSchema,
    ) as { spec: { volumes: unknown[] } };
    expect(out.spec.volumes).toEqual([
      { name: 'data', hostPath: { path: '/srv' } },
      { name: 'conf', configMap: { name: 'web-conf' } },
    ]);
  });

  const deployment = (): unknown =>
    y(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 25%, maxUnavailable: 1}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: nginx}]}
`);

  it('switches a Deployment to Recreate with $retainKeys, dropping rollingUpdate', () => {
    const out = strategicMergePatch(
      deployment(),
      y('spec: {strategy: {$retainKeys: [type], type: Recreate}}'),
      DeploymentSchema,
    ) as { spec: { strategy: unknown; replicas: number } };
    expect(out.spec.strategy).toEqual({ type: 'Recreate' });
    expect(out.spec.replicas).toBe(3);
  });

  it('keeps rollingUpdate when the type changes without $retainKeys (and int-or-string values as sent)', () => {
    const out = strategicMergePatch(
      deployment(),
      y('spec: {strategy: {rollingUpdate: {maxUnavailable: 0%, maxSurge: 2}}}'),
      DeploymentSchema,
    ) as { spec: { strategy: unknown } };
    expect(out.spec.strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 2, maxUnavailable: '0%' },
    });
  });

  it('does not modify its inputs and shares nothing with them', () => {
    const original = deployment();
    const patch = y('spec: {template: {spec: {containers: [{name: app, image: nginx:2}]}}}');
    const before = JSON.stringify([original, patch]);
    const out = strategicMergePatch(original, patch, DeploymentSchema) as {
      spec: { selector: { matchLabels: Record<string, string> } };
    };
    expect(JSON.stringify([original, patch])).toBe(before);
    out.spec.selector.matchLabels.app = 'changed';
    expect(JSON.stringify(original)).toContain('"app":"web"');
  });

  it('treats an empty or missing patch as no change and rejects non-objects', () => {
    expect(strategicMergePatch(deployment(), {}, DeploymentSchema)).toEqual(deployment());
    expect(strategicMergePatch(deployment(), null, DeploymentSchema)).toEqual(deployment());
    expect(() => strategicMergePatch(deployment(), [1], DeploymentSchema)).toThrow('invalid JSON document');
  });

  it('supports strategic merge only for declared structs', () => {
    expect(supportsStrategicMerge(PodSchema)).toBe(true);
    expect(supportsStrategicMerge(DeploymentSchema)).toBe(true);
    expect(
      supportsStrategicMerge({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true } as never),
    ).toBe(false);
    expect(supportsStrategicMerge({ type: 'object', properties: {} } as never)).toBe(false);
  });
});
