import https from 'node:https';
import { startTestAPIServer, type TestAPIServer } from '../testing/test-apiserver';
import { httpsRequest } from '../testing/https-request';
import { parseListOptions } from './list-options';
import type { GenericStore, RequestScope } from './generic-store';
import { objectKey } from './keys';
import { jsonEqual } from './object';

/** Freezes a JSON value and everything in it: a later write to it throws (modules run strict). */
function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}

describe('GenericStore: updates over the decoded objects lists and watches share', () => {
  let s: TestAPIServer;
  let store: GenericStore;
  const scope: RequestScope = { namespace: 'default', apiVersion: 'apps/v1', dryRun: false };
  const path = '/apis/apps/v1/namespaces/default/deployments';
  const req = (url: string, options: Parameters<typeof httpsRequest>[1] = {}) =>
    httpsRequest(s.url + url, { ca: s.ca, ...options });
  const patch = (name: string, type: string, body: unknown, query = '') =>
    req(`${path}/${name}${query}`, {
      method: 'PATCH',
      headers: { 'Content-Type': type },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const deployment = (name: string, image = 'nginx:1.25') => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: name } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image, env: [{ name: 'REV', value: '0' }] }] },
      },
    },
  });

  /**
   * Waits until the watch cache serves `name` at its current resourceVersion, then freezes the
   * objects it serves: the next update starts from those very objects.
   */
  async function freezeShared(name: string): Promise<Record<string, unknown>> {
    const stored = (await req(`${path}/${name}`)).json;
    for (let i = 0; i < 200; i++) {
      const listed = await store.list(scope, parseListOptions(new URLSearchParams('resourceVersion=0')));
      const item = listed.items.find((o) => o.metadata.name === name);
      if (item?.metadata.resourceVersion === stored.metadata.resourceVersion) {
        deepFreeze(listed.items);
        return item as Record<string, unknown>;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`the watch cache never served ${name} at ${stored.metadata.resourceVersion}`);
  }

  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: [] });
    store = s.server.storeFor(s.server.mapper.forResource('apps', 'v1', 'deployments')!);
  });
  afterAll(() => s.close());

  it('patches, applies and replaces without changing the shared stored object', async () => {
    const created = await req(path, { method: 'POST', body: deployment('web') });
    expect(created.status).toBe(201);
    expect(created.body.toString()).toBe((await req(`${path}/web`)).body.toString());
    const writes: [string, () => ReturnType<typeof req>][] = [
      [
        'strategic merge patch',
        () =>
          patch('web', 'application/strategic-merge-patch+json', {
            spec: {
              template: { spec: { containers: [{ name: 'app', env: [{ name: 'REV', value: '1' }] }] } },
            },
          }),
      ],
      [
        'merge patch',
        () => patch('web', 'application/merge-patch+json', { metadata: { annotations: { rev: '2' } } }),
      ],
      [
        'JSON patch',
        () =>
          patch('web', 'application/json-patch+json', [{ op: 'replace', path: '/spec/replicas', value: 3 }]),
      ],
      [
        'apply',
        () =>
          patch(
            'web',
            'application/apply-patch+yaml',
            deployment('web', 'nginx:1.26'),
            '?fieldManager=t&force=true',
          ),
      ],
      [
        'apply (unchanged)',
        () =>
          patch('web', 'application/apply-patch+yaml', deployment('web', 'nginx:1.26'), '?fieldManager=t'),
      ],
      [
        'update',
        async () => {
          const current = (await req(`${path}/web`)).json;
          current.spec.replicas = 4;
          return req(`${path}/web`, { method: 'PUT', body: current });
        },
      ],
      [
        'status update',
        async () => {
          const current = (await req(`${path}/web`)).json;
          current.status = { observedGeneration: 1, replicas: 1 };
          return req(`${path}/web/status`, { method: 'PUT', body: current });
        },
      ],
    ];
    for (const [label, write] of writes) {
      // a write changing the frozen object it starts from would fail (500)
      await freezeShared('web');
      const res = await write();
      expect({ label, status: res.status, body: res.status === 200 ? undefined : res.json }).toEqual({
        label,
        status: 200,
        body: undefined,
      });
      // the answer is the stored object as a get reads it back, byte for byte
      const got = await req(`${path}/web`);
      expect(res.json).toEqual(got.json);
      expect(res.body.toString()).toBe(got.body.toString());
    }
    const final = (await req(`${path}/web`)).json;
    expect(final.spec.replicas).toBe(4);
    expect(final.spec.template.spec.containers[0].image).toBe('nginx:1.26');
    expect(final.status).toMatchObject({ observedGeneration: 1, replicas: 1 });
  });

  it('freezes the objects it shares while the mutation detector is on, as the test suite runs', async () => {
    expect(process.env.ORCH_CACHE_MUTATION_DETECTOR).toBe('true');
    expect((await req(path, { method: 'POST', body: deployment('shared') })).status).toBe(201);
    let listed: ReturnType<typeof deployment> | undefined;
    for (let i = 0; i < 200 && !listed; i++) {
      const page = await store.list(scope, parseListOptions(new URLSearchParams('resourceVersion=0')));
      listed = page.items.find((o) => o.metadata.name === 'shared') as typeof listed;
      if (!listed) await new Promise((r) => setTimeout(r, 10));
    }
    expect(Object.isFrozen(listed!.spec.template.spec.containers[0]!.env[0])).toBe(true);
    expect(() => {
      listed!.metadata.labels.app = 'changed';
    }).toThrow(TypeError);
    // what a write answers with is what the key's next update and the write's watchers start from
    const { object } = await store.update(
      scope,
      'shared',
      (current) => {
        current!.metadata.labels = { app: 'shared', tier: 'web' };
        return current!;
      },
      { fieldValidation: 'Strict', warnings: [] },
    );
    expect(object.metadata.labels).toEqual({ app: 'shared', tier: 'web' });
    expect(Object.isFrozen(object.metadata.labels)).toBe(true);
    expect(Object.isFrozen((object.spec as { template: object }).template)).toBe(true);
  });

  it('leaves the stored object as it was when a patch is refused', async () => {
    expect((await req(path, { method: 'POST', body: deployment('refused') })).status).toBe(201);
    const shared = await freezeShared('refused');
    const res = await patch('refused', 'application/strategic-merge-patch+json', {
      spec: { replicas: -1, template: { spec: { containers: [{ name: 'app', image: 'nginx:2' }] } } },
    });
    expect(res.status).toBe(422);
    const got = (await req(`${path}/refused`)).json;
    expect(got).toEqual(shared);
    expect(got.spec.replicas).toBe(2);
    expect(got.spec.template.spec.containers[0].image).toBe('nginx:1.25');
  });

  it('answers a write with what the storage stored when the storage rewrites it', async () => {
    const services = '/api/v1/namespaces/default/services';
    const created = await req(services, {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' }, spec: { ports: [{ port: 80 }] } },
    });
    expect(created.status).toBe(201);
    // the cluster IP is allocated on the way to storage, after the object was encoded
    expect(created.json.spec.clusterIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(created.json).toEqual((await req(`${services}/svc`)).json);
    const patched = await req(`${services}/svc`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
      body: JSON.stringify({ spec: { type: 'NodePort' } }),
    });
    expect(patched.status).toBe(200);
    expect(patched.json.spec.ports[0].nodePort).toBeGreaterThan(0);
    expect(patched.json).toEqual((await req(`${services}/svc`)).json);
  });
});

