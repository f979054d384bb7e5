import { ConfigMapKind, DeploymentKind, NamespaceKind, type Deployment } from '@orch/api';
import { eventually } from '@orch/apiserver';
import {
  clientFor,
  DiscoveryClient,
  GroupDiscoveryFailedError,
  isNotFound,
  type KubeObject,
  type TypedClient,
} from '@orch/client';
import { CONTROLLER_REGISTRY, GarbageCollector, NamespaceController } from '@orch/controller-manager';
import { createTestCRD } from '../harness/customResourceDefinition';
import { startCluster, type Cluster } from './harness';

jest.setTimeout(60_000);

const GROUP = 'gc.example.com';
const HOLD = 'example.com/hold';

let cluster: Cluster;
let widgets: TypedClient<KubeObject>;

beforeAll(async () => {
  cluster = await startCluster({
    // Kubernetes' garbage collector reads discovery every 30 s; the test does not wait that long.
    registry: {
      ...CONTROLLER_REGISTRY,
      garbagecollector: {
        ...CONTROLLER_REGISTRY.garbagecollector!,
        start: (ctx) => new GarbageCollector(ctx, { discoveryResyncMs: 200 }),
      },
    },
  });
  await createTestCRD(cluster.rest, { group: GROUP, plural: 'widgets', kind: 'Widget' });
  widgets = clientFor(cluster.rest, { group: GROUP, version: 'v1', resource: 'widgets', namespaced: true });
});
afterAll(async () => {
  await cluster?.close();
});

const gone = (get: () => Promise<unknown>, what: string): Promise<true> =>
  eventually(
    () =>
      get().then(
        () => false as const,
        (err: unknown) => (isNotFound(err) ? true : Promise.reject(err)),
      ),
    what,
    20_000,
  );

type Ref = NonNullable<NonNullable<KubeObject['metadata']>['ownerReferences']>[number];
const ownerRef = (owner: KubeObject, blockOwnerDeletion?: boolean): Ref => ({
  apiVersion: owner.apiVersion ?? '',
  kind: owner.kind ?? '',
  name: owner.metadata?.name ?? '',
  uid: owner.metadata?.uid ?? '',
  ...(blockOwnerDeletion !== undefined ? { blockOwnerDeletion } : {}),
});

const widget = (name: string, namespace: string, meta: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: `${GROUP}/v1`,
  kind: 'Widget',
  metadata: { name, namespace, ...meta },
  spec: { size: 'small' },
});

