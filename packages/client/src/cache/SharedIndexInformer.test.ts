import type { ServerResponse } from 'node:http';
import { RestClient } from '../rest/RestClient';
import { generateTestPki, type TestPki } from '../testing/certs';
import { FakeApiServer, type RecordedRequest } from '../testing/FakeApiServer';
import type { KubeObject } from '../types';
import { DeletedFinalStateUnknown } from './keyFunc';
import { selectorFromSet } from '@orch/api';
import { listWatchForResource } from './ListerWatcher';
import type { ReflectorOptions } from './Reflector';
import { SharedIndexInformer, type ResourceEventHandler } from './SharedIndexInformer';
import { SharedInformerFactory } from './SharedInformerFactory';
import { waitForCacheSync } from './waitForCacheSync';

const configmaps = { group: '', version: 'v1', resource: 'configmaps', namespaced: true };
const fast: ReflectorOptions = { pageSize: 3, backoff: { initialMs: 10, maxMs: 50, jitter: 0 } };

let pki: TestPki;
let server: FakeApiServer;
let client: RestClient;
const cleanups: (() => Promise<void> | void)[] = [];

async function until(cond: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

function cm(
  namespace: string,
  name: string,
  data: Record<string, string> = {},
  labels: Record<string, string> = {},
): KubeObject {
  return { kind: 'ConfigMap', apiVersion: 'v1', metadata: { namespace, name, labels }, data };
}

function cacheState(informer: SharedIndexInformer<KubeObject>): Map<string, string | undefined> {
  return new Map(
    informer.indexer
      .list()
      .map((o) => [`${o.metadata?.namespace}/${o.metadata?.name}`, o.metadata?.resourceVersion]),
  );
}

function serverState(s: FakeApiServer): Map<string, string | undefined> {
  return new Map([...s.state()].map(([k, o]) => [k, o.metadata?.resourceVersion]));
}

function lists(s: FakeApiServer, since = 0): RecordedRequest[] {
  return s.requests
    .slice(since)
    .filter((r) => r.method === 'GET' && r.url.searchParams.get('watch') !== 'true');
}

function recorder(): { log: string[]; handler: ResourceEventHandler<KubeObject> } {
  const log: string[] = [];
  const name = (o: KubeObject | DeletedFinalStateUnknown<KubeObject>): string =>
    o instanceof DeletedFinalStateUnknown
      ? `tombstone:${o.key}`
      : `${o.metadata?.namespace}/${o.metadata?.name}`;
  return {
    log,
    handler: {
      onAdd: (o, initial) => log.push(`add${initial ? '(initial)' : ''} ${name(o)}`),
      onUpdate: (a, b) => log.push(`${a === b ? 'resync' : 'update'} ${name(b)}`),
      onDelete: (o) => log.push(`delete ${name(o)}`),
    },
  };
}

beforeAll(async () => {
  pki = generateTestPki();
});

beforeEach(async () => {
  server = new FakeApiServer({ pki });
  await server.start();
  client = new RestClient({ server: server.url, ca: Buffer.from(pki.caCert), qps: -1 });
});

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) {
    await c();
  }
  client.close();
  await server.stop();
});

function newInformer(opts: ReflectorOptions = fast, resyncPeriodMs = 0): SharedIndexInformer<KubeObject> {
  const informer = new SharedIndexInformer<KubeObject>(listWatchForResource(client, configmaps), {
    reflector: opts,
    resyncPeriodMs,
  });
  cleanups.push(() => informer.stop());
  return informer;
}

