import { EtcdCluster } from '../testing/etcd-cluster';
import { EtcdKVClient } from './etcd-kv-client';
import { LeaseManager } from './lease-manager';

let cluster: EtcdCluster;
let kv: EtcdKVClient;

beforeAll(async () => {
  cluster = await EtcdCluster.start({ members: 1 });
  kv = new EtcdKVClient({ endpoints: cluster.endpoints, timeoutMs: 5000 });
});

afterAll(async () => {
  kv.close();
  await cluster.stop();
});

const id = (x: unknown) => String(x);

describe('LeaseManager', () => {
  test('writes with the same time to live share a lease; concurrent ones wait for one grant', async () => {
    const leases = new LeaseManager(kv);
    const first = await leases.lease(600);
    const again = await leases.lease(600);
    expect(id(again)).toBe(id(first));
    // concurrent writes that need a new lease wait for the same grant
    const fresh = new LeaseManager(kv);
    const together = await Promise.all(Array.from({ length: 20 }, () => fresh.lease(600)));
    expect(new Set(together.map(id)).size).toBe(1);
  });

  test('a lease is not shared with a write whose time it would outlive by more than the margin', async () => {
    let now = 1_000_000;
    const leases = new LeaseManager(kv, () => now);
    const long = await leases.lease(1200);
    // 60 s less: the 1200 s lease (plus its 60 s margin) would keep the key 120 s too long
    const short = await leases.lease(1140);
    expect(id(short)).not.toBe(id(long));
    // 10 s on, the 1140 s lease (granted 1197 s) still outlives a new write's time by less than
    // the margin: shared
    now += 10_000;
    expect(id(await leases.lease(1140))).toBe(id(short));
    // a minute on it no longer outlives it: another grant
    now += 50_000;
    expect(id(await leases.lease(1140))).not.toBe(id(short));
  });
});
