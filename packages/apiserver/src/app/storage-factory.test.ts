import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStorage } from './storage-factory';
import { SqliteStorage } from '../storage/embedded/sqlite-storage';
import { EtcdStorage } from '../storage/etcd/etcd-storage';

describe('createStorage', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'orch-storage-factory-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const config = (backend: 'embedded' | 'etcd3') => ({
    backend,
    etcdServers: ['http://127.0.0.1:1'],
    etcdCompactionIntervalMs: 0,
    embeddedDir: join(dir, 'data'),
  });

  it('opens the embedded store under the embedded storage directory', async () => {
    const storage = createStorage(config('embedded'));
    try {
      expect(storage).toBeInstanceOf(SqliteStorage);
      expect(existsSync(join(dir, 'data', 'orch.db'))).toBe(true);
      const created = await storage.create('/registry/configmaps/default/a', Buffer.from('{"a":1}'));
      expect((await storage.get('/registry/configmaps/default/a'))?.value.toString()).toBe('{"a":1}');
      expect(created.modRevision).toBeGreaterThan(0);
    } finally {
      await storage.close();
    }
  });

  it('opens an etcd client for etcd3, without creating the embedded directory', async () => {
    const storage = createStorage(config('etcd3'));
    try {
      expect(storage).toBeInstanceOf(EtcdStorage);
      await expect(storage.get('/registry/x')).rejects.toMatchObject({ code: 'Unavailable' });
      expect(existsSync(join(dir, 'data'))).toBe(false);
    } finally {
      await storage.close();
    }
  });
});
