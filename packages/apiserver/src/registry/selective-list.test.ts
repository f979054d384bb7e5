import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpsRequest } from '../testing/https-request';
import { startTestAPIServer, type TestAPIServer } from '../testing/test-apiserver';
import { SqliteStorage } from '../storage/embedded/sqlite-storage';
import type { ListOptions } from '../storage/storage';

describe('a list with selectors and a limit', () => {
  const path = '/api/v1/namespaces/selective/configmaps';
  let dir: string;
  let s: TestAPIServer;
  /** The limit of every storage list of the namespace's configmaps, in order. */
  const pages: (number | undefined)[] = [];
  const req = (url: string, options: Parameters<typeof httpsRequest>[1] = {}) =>
    httpsRequest(s.url + url, { ca: s.ca, ...options });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-selective-'));
    const storage = new SqliteStorage(join(dir, 'orch.db'));
    const list = storage.list.bind(storage);
    storage.list = (prefix: string, options?: ListOptions) => {
      if (prefix.includes('/configmaps/selective/')) pages.push(options?.limit);
      return list(prefix, options);
    };
    s = await startTestAPIServer({ admissionPlugins: [], storage, watchCache: false });
    for (let i = 0; i < 64; i++) {
      const name = `s${String(i).padStart(2, '0')}`;
      const labels = { keep: i % 10 === 9 ? 'yes' : 'no' };
      expect((await req(path, { method: 'POST', body: { metadata: { name, labels } } })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('resumes each chunk right after its last item, and reads storage in doubling pages', async () => {
    const names: string[] = [];
    let token: string | undefined;
    pages.length = 0;
    do {
      const query = `labelSelector=keep%3Dyes&limit=2${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
      const page = await req(`${path}?${query}`);
      expect(page.status).toBe(200);
      expect(page.json.items.length).toBeLessThanOrEqual(2);
      expect(page.json.metadata.remainingItemCount).toBeUndefined();
      names.push(...page.json.items.map((i: { metadata: { name: string } }) => i.metadata.name));
      token = page.json.metadata.continue;
    } while (token);
    expect(names).toEqual(['s09', 's19', 's29', 's39', 's49', 's59']);
    // the first chunk reads 2, 4, 8, 16 keys (30), enough for s09 and s19; one key at a time it
    // would take 20 reads
    expect(pages.slice(0, 4)).toEqual([2, 4, 8, 16]);
    expect(pages.length).toBeLessThan(16);
  });

  it('without selectors reads one page of the limit, and counts what remains', async () => {
    pages.length = 0;
    const page = await req(`${path}?limit=5`);
    expect(page.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual([
      's00',
      's01',
      's02',
      's03',
      's04',
    ]);
    expect(page.json.metadata.remainingItemCount).toBe(59);
    expect(pages).toEqual([5]);
  });
});