describe('garbage collection and namespace deletion of custom resources (discovered at run time)', () => {
  it('collects a custom resource whose owner does not exist once discovery reports its kind', async () => {
    await widgets.create(
      widget('orphaned', 'default', {
        ownerReferences: [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'never', uid: '0b7b1a9e-5f05-4e5e-9d0c-4b1c8a3e2f11' },
        ],
      }),
    );
    await gone(() => widgets.get('orphaned', { namespace: 'default' }), 'the widget without owner to go');
  });

  it('collects a ConfigMap owned by a custom resource when the custom resource is deleted', async () => {
    const owner = await widgets.create(widget('owner', 'default'));
    const configMaps = clientFor(cluster.rest, ConfigMapKind);
    await configMaps.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'owned-by-widget', namespace: 'default', ownerReferences: [ownerRef(owner)] },
      data: { a: 'b' },
    });
    // The owner still exists: the dependent stays.
    await new Promise((r) => setTimeout(r, 500));
    await configMaps.get('owned-by-widget', { namespace: 'default' });
    await widgets.delete('owner', { namespace: 'default' });
    await gone(() => configMaps.get('owned-by-widget', { namespace: 'default' }), 'the ConfigMap to go');
  });

  it('collects a custom resource owned by a Deployment when the Deployment is deleted', async () => {
    const deployments = clientFor(cluster.rest, DeploymentKind);
    const deployment = await deployments.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'widget-owner', namespace: 'default' },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'widget-owner' } },
        template: {
          metadata: { labels: { app: 'widget-owner' } },
          spec: { containers: [{ name: 'app', image: 'nginx' }] },
        },
      },
    } as Deployment);
    await widgets.create(
      widget('owned-by-deployment', 'default', { ownerReferences: [ownerRef(deployment as KubeObject)] }),
    );
    await new Promise((r) => setTimeout(r, 500));
    await widgets.get('owned-by-deployment', { namespace: 'default' });
    await deployments.delete('widget-owner', { namespace: 'default' });
    await gone(() => widgets.get('owned-by-deployment', { namespace: 'default' }), 'the widget to go');
  });

  it('keeps a custom resource deleted in the foreground until its blocking dependents are gone', async () => {
    const owner = await widgets.create(widget('fg', 'default'));
    const configMaps = clientFor(cluster.rest, ConfigMapKind);
    await configMaps.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'fg-dependent',
        namespace: 'default',
        finalizers: [HOLD],
        ownerReferences: [ownerRef(owner, true)],
      },
    });
    await widgets.create(widget('fg-child', 'default', { ownerReferences: [ownerRef(owner, true)] }));
    await widgets.delete('fg', { namespace: 'default', propagationPolicy: 'Foreground' });
    // The dependents are deleted; the one held by a finalizer keeps the owner waiting.
    const held = await eventually(async () => {
      const cm = await configMaps.get('fg-dependent', { namespace: 'default' });
      return cm.metadata?.deletionTimestamp ? cm : undefined;
    }, 'the ConfigMap dependent to be deleted');
    await gone(() => widgets.get('fg-child', { namespace: 'default' }), 'the widget dependent to go');
    await new Promise((r) => setTimeout(r, 500));
    const waiting = await widgets.get('fg', { namespace: 'default' });
    expect(waiting.metadata?.deletionTimestamp).toBeDefined();
    expect(waiting.metadata?.finalizers).toContain('foregroundDeletion');
    await configMaps.patch(
      'fg-dependent',
      'merge',
      { metadata: { finalizers: null, resourceVersion: held.metadata?.resourceVersion } },
      { namespace: 'default' },
    );
    await gone(() => widgets.get('fg', { namespace: 'default' }), 'the owner to go once its dependents went');
  });

  it('orphans the custom resource dependents of a custom resource deleted with Orphan', async () => {
    const owner = await widgets.create(widget('orphaner', 'default'));
    await widgets.create(widget('kept', 'default', { ownerReferences: [ownerRef(owner)] }));
    await widgets.delete('orphaner', { namespace: 'default', propagationPolicy: 'Orphan' });
    await gone(() => widgets.get('orphaner', { namespace: 'default' }), 'the owner to go');
    const kept = await eventually(async () => {
      const w = await widgets.get('kept', { namespace: 'default' });
      return (w.metadata?.ownerReferences ?? []).length === 0 ? w : undefined;
    }, 'the dependent to lose its owner reference');
    expect(kept.metadata?.deletionTimestamp).toBeUndefined();
  });

  it('deletes the custom resources of a deleted namespace, waiting for their finalizers', async () => {
    const namespaces = clientFor(cluster.rest, NamespaceKind);
    await namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'crs' } });
    await widgets.create(widget('a', 'crs'));
    await widgets.create(widget('b', 'crs'));
    await widgets.create(widget('held', 'crs', { finalizers: [HOLD] }));
    await namespaces.delete('crs');
    const terminating = await eventually(async () => {
      const ns = await namespaces.get('crs');
      const remaining = ns.status?.conditions?.find((c) => c.type === 'NamespaceContentRemaining');
      return remaining?.status === 'True' ? ns : undefined;
    }, 'the namespace to report its remaining content');
    const conditions = Object.fromEntries(
      (terminating.status?.conditions ?? []).map((c) => [c.type, [c.status, c.reason, c.message]]),
    );
    expect(conditions).toMatchObject({
      NamespaceDeletionDiscoveryFailure: [
        'False',
        'ResourcesDiscovered',
        'All resources successfully discovered',
      ],
      NamespaceContentRemaining: [
        'True',
        'SomeResourcesRemain',
        `Some resources are remaining: widgets.${GROUP} has 1 resource instances`,
      ],
      NamespaceFinalizersRemaining: [
        'True',
        'SomeFinalizersRemain',
        `Some content in the namespace has finalizers remaining: ${HOLD} in 1 resource instances`,
      ],
    });
    expect((await widgets.list({ namespace: 'crs' })).items.map((w) => w.metadata?.name)).toEqual(['held']);
    await widgets.patch('held', 'merge', { metadata: { finalizers: null } }, { namespace: 'crs' });
    await gone(() => namespaces.get('crs'), 'the namespace to go');
    expect((await widgets.list({ namespace: 'crs' })).items).toEqual([]);
  });
});

describe('namespace deletion while discovery fails for some groups', () => {
  let partial: Cluster;
  let broken = true;

  beforeAll(async () => {
    partial = await startCluster({
      registry: {
        ...CONTROLLER_REGISTRY,
        namespace: {
          ...CONTROLLER_REGISTRY.namespace!,
          start: (ctx) => {
            const real = new DiscoveryClient(ctx.client);
            return new NamespaceController(ctx, {
              discovery: {
                serverPreferredResources: async () => {
                  const found = await real.serverPreferredResources();
                  if (!broken) return found;
                  const failure = new Error('the server is currently unable to handle the request');
                  const error = new GroupDiscoveryFailedError(new Map([['broken.example.com/v1', failure]]));
                  return { ...found, error };
                },
              },
            });
          },
        },
      },
    });
    await createTestCRD(partial.rest, { group: GROUP, plural: 'widgets', kind: 'Widget' });
  });
  afterAll(async () => {
    await partial?.close();
  });

  it('deletes what was discovered, reports DiscoveryFailed and keeps the namespace until discovery succeeds', async () => {
    const namespaces = clientFor(partial.rest, NamespaceKind);
    const crs = clientFor(partial.rest, {
      group: GROUP,
      version: 'v1',
      resource: 'widgets',
      namespaced: true,
    });
    await namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'partial' } });
    await crs.create(widget('w', 'partial'));
    await namespaces.delete('partial');
    const failing = await eventually(async () => {
      const ns = await namespaces.get('partial');
      const c = ns.status?.conditions?.find((x) => x.type === 'NamespaceDeletionDiscoveryFailure');
      return c?.status === 'True' ? c : undefined;
    }, 'the namespace to report the discovery failure');
    expect(failing).toMatchObject({
      reason: 'DiscoveryFailed',
      message:
        'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: ' +
        'broken.example.com/v1: the server is currently unable to handle the request',
    });
    await eventually(
      async () => (await crs.list({ namespace: 'partial' })).items.length === 0,
      'the discovered custom resources to go',
    );
    await new Promise((r) => setTimeout(r, 500));
    expect((await namespaces.get('partial')).spec?.finalizers).toEqual(['kubernetes']);
    broken = false;
    await gone(() => namespaces.get('partial'), 'the namespace to go once discovery succeeds');
  });
});
