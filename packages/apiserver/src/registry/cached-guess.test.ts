import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allKinds } from '@orch/api';
import { AdmissionChain } from '../admission/admission';
import { SqliteStorage } from '../storage/embedded/sqlite-storage';
import type { KV } from '../storage/storage';
import { GenericStore, type RequestScope, type WriteOptions } from './generic-store';
import type { ApiObject } from './object';
import { strategyFor } from './strategies';

/**
 * Updates and deletes start from the watch cache's copy of the object (Kubernetes' cachedExistingObject)
 * and must come out as if they had read storage: here the "cache" hands out whatever copy a test sets.
 */
describe('GenericStore: updates and deletes starting from a cached copy', () => {
  const scope: RequestScope = { namespace: 'default', apiVersion: 'v1', dryRun: false };
  const options = (): WriteOptions => ({ fieldValidation: 'Strict', warnings: [] });
  const key = (name: string) => `/registry/core/configmaps/default/${name}`;
  let dir: string;
  let storage: SqliteStorage & { cached(key: string): Promise<KV | undefined> };
  let store: GenericStore;
  /** What the cache answers: the copy set for a key, else nothing. */
  const copies = new Map<string, KV>();
  let reads = 0;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'orch-cached-guess-'));
    const sqlite = new SqliteStorage(join(dir, 'orch.db'));
    const get = sqlite.get.bind(sqlite);
    storage = Object.assign(sqlite, {
      get: (k: string) => {
        reads++;
        return get(k);
      },
      cached: async (k: string) => copies.get(k),
    });
    const decl = allKinds.find((d) => d.group === '' && d.kind === 'ConfigMap')!;
    store = new GenericStore(storage, strategyFor(decl), new AdmissionChain());
    copies.clear();
    reads = 0;
  });
  afterEach(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Creates `name` with data k=v1, then updates it to k=v2; the cache keeps the first version. */
  async function staleCopyOf(name: string): Promise<{ stale: KV; current: KV }> {
    await store.create(scope, { metadata: { name }, data: { k: 'v1' } } as ApiObject, options());
    const stale = (await storage.get(key(name)))!;
    await store.update(scope, name, (c) => ({ ...c!, data: { k: 'v2', other: 'x' } }), options());
    const current = (await storage.get(key(name)))!;
    copies.set(key(name), stale);
    reads = 0;
    return { stale, current };
  }
  const data = (kv: KV | undefined) => (JSON.parse(kv!.value.toString()) as { data: unknown }).data;
  /** A replace (PUT) of the data with the precondition resourceVersion of `at`. */
  const replaceAt = (at: KV, replacement: Record<string, string>) => (c: ApiObject | undefined) => ({
    ...c!,
    metadata: { ...c!.metadata, resourceVersion: String(at.modRevision) },
    data: replacement,
  });
  const merge = (patch: Record<string, string>) => (c: ApiObject | undefined) => ({
    ...c!,
    data: { ...(c!.data as Record<string, string>), ...patch },
  });

  test('a current copy saves the read', async () => {
    await store.create(scope, { metadata: { name: 'a' }, data: { k: 'v1' } } as ApiObject, options());
    copies.set(key('a'), (await storage.get(key('a')))!);
    reads = 0;
    const { object } = await store.update(scope, 'a', merge({ k: 'v2' }), options());
    expect(object.data).toEqual({ k: 'v2' });
    expect(reads).toBe(0);
  });

  test('a stale copy: the write conflicts and the update is made again on what is stored', async () => {
    await staleCopyOf('b');
    const { object } = await store.update(scope, 'b', merge({ k: 'v3' }), options());
    expect(object.data).toEqual({ k: 'v3', other: 'x' });
    expect(data(await storage.get(key('b')))).toEqual({ k: 'v3', other: 'x' });
  });

  test('a stale copy does not fail a precondition the stored object meets', async () => {
    const { current } = await staleCopyOf('c');
    const { object } = await store.update(scope, 'c', replaceAt(current, { k: 'v4' }), options());
    expect(object.data).toEqual({ k: 'v4' });
  });

  test('a precondition only the stale copy meets is a conflict', async () => {
    const { stale } = await staleCopyOf('d');
    const update = store.update(scope, 'd', replaceAt(stale, { k: 'v5' }), options());
    await expect(update).rejects.toMatchObject({ status: { code: 409, reason: 'Conflict' } });
    expect(data(await storage.get(key('d')))).toEqual({ k: 'v2', other: 'x' });
  });

  test('no change against the stale copy is still written when the stored object differs', async () => {
    const { current } = await staleCopyOf('e');
    // back to the first version's data: nothing to do for the copy, a change for what is stored
    const { object } = await store.update(scope, 'e', (c) => ({ ...c!, data: { k: 'v1' } }), options());
    expect(object.data).toEqual({ k: 'v1' });
    expect(Number(object.metadata.resourceVersion)).toBeGreaterThan(current.modRevision);
  });

  test('no change against the stored object answers the stored object, unwritten', async () => {
    const { current } = await staleCopyOf('f');
    const { object } = await store.update(scope, 'f', merge({ k: 'v2' }), options());
    expect(object.metadata.resourceVersion).toBe(String(current.modRevision));
  });

  test('delete with a resourceVersion precondition the stored object meets', async () => {
    const { current } = await staleCopyOf('g');
    const { deletedNow } = await store.delete(scope, 'g', {
      preconditions: { resourceVersion: String(current.modRevision) },
    });
    expect(deletedNow).toBe(true);
    expect(await storage.get(key('g'))).toBeUndefined();
  });

  test('delete with a precondition only the stale copy meets is a conflict, and deletes nothing', async () => {
    const { stale } = await staleCopyOf('h');
    await expect(
      store.delete(scope, 'h', { preconditions: { resourceVersion: String(stale.modRevision) } }),
    ).rejects.toMatchObject({ status: { code: 409 } });
    expect(await storage.get(key('h'))).toBeDefined();
  });

  test('delete of an object the copy still holds but storage no longer has is NotFound', async () => {
    await staleCopyOf('i');
    await storage.delete(key('i'));
    await expect(store.delete(scope, 'i', {})).rejects.toMatchObject({ status: { code: 404 } });
  });
});