describe('GenericStore: watch events of its own writes', () => {
  let s: TestAPIServer;
  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: [] });
  });
  afterAll(() => s.close());

  /** The raw event lines of a watch of `path`, as they arrive. */
  function watchLines(path: string): { lines: string[]; stop: () => void; opened: Promise<void> } {
    const lines: string[] = [];
    let partial = '';
    let stop = () => undefined as void;
    const opened = new Promise<void>((resolve, reject) => {
      const req = https.get(`${s.url}${path}`, { ca: s.ca }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const parts = (partial + chunk).split('\n');
          partial = parts.pop()!;
          lines.push(...parts.filter((l) => l.startsWith('{')));
        });
        resolve();
      });
      req.on('error', reject);
      stop = () => req.destroy();
    });
    return { lines, stop, opened };
  }

  it('carry exactly the JSON a decode of the stored bytes gives, for writes storage keeps or rewrites', async () => {
    const services = '/api/v1/namespaces/default/services';
    const w = watchLines(`${services}?watch=1`);
    await w.opened;
    const req = (url: string, options: Parameters<typeof httpsRequest>[1] = {}) =>
      httpsRequest(s.url + url, { ca: s.ca, ...options });
    const created = await req(services, {
      method: 'POST',
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'watched', labels: { a: '1' } },
        spec: { ports: [{ port: 80 }] },
      },
    });
    expect(created.status).toBe(201);
    const labelled = await req(`${services}/watched`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({ metadata: { labels: { a: '2' } } }),
    });
    // storage allocates the node port, after the object was encoded: its bytes are not the encoding
    const rewritten = await req(`${services}/watched`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
      body: JSON.stringify({ spec: { type: 'NodePort' } }),
    });
    expect(rewritten.json.spec.ports[0].nodePort).toBeGreaterThan(0);
    const answers = [created.json, labelled.json, rewritten.json];
    const store = s.server.storeFor(s.server.mapper.forResource('', 'v1', 'services')!);
    const ownLines = () => w.lines.filter((l) => l.includes('"name":"watched"'));
    for (let i = 0; i < 200 && ownLines().length < 3; i++) await new Promise((r) => setTimeout(r, 10));
    w.stop();
    const events = ownLines();
    expect(events).toHaveLength(3);
    const key = objectKey('', 'services', 'default', 'watched');
    events.forEach((line, i) => {
      const answer = answers[i];
      // the event is the write's answer, byte for byte as JSON.stringify writes the decoded object
      const expected = store.decode(
        {
          value: Buffer.from(JSON.stringify(storedForm(answer))),
          modRevision: Number(answer.metadata.resourceVersion),
        },
        'v1',
      );
      expect(line).toBe(JSON.stringify({ type: i === 0 ? 'ADDED' : 'MODIFIED', object: expected }));
    });
    // the last event is what storage holds now
    const current = await s.server.storage.get(key);
    expect(JSON.parse(events[2]!).object).toEqual(store.decode(current!, 'v1'));
    // gets answer the same bytes, again and again
    for (let i = 0; i < 2; i++) {
      const got = await req(`${services}/watched`);
      expect(got.body.toString()).toBe(JSON.stringify(store.decode(current!, 'v1')) + '\n');
    }
  });

  it('gets of an object storage holds but this store did not write answer the JSON of its decode', async () => {
    const key = objectKey('', 'configmaps', 'default', 'written-elsewhere');
    const store = s.server.storeFor(s.server.mapper.forResource('', 'v1', 'configmaps')!);
    const path = '/api/v1/namespaces/default/configmaps/written-elsewhere';
    const get = () => httpsRequest(s.url + path, { ca: s.ca });
    const stored = (data: Record<string, string>) =>
      Buffer.from(
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'written-elsewhere', namespace: 'default', uid: 'u-1' },
          data,
        }),
      );
    const first = await s.server.storage.create(key, stored({ a: '1' }));
    const expected = (kv: typeof first) => JSON.stringify(store.decode(kv, 'v1')) + '\n';
    expect((await get()).body.toString()).toBe(expected(first));
    expect((await get()).body.toString()).toBe(expected(first));
    // a new revision is answered as it is, not as the one before
    const second = await s.server.storage.update(key, stored({ a: '2' }), first.modRevision);
    const got = await get();
    expect(got.body.toString()).toBe(expected(second));
    expect(got.json.data).toEqual({ a: '2' });
  });
});

