import {
  ConfigMapKind,
  DeploymentKind,
  NamespaceKind,
  PodKind,
  ServiceAccountKind,
  type ObjectOf,
  type Pod,
} from '@orch/api';
import { startTestAPIServer, type TestAPIServer } from '@orch/apiserver';
import {
  buildConfigFromFlags,
  Clientset,
  isConflict,
  isNotFound,
  PROTOBUF_MEDIA_TYPE,
  RestClient,
  SharedInformerFactory,
  StatusError,
  type KubeObject,
  type RestConfig,
  type WatchEvent,
} from '@orch/client';

type ConfigMap = ObjectOf<typeof ConfigMapKind>;

let api: TestAPIServer;
let base: RestConfig;

beforeAll(async () => {
  api = await startTestAPIServer({ admissionPlugins: [] });
  base = { ...buildConfigFromFlags({ kubeconfig: api.kubeconfig }).config, qps: -1 };
});

afterAll(async () => {
  await api?.close();
});

/** A clientset whose requests and response content types are recorded. */
function recordingClientset(contentType?: string): {
  cs: Clientset;
  seen: string[];
  sent: { path: string; body: string }[];
  close: () => void;
} {
  const rest = new RestClient({ ...base, ...(contentType ? { contentType } : {}) });
  const seen: string[] = [];
  const sent: { path: string; body: string }[] = [];
  const send = rest.send.bind(rest);
  rest.send = async (method, path, headers, body, signal) => {
    sent.push({ path: `${method} ${path}`, body: body?.toString('utf8') ?? '' });
    const res = await send(method, path, headers, body, signal);
    seen.push(
      `${method} ${headers['Content-Type'] ?? '-'} -> ${res.statusCode} ${String(res.headers['content-type'] ?? '-')}`,
    );
    return res;
  };
  return { cs: new Clientset(rest), seen, sent, close: () => rest.close() };
}

async function errorOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

const deployment = (name: string, replicas: number): KubeObject => ({
  metadata: { name, namespace: 'proto' },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] },
    },
  },
});

