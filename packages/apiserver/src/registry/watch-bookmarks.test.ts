import { ConfigMapKind } from '@orch/api';
import { SqliteStorage } from '../storage/embedded/sqlite-storage';
import { Cacher } from '../storage/cacher/cacher';
import { GenericStore, type RequestScope } from './generic-store';
import { resourcePrefix } from './keys';
import { parseListOptions } from './list-options';
import { strategyFor } from './strategies';

const scope: RequestScope = { namespace: 'default', apiVersion: 'v1', dryRun: false };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each([
  ['on (its default)', true, 'sends'],
  ['off', false, 'ignores allowWatchBookmarks and sends no'],
])('the WatchBookmark gate %s', (_name, on, what) => {
  let backend: SqliteStorage;
  let cacher: Cacher;
  beforeEach(async () => {
    backend = new SqliteStorage(':memory:', { compactionIntervalMs: 0 });
    await backend.create('/registry/seed', Buffer.from('seed'));
    cacher = await Cacher.start(backend, {
      prefix: resourcePrefix('', 'configmaps'),
      bookmarkIntervalMs: 20,
    });
  });
  afterEach(async () => {
    await cacher.close();
    await backend.close();
  });

  it(`${what} bookmarks`, async () => {
    const store = new GenericStore(cacher, strategyFor(ConfigMapKind), undefined, {
      featureEnabled: (gate) => gate !== 'WatchBookmark' || on,
    });
    const types: string[] = [];
    const options = parseListOptions(new URLSearchParams('allowWatchBookmarks=true&resourceVersion=0'));
    const handle = await store.watch(scope, options, {
      event: (type) => types.push(type),
      error: (e) => types.push(`error ${e.message}`),
    });
    try {
      await sleep(300);
      expect(types.filter((t) => t === 'BOOKMARK').length > 0).toBe(on);
      expect(types.filter((t) => t !== 'BOOKMARK')).toEqual([]);
    } finally {
      handle.stop();
    }
  });
});
