import { join } from 'node:path';
import { runStorageConformance } from '../conformance/storage-conformance';
import { SqliteStorage } from '../embedded/sqlite-storage';
import { tempDir } from '../testing/temp-dir';
import { Cacher } from './cacher';

const dir = tempDir('cacher-conformance');
let n = 0;
afterAll(() => dir.remove());

runStorageConformance('watch cache over embedded', async () =>
  Cacher.start(new SqliteStorage(join(dir.path, `store-${++n}.db`)), {
    prefix: '/registry/',
    ownsBackend: true,
  }),
);