describe('typed clients over protobuf against orch-apiserver', () => {
  it('creates, gets, lists, updates and watches ConfigMaps, Pods and Deployments in protobuf', async () => {
    const { cs, seen, close } = recordingClientset(PROTOBUF_MEDIA_TYPE);
    try {
      await cs.for(NamespaceKind).create({ metadata: { name: 'proto' } });
      const cms = cs.for(ConfigMapKind).namespace('proto');
      const watch = await cms.watch({ resourceVersion: '0' });
      const events: WatchEvent<ConfigMap>[] = [];
      const done = watch
        .forEach((e) => {
          events.push(e);
        })
        .catch((err: unknown) => err);

      const cm = await cms.create({ metadata: { name: 'one' }, data: { a: '1' } });
      expect(cm.kind).toBe('ConfigMap');
      expect(cm.metadata?.uid).toBeTruthy();
      expect((await cms.get('one')).data).toEqual({ a: '1' });
      const updated = await cms.update({ ...cm, data: { a: '2' } });
      expect(updated.data).toEqual({ a: '2' });
      expect(isConflict(await errorOf(cms.update({ ...cm, data: { a: '3' } })))).toBe(true);
      await cms.delete('one');
      expect(isNotFound(await errorOf(cms.get('one')))).toBe(true);

      const pods = cs.for(PodKind);
      const pod: Pod = await pods.create({
        metadata: { name: 'p', namespace: 'proto', labels: { tier: 'web' } },
        spec: { containers: [{ name: 'c', image: 'nginx:1.25', resources: { requests: { cpu: '250m' } } }] },
      });
      expect(pod.spec?.containers[0]?.resources?.requests).toEqual({ cpu: '250m' });
      const list = await pods.list({ namespace: 'proto', labelSelector: 'tier=web' });
      expect(list.kind).toBe('PodList');
      expect(list.items.map((p) => p.metadata?.name)).toEqual(['p']);

      const deploys = cs.for(DeploymentKind);
      const d = await deploys.create(deployment('web', 2));
      expect(d.spec?.replicas).toBe(2);
      const d2 = await deploys.update({ ...d, spec: { ...d.spec!, replicas: 3 } });
      expect(d2.spec?.replicas).toBe(3);
      expect((await deploys.get('web', { namespace: 'proto' })).metadata?.generation).toBe(2);

      // The watch saw the ConfigMap's life in order.
      for (let i = 0; i < 50 && events.length < 3; i++) await new Promise((r) => setTimeout(r, 20));
      watch.stop();
      expect(await done).toBeUndefined();
      expect(events.map((e) => `${e.type} ${e.object.data?.a}`)).toEqual([
        'ADDED 1',
        'MODIFIED 2',
        'DELETED 2',
      ]);

      const protobufWrites = seen.filter((s) =>
        /^(POST|PUT) application\/vnd\.orch\.protobuf -> 20\d application\/vnd\.orch\.protobuf/.test(s),
      );
      expect(protobufWrites.length).toBeGreaterThanOrEqual(5);
      // Successful reads (get, list, watch) came back in protobuf too.
      expect(
        seen.filter(
          (s) => /^GET - -> 200/.test(s) && !/application\/vnd\.orch\.protobuf(;stream=watch)?$/.test(s),
        ),
      ).toEqual([]);
      expect(seen.filter((s) => /^GET - -> 200/.test(s)).length).toBeGreaterThanOrEqual(4);
    } finally {
      close();
    }
  });

  it('accepts the Kubernetes spelling of the protobuf media type', async () => {
    const { cs, seen, close } = recordingClientset('application/vnd.kubernetes.protobuf');
    try {
      const cms = cs.resource<ConfigMap>('cm');
      await cms.create({ metadata: { name: 'kube-spelling', namespace: 'default' }, data: { x: 'y' } });
      expect((await cms.get('kube-spelling', { namespace: 'default' })).data).toEqual({ x: 'y' });
      expect(seen).toEqual([
        'POST application/vnd.orch.protobuf -> 201 application/vnd.kubernetes.protobuf',
        'GET - -> 200 application/vnd.kubernetes.protobuf',
      ]);
    } finally {
      close();
    }
  });

  it('pages with listAll, patches in all four formats, scales and deletes collections', async () => {
    const { cs, seen, sent, close } = recordingClientset();
    try {
      await cs.for(NamespaceKind).create({ metadata: { name: 'typed' } });
      const cms = cs.for(ConfigMapKind).namespace('typed');
      for (let i = 0; i < 7; i++) {
        await cms.create({ metadata: { name: `cm-${i}`, labels: { set: 'x' } }, data: { i: String(i) } });
      }
      const first = await cms.list({ limit: 3 });
      expect(first.items).toHaveLength(3);
      expect(first.metadata?.continue).toBeTruthy();
      const all = await cms.listAll({ pageSize: 3 });
      expect(all.items.map((c) => c.metadata?.name)).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `cm-${i}`));
      expect(all.metadata?.continue).toBeUndefined();

      expect((await cms.patch('cm-0', 'merge', { data: { m: 'merge' } })).data).toEqual({
        i: '0',
        m: 'merge',
      });
      expect((await cms.patch('cm-0', 'json', [{ op: 'remove', path: '/data/i' }])).data).toEqual({
        m: 'merge',
      });
      const smp = await cms.patch('cm-0', 'strategic', { metadata: { labels: { s: 'y' } } });
      expect(seen[seen.length - 1]).toMatch(/^PATCH application\/strategic-merge-patch\+json -> 200/);
      expect(smp.metadata?.labels).toEqual({ set: 'x', s: 'y' });
      // Server-side apply: YAML content type, fieldManager and force in the query.
      const applied = await cms
        .apply(
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied' }, data: { k: 'v' } },
          { fieldManager: 'e2e', force: true },
        )
        .catch((err: unknown) => err);
      expect(seen[seen.length - 1]).toMatch(/^PATCH application\/apply-patch\+yaml -> /);
      expect(sent[sent.length - 1]!.path).toBe(
        'PATCH /api/v1/namespaces/typed/configmaps/applied?fieldManager=e2e&force=true',
      );
      if (applied instanceof StatusError) {
        // A server that does not serve apply yet answers 415.
        expect(applied.code).toBe(415);
        await cms.create({ metadata: { name: 'applied' } });
      } else {
        expect((applied as ConfigMap).data).toEqual({ k: 'v' });
      }
      await expect(cms.patch('cm-1', 'apply', {})).rejects.toThrow('fieldManager');

      const deploys = cs.for(DeploymentKind).namespace('typed');
      await deploys.create({ ...deployment('scaled', 1), metadata: { name: 'scaled' } });
      const scale = await deploys.getScale('scaled');
      expect([scale.kind, scale.spec?.replicas]).toEqual(['Scale', 1]);
      const rescaled = await deploys.updateScale('scaled', { ...scale, spec: { replicas: 4 } });
      expect(rescaled.spec?.replicas).toBe(4);
      expect((await deploys.get('scaled')).spec?.replicas).toBe(4);
      await expect(cms.getScale('cm-0')).rejects.toThrow('configmaps has no scale subresource');

      await cms.deleteCollection({ labelSelector: 'set=x' });
      expect((await cms.list()).items.map((c) => c.metadata?.name)).toEqual(['applied']);
    } finally {
      close();
    }
  });

  it('binds and evicts pods and requests service account tokens', async () => {
    const { cs, sent, close } = recordingClientset();
    try {
      await cs.for(NamespaceKind).create({ metadata: { name: 'sub' } });
      const pods = cs.for(PodKind).namespace('sub');
      const pod = await pods.create({
        metadata: { name: 'b' },
        spec: { containers: [{ name: 'c', image: 'busybox' }] },
      });
      const bound = await pods.bind(pod, 'node-1').catch((err: unknown) => err);
      const bindRequest = sent[sent.length - 1]!;
      expect(bindRequest.path).toBe('POST /api/v1/namespaces/sub/pods/b/binding');
      expect(JSON.parse(bindRequest.body)).toEqual({
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name: 'b', namespace: 'sub', uid: pod.metadata?.uid },
        target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' },
      });
      if (!(bound instanceof Error)) {
        expect((await pods.get('b')).spec?.nodeName).toBe('node-1');
      }
      // Eviction and token requests: the wire form Kubernetes serves (this apiserver may not route them yet).
      await pods.evict('b', { deleteOptions: { gracePeriodSeconds: 0 } }).catch(() => undefined);
      expect(sent[sent.length - 1]!.path).toBe('POST /api/v1/namespaces/sub/pods/b/eviction');
      expect(JSON.parse(sent[sent.length - 1]!.body)).toEqual({
        apiVersion: 'policy/v1',
        kind: 'Eviction',
        metadata: { name: 'b', namespace: 'sub' },
        deleteOptions: { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 },
      });

      const sas = cs.for(ServiceAccountKind).namespace('sub');
      await sas.create({ metadata: { name: 'robot' } });
      const tr = await sas
        .createToken('robot', { audiences: ['api'], expirationSeconds: 3600 })
        .catch(() => undefined);
      expect(sent[sent.length - 1]!.path).toBe('POST /api/v1/namespaces/sub/serviceaccounts/robot/token');
      expect(JSON.parse(sent[sent.length - 1]!.body)).toMatchObject({
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { audiences: ['api'], expirationSeconds: 3600 },
      });
      if (tr) {
        expect(tr.status?.token).toBeTruthy();
      }
      await expect(cs.for(ConfigMapKind).bind(pod, 'n')).rejects.toThrow(
        'configmaps has no binding subresource',
      );
    } finally {
      close();
    }
  });

  it('feeds a shared informer over protobuf list and watch', async () => {
    const rest = new RestClient({ ...base, contentType: PROTOBUF_MEDIA_TYPE });
    const factory = new SharedInformerFactory(rest, { namespace: 'proto' });
    const informer = factory.informerFor(PodKind);
    const seen: string[] = [];
    informer.addEventHandler({
      onAdd: (p) => seen.push(`add ${p.metadata?.name}`),
      onUpdate: (_o, p) => seen.push(`update ${p.metadata?.name} ${p.metadata?.labels?.v ?? ''}`),
      onDelete: (p) => seen.push(`delete ${'metadata' in p ? p.metadata?.name : p.key}`),
    });
    try {
      factory.start();
      await factory.waitForCacheSync({ timeoutMs: 5000 });
      expect(informer.lister().namespace('proto').get('p')?.spec?.containers[0]?.image).toBe('nginx:1.25');
      const pods = new Clientset(rest).for(PodKind).namespace('proto');
      await pods.create({ metadata: { name: 'q' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
      await pods.patch('q', 'merge', { metadata: { labels: { v: '2' } } });
      await pods.delete('q', { gracePeriodSeconds: 0 });
      for (let i = 0; i < 100 && !seen.includes('delete q'); i++) await new Promise((r) => setTimeout(r, 20));
      expect(seen).toEqual(expect.arrayContaining(['add p', 'add q', 'update q 2', 'delete q']));
    } finally {
      await factory.shutdown();
      rest.close();
    }
  });
});
