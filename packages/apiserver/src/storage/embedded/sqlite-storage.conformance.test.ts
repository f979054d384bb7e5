import { join } from 'node:path';
import { runStorageConformance } from '../conformance/storage-conformance';
import { tempDir } from '../testing/temp-dir';
import { SqliteStorage } from './sqlite-storage';

const dir = tempDir('sqlite-conformance');
let n = 0;
afterAll(() => dir.remove());

runStorageConformance(
  'embedded (SQLite file)',
  async () => new SqliteStorage(join(dir.path, `store-${++n}.db`)),
);