describe('SharedIndexInformer end to end', () => {
  it('lists in chunks, then follows ADDED/MODIFIED/DELETED and bookmarks', async () => {
    for (let i = 0; i < 7; i++) {
      server.upsert(
        cm(i % 2 ? 'odd' : 'even', `cm${i}`, { i: String(i) }, { parity: i % 2 ? 'odd' : 'even' }),
      );
    }
    const informer = newInformer();
    const { log, handler } = recorder();
    informer.addEventHandler(handler);
    informer.run();
    expect(await waitForCacheSync([() => informer.hasSynced()], { timeoutMs: 5000 })).toBe(true);

    const pages = lists(server);
    expect(pages.map((r) => r.url.searchParams.get('limit'))).toEqual(['3', '3', '3']);
    expect(pages[0]!.url.searchParams.get('resourceVersion')).toBe('0');
    expect(pages[0]!.url.searchParams.has('continue')).toBe(false);
    expect(
      pages
        .slice(1)
        .every((r) => r.url.searchParams.has('continue') && !r.url.searchParams.has('resourceVersion')),
    ).toBe(true);
    expect(informer.indexer.list()).toHaveLength(7);
    expect(log.filter((l) => l.startsWith('add(initial)'))).toHaveLength(7);
    expect(informer.lastSyncResourceVersion()).toBe(server.resourceVersion);

    await until(() => server.watcherCount === 1, 'the watch');
    const watch = server.requests.find((r) => r.url.searchParams.get('watch') === 'true')!;
    expect(watch.url.searchParams.get('resourceVersion')).toBe(server.resourceVersion);
    expect(watch.url.searchParams.get('allowWatchBookmarks')).toBe('true');
    const timeout = Number(watch.url.searchParams.get('timeoutSeconds'));
    expect(timeout).toBeGreaterThanOrEqual(300);
    expect(timeout).toBeLessThan(600);

    log.length = 0;
    server.upsert(cm('even', 'new', { a: '1' }));
    server.upsert(cm('odd', 'cm1', { changed: 'yes' }));
    server.remove('even', 'cm0');
    await until(() => log.length === 3, 'three events');
    expect(log).toEqual(['add even/new', 'update odd/cm1', 'delete even/cm0']);
    expect(cacheState(informer)).toEqual(serverState(server));
    expect(informer.lister().namespace('odd').get('cm1')?.data).toEqual({ changed: 'yes' });
    expect(
      informer
        .lister()
        .list(selectorFromSet({ parity: 'even' }))
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(['cm2', 'cm4', 'cm6']);

    // A bookmark moves the last synced version without touching the cache.
    server.silently(() => server.upsert(cm('x', 'unseen')));
    server.sendBookmark();
    await until(() => informer.lastSyncResourceVersion() === server.resourceVersion, 'the bookmark');
    expect(informer.indexer.getByKey('x/unseen')).toBeUndefined();

    // A watch that ends is resumed from the last version, without a relist.
    const listsBefore = lists(server).length;
    server.closeWatches();
    server.upsert(cm('even', 'after-rewatch'));
    await until(() => informer.indexer.getByKey('even/after-rewatch') !== undefined, 'the re-watch');
    const watches = server.requests.filter((r) => r.url.searchParams.get('watch') === 'true');
    expect(watches.length).toBeGreaterThanOrEqual(2);
    expect(Number(watches[1]!.url.searchParams.get('resourceVersion'))).toBeLessThan(
      Number(server.resourceVersion),
    );
    expect(lists(server).length).toBe(listsBefore);
  });

  it('relists after 410 Gone and ends with exactly the server state', async () => {
    for (let i = 0; i < 5; i++) {
      server.upsert(cm('ns', `cm${i}`));
    }
    // Closing a fresh watch is not to count as a failed (very short) watch here.
    const informer = newInformer({ ...fast, minWatchDurationMs: 0 });
    const { log, handler } = recorder();
    informer.addEventHandler(handler);
    informer.run();
    await until(() => informer.hasSynced() && server.watcherCount === 1, 'sync and watch');
    log.length = 0;
    const listsBefore = server.requests.length;
    const lastRv = informer.lastSyncResourceVersion();

    // Changes the informer never sees as events, then the history is compacted away.
    server.silently(() => {
      server.remove('ns', 'cm0');
      server.upsert(cm('ns', 'cm1', { v: '2' }));
      server.upsert(cm('ns', 'fresh'));
    });
    server.compact();
    server.closeWatches();

    await until(() => lists(server, listsBefore).length > 0 && server.watcherCount === 1, 'the relist');
    await until(
      () => cacheState(informer).size === 5 && informer.indexer.getByKey('ns/fresh') !== undefined,
      'the cache',
    );
    expect(cacheState(informer)).toEqual(serverState(server));
    const relist = lists(server, listsBefore)[0]!;
    expect(relist.url.searchParams.get('resourceVersion')).toBe('');
    // The re-watch from the compacted version came first and was refused.
    const rewatch = server.requests
      .slice(listsBefore)
      .find((r) => r.url.searchParams.get('watch') === 'true')!;
    expect(rewatch.url.searchParams.get('resourceVersion')).toBe(lastRv);
    expect(server.requests.indexOf(rewatch)).toBeLessThan(server.requests.indexOf(relist));
    expect(log).toContain('delete tombstone:ns/cm0');
    expect(log).toContain('add ns/fresh');
    expect(log).toContain('update ns/cm1');
  });

  it('relists after an ERROR event carrying 410 in the stream', async () => {
    server.upsert(cm('ns', 'a'));
    const informer = newInformer();
    informer.run();
    await until(() => informer.hasSynced() && server.watcherCount === 1, 'sync and watch');
    const before = server.requests.length;
    server.silently(() => server.upsert(cm('ns', 'b')));
    server.sendError({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      code: 410,
      reason: 'Expired',
      message: 'too old',
    });
    await until(() => informer.indexer.getByKey('ns/b') !== undefined, 'the relist');
    expect(lists(server, before)[0]!.url.searchParams.get('resourceVersion')).toBe('');
    expect(cacheState(informer)).toEqual(serverState(server));
  });

  it('recovers from a failed watch request by relisting after a backoff', async () => {
    server.upsert(cm('ns', 'a'));
    let failures = 0;
    server.hook = (r, res: ServerResponse) => {
      if (r.url.searchParams.get('watch') === 'true' && failures < 2) {
        failures++;
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end('storage unavailable');
        return true;
      }
      return false;
    };
    const errors: unknown[] = [];
    const informer = newInformer({ ...fast, onError: (err) => errors.push(err) });
    informer.run();
    await until(() => server.watcherCount === 1, 'a watch after the failures');
    server.upsert(cm('ns', 'b'));
    await until(() => informer.indexer.getByKey('ns/b') !== undefined, 'the event');
    expect(failures).toBe(2);
    expect(errors).toHaveLength(2);
    expect(lists(server)).toHaveLength(3);
  });

  it('stop() aborts a list the server never answers', async () => {
    let asked = false;
    server.hook = () => {
      asked = true;
      return true; // never answer
    };
    const informer = newInformer();
    informer.run();
    await until(() => asked, 'the list request');
    const start = Date.now();
    await informer.stop();
    expect(Date.now() - start).toBeLessThan(1000);
    expect(informer.hasSynced()).toBe(false);
  });

  it('falls back to a full list when the server ignores limit or the continue token expires', async () => {
    await server.stop();
    server = new FakeApiServer({ pki, ignoreLimit: true });
    await server.start();
    client.close();
    client = new RestClient({ server: server.url, ca: Buffer.from(pki.caCert), qps: -1 });
    for (let i = 0; i < 7; i++) {
      server.upsert(cm('ns', `cm${i}`));
    }
    const informer = newInformer();
    informer.run();
    await until(() => informer.hasSynced(), 'sync');
    expect(lists(server)).toHaveLength(1);
    expect(informer.indexer.list()).toHaveLength(7);
    await informer.stop();

    // A server that answers the first continue with 410 Expired.
    await server.stop();
    server = new FakeApiServer({ pki });
    await server.start();
    client.close();
    client = new RestClient({ server: server.url, ca: Buffer.from(pki.caCert), qps: -1 });
    for (let i = 0; i < 7; i++) {
      server.upsert(cm('ns', `cm${i}`));
    }
    let expired = false;
    server.hook = (r, res: ServerResponse) => {
      if (r.url.searchParams.has('continue') && !expired) {
        expired = true;
        res.writeHead(410, { 'Content-Type': 'application/json' });
        res.end(
          JSON.stringify({ kind: 'Status', code: 410, reason: 'Expired', message: 'continue expired' }),
        );
        return true;
      }
      return false;
    };
    const second = newInformer();
    second.run();
    await until(() => second.hasSynced(), 'sync after expired continue');
    const seen = lists(server);
    expect(seen.map((r) => r.url.searchParams.get('limit'))).toEqual(['3', '3', null]);
    expect(second.indexer.list()).toHaveLength(7);
  });

  it('gives late handlers the current state and resyncs with the same objects', async () => {
    server.upsert(cm('ns', 'a'));
    server.upsert(cm('ns', 'b'));
    const informer = newInformer(fast, 0);
    informer.run();
    await until(() => informer.hasSynced(), 'sync');
    const late = recorder();
    informer.addEventHandler(late.handler, 50);
    expect(late.log.sort()).toEqual(['add ns/a', 'add ns/b']);
    await until(() => late.log.filter((l) => l.startsWith('resync')).length >= 4, 'two resyncs');
    expect(
      late.log
        .filter((l) => l.startsWith('resync'))
        .slice(0, 2)
        .sort(),
    ).toEqual(['resync ns/a', 'resync ns/b']);
  });
});

describe('SharedInformerFactory', () => {
  it('shares one informer per resource, starts, syncs and shuts down', async () => {
    server.upsert(cm('ns', 'a'));
    const factory = new SharedInformerFactory(client, { reflector: fast });
    const a = factory.informerFor(configmaps);
    const b = factory.informerFor({ ...configmaps });
    expect(a).toBe(b);
    factory.start();
    const synced = await factory.waitForCacheSync({ timeoutMs: 5000 });
    expect([...synced]).toEqual([['/v1/configmaps', true]]);
    await until(() => server.watcherCount === 1, 'the watch');
    await factory.shutdown();
    await until(() => server.watcherCount === 0, 'the watch to close');
    expect(a.isStopped).toBe(true);
  });

  it('waitForCacheSync gives up after the timeout', async () => {
    expect(await waitForCacheSync([() => false], { timeoutMs: 50, pollMs: 10 })).toBe(false);
  });
});
