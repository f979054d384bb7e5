import {
  NamespaceKind,
  parseLabelSelector,
  PodKind,
  ReplicaSetKind,
  type OwnerReference,
  type Pod,
  type ReplicaSet,
} from '@orch/api';
import { startTestAPIServer, type TestAPIServer } from '@orch/apiserver';
import {
  buildConfigFromFlags,
  Clientset,
  ControllerRefManager,
  getControllerOf,
  recheckDeletionTimestamp,
} from '@orch/client';

let api: TestAPIServer;
let cs: Clientset;

beforeAll(async () => {
  api = await startTestAPIServer({ admissionPlugins: [] });
  cs = Clientset.forConfig({ ...buildConfigFromFlags({ kubeconfig: api.kubeconfig }).config, qps: -1 });
  await cs.for(NamespaceKind).create({ metadata: { name: 'claim' } });
});

afterAll(async () => {
  cs?.rest.close();
  await api?.close();
});

const pod = (name: string, labels: Record<string, string>, ownerReferences?: OwnerReference[]): Pod => ({
  metadata: { name, namespace: 'claim', labels, ...(ownerReferences ? { ownerReferences } : {}) },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});

describe('ControllerRefManager against orch-apiserver', () => {
  it('keeps owned matches, adopts matching orphans, releases non-matching, leaves others alone', async () => {
    const rss = cs.for(ReplicaSetKind).namespace('claim');
    const rs: ReplicaSet = await rss.create({
      metadata: { name: 'web' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    });
    const ours = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      name: 'web',
      uid: rs.metadata!.uid!,
      controller: true,
      blockOwnerDeletion: true,
    };
    const theirs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      name: 'other',
      uid: '0c9f6a8e-0000-4000-8000-000000000001',
      controller: true,
    };
    const pods = cs.for(PodKind).namespace('claim');
    await pods.create(pod('owned', { app: 'web' }, [ours]));
    await pods.create(pod('orphan', { app: 'web' }));
    await pods.create(pod('orphan-labelled-other', { app: 'db' }));
    await pods.create(
      pod('stale', { app: 'db' }, [
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: '0c9f6a8e-0000-4000-8000-000000000002' },
        ours,
      ]),
    );
    await pods.create(pod('foreign', { app: 'web' }, [theirs]));

    let rechecks = 0;
    const manager = new ControllerRefManager({
      controller: rs,
      controllerKind: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
      selector: parseLabelSelector('app=web'),
      client: pods,
      canAdopt: () => {
        rechecks++;
        return recheckDeletionTimestamp(() => rss.get('web'), rs.metadata!.uid!)();
      },
    });
    const claimed = await manager.claim((await pods.list()).items);
    expect(claimed.map((p) => p.metadata?.name).sort()).toEqual(['orphan', 'owned']);
    expect(rechecks).toBe(1);

    const after = new Map((await pods.list()).items.map((p) => [p.metadata!.name!, p]));
    expect(getControllerOf(after.get('orphan')!)).toEqual(ours);
    expect(after.get('stale')!.metadata?.ownerReferences).toEqual([
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: '0c9f6a8e-0000-4000-8000-000000000002' },
    ]);
    expect(getControllerOf(after.get('foreign')!)?.uid).toBe(theirs.uid);
    expect(after.get('orphan-labelled-other')!.metadata?.ownerReferences).toBeUndefined();
  });

  it('refuses to adopt for a controller that was replaced', async () => {
    const rss = cs.for(ReplicaSetKind).namespace('claim');
    const old = await rss.create({
      metadata: { name: 'gone' },
      spec: {
        selector: { matchLabels: { app: 'gone' } },
        template: {
          metadata: { labels: { app: 'gone' } },
          spec: { containers: [{ name: 'c', image: 'x' }] },
        },
      },
    });
    await rss.delete('gone');
    await rss.create({ ...old, metadata: { name: 'gone' } });
    const pods = cs.for(PodKind).namespace('claim');
    await pods.create(pod('lonely', { app: 'gone' }));
    const manager = new ControllerRefManager({
      controller: old,
      controllerKind: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
      selector: parseLabelSelector('app=gone'),
      client: pods,
      canAdopt: recheckDeletionTimestamp(() => rss.get('gone'), old.metadata!.uid!),
    });
    await expect(manager.claim([await pods.get('lonely')])).rejects.toThrow(
      /can't adopt Pod claim\/lonely .*is gone/,
    );
    expect((await pods.get('lonely')).metadata?.ownerReferences).toBeUndefined();
  });
});