/** An answer as storage keeps it: without its resourceVersion (the revision is the key's). */
function storedForm(answer: { metadata: Record<string, unknown> }): unknown {
  const { resourceVersion: _rv, ...metadata } = answer.metadata;
  return { ...answer, metadata };
}

describe('GenericStore: objects stored without a field that has a default', () => {
  let s: TestAPIServer;
  const jobs = '/apis/batch/v1/namespaces/default/jobs';
  const req = (url: string, options: Parameters<typeof httpsRequest>[1] = {}) =>
    httpsRequest(s.url + url, { ca: s.ca, ...options });

  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: [] });
  });
  afterAll(() => s.close());

  it('read back with the default, so updates do not trip over the immutable field', async () => {
    const created = await req(jobs, {
      method: 'POST',
      body: {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'old' },
        spec: {
          template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
        },
      },
    });
    expect(created.status).toBe(201);
    // rewritten as an earlier version stored it: without completionMode and suspend
    const storage = s.server.storeFor(s.server.mapper.forResource('batch', 'v1', 'jobs')!).storage;
    const key = '/registry/batch/jobs/default/old';
    const kv = (await storage.get(key))!;
    const stored = JSON.parse(kv.value.toString());
    delete stored.spec.completionMode;
    delete stored.spec.suspend;
    await storage.update(key, Buffer.from(JSON.stringify(stored)), kv.modRevision);
    const got = (await req(`${jobs}/old`)).json;
    expect(got.spec).toMatchObject({ completionMode: 'NonIndexed', suspend: false });
    const listed = (await req(jobs)).json.items.find(
      (j: { metadata: { name: string } }) => j.metadata.name === 'old',
    );
    expect(listed.spec.completionMode).toBe('NonIndexed');
    const labelled = await req(`${jobs}/old`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({ metadata: { labels: { seen: 'yes' } } }),
    });
    expect(labelled.status).toBe(200);
    expect(labelled.json.metadata.labels.seen).toBe('yes');
  });
});

describe('jsonEqual', () => {
  it('compares JSON values deeply, ignoring key order and keys holding undefined', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1, u: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, u: undefined })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(jsonEqual({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(jsonEqual({ toString: 'x' }, {})).toBe(false);
    expect(jsonEqual({}, { toString: 'x' })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual(1, 1)).toBe(true);
  });
});
