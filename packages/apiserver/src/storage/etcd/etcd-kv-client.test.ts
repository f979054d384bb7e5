import { readFileSync } from 'node:fs';
import net from 'node:net';
import { EtcdCluster } from '../testing/etcd-cluster';
import { freePort } from '../testing/free-port';
import { CompareResult, CompareTarget, EtcdCallError, EtcdKVClient, int64 } from './etcd-kv-client';
import { GrpcConnection } from './grpc-connection';

let cluster: EtcdCluster;
const clients: EtcdKVClient[] = [];

function client(endpoints: string[], timeoutMs = 5000, attemptTimeoutMs?: number): EtcdKVClient {
  const c = new EtcdKVClient({ endpoints, timeoutMs, attemptTimeoutMs });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  cluster = await EtcdCluster.start({ members: 1 });
});

afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});

afterAll(async () => {
  await cluster.stop();
});

const key = (k: string) => Buffer.from(`/kv-client/${k}`);

describe('EtcdKVClient', () => {
  test('a create txn, then a read of it: revisions and bytes as etcd stored them', async () => {
    const kv = client(cluster.endpoints);
    const value = Buffer.from('{"kind":"ConfigMap"}');
    // create if absent, else read what is there
    const create = () =>
      kv.txn({
        compare: [
          { key: key('a'), target: CompareTarget.Create, result: CompareResult.Equal, create_revision: 0 },
        ],
        success: [{ request_put: { key: key('a'), value } }],
        failure: [{ request_range: { key: key('a') } }],
      });
    const created = await create();
    expect(created.succeeded).toBe(true);
    const revision = int64(created.header.revision);
    expect(revision).toBeGreaterThan(0);

    const again = await create();
    expect(again.succeeded).toBe(false);
    const existing = again.responses[0].response_range!.kvs[0];
    expect(Buffer.from(existing.value).toString()).toBe('{"kind":"ConfigMap"}');
    expect(int64(existing.mod_revision)).toBe(revision);
    expect(int64(existing.create_revision)).toBe(revision);

    const read = await kv.range({ key: key('a') });
    expect(read.kvs).toHaveLength(1);
    expect(Buffer.from(read.kvs[0].key).toString()).toBe('/kv-client/a');
    expect(int64(read.count)).toBe(1);
  });

  test('an answer far larger than HTTP/2’s default window (20 MiB) arrives whole', async () => {
    const kv = client(cluster.endpoints);
    const value = Buffer.alloc(100_000, 'x');
    // etcd takes requests of up to 1.5 MiB: ten values a txn
    for (let i = 0; i < 200; i += 10) {
      await kv.txn({
        compare: [],
        success: Array.from({ length: 10 }, (_, j) => ({
          request_put: { key: key(`big/${String(i + j).padStart(3, '0')}`), value },
        })),
        failure: [],
      });
    }
    const all = await kv.range({ key: key('big/'), range_end: key('big0') });
    expect(all.kvs).toHaveLength(200);
    expect(all.kvs.every((k) => k.value.length === 100_000)).toBe(true);
    expect(Buffer.from(all.kvs[199].key).toString()).toBe('/kv-client/big/199');
  });

  test('an etcd refusal is not retried and carries etcd’s message', async () => {
    const kv = client(cluster.endpoints);
    const current = int64((await kv.range({ key: key('a') })).header.revision);
    const sent = jest.spyOn(GrpcConnection.prototype, 'unary');
    try {
      const error = await kv.range({ key: key('a'), revision: current + 1000 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EtcdCallError);
      expect((error as EtcdCallError).message).toContain('required revision is a future revision');
      expect((error as EtcdCallError).retryable).toBe(false);
      // one attempt: the refusal is final
      expect(sent).toHaveBeenCalledTimes(1);
    } finally {
      sent.mockRestore();
    }
  });

  test('a member that cannot be reached is skipped: calls go on on the others', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const kv = client([dead, ...cluster.endpoints]);
    for (let i = 0; i < 6; i++) {
      const res = await kv.range({ key: key('a') });
      expect(res.kvs).toHaveLength(1);
    }
  });

  test('with every member unreachable a call fails as a member failure, after its retries', async () => {
    const kv = client([`http://127.0.0.1:${await freePort()}`], 10_000);
    const started = Date.now();
    const error = await kv.range({ key: key('a') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EtcdCallError);
    expect((error as EtcdCallError).memberFailure).toBe(true);
    // four back-offs: 50 + 100 + 200 + 400 ms
    expect(Date.now() - started).toBeGreaterThanOrEqual(750);
  });

  test('a member that stops answering fails the call at its deadline', async () => {
    const kv = client(cluster.endpoints, 400);
    await kv.range({ key: key('a') });
    const etcd = cluster.members[0].process;
    etcd.kill('SIGSTOP');
    // a stop takes effect once each of the process's threads has been scheduled: until then, under
    // load, it may still answer
    const state = () => readFileSync(`/proc/${etcd.pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
    while (state() !== 'T') await new Promise((r) => setTimeout(r, 5));
    try {
      const started = Date.now();
      const error = await kv.range({ key: key('a') }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EtcdCallError);
      expect((error as EtcdCallError).message).toContain('deadline exceeded');
      expect(Date.now() - started).toBeGreaterThanOrEqual(390);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      etcd.kill('SIGCONT');
    }
    expect((await kv.range({ key: key('a') })).kvs).toHaveLength(1);
  });

  test('a retry-safe txn gives up an unanswered attempt and goes on on another member; others wait', async () => {
    // a member that takes connections and never answers, first in turn
    const held: net.Socket[] = [];
    const silent = net.createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentURL = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
    try {
      const put = (k: string) => ({
        compare: [
          { key: key(k), target: CompareTarget.Create, result: CompareResult.Greater, create_revision: -1 },
        ],
        success: [{ request_put: { key: key(k), value: Buffer.from('v') } }],
        failure: [],
      });
      const safe = client([silentURL, ...cluster.endpoints], 5000, 300);
      let started = Date.now();
      const answered = await safe.txn(put('resent'), true);
      expect(answered.succeeded).toBe(true);
      expect(answered.resent).toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(Date.now() - started).toBeLessThan(2000);
      // the silent member is skipped for a while: the next call is answered at once, in one attempt
      const sent = jest.spyOn(GrpcConnection.prototype, 'unary');
      try {
        expect((await safe.txn(put('next'), true)).resent).toBe(false);
        expect(sent).toHaveBeenCalledTimes(1);
      } finally {
        sent.mockRestore();
      }

      // a txn not marked retry-safe waits for its answer until the call's deadline
      const plain = client([silentURL, ...cluster.endpoints], 1000, 300);
      started = Date.now();
      const error = await plain.txn(put('plain')).catch((e: unknown) => e);
      expect((error as EtcdCallError).message).toContain('deadline exceeded');
      expect(Date.now() - started).toBeGreaterThanOrEqual(990);
      expect((await plain.range({ key: key('plain') })).kvs).toHaveLength(0);
    } finally {
      for (const socket of held) socket.destroy();
      silent.close();
    }
  });

  test('a closed client refuses calls', async () => {
    const kv = client(cluster.endpoints);
    kv.close();
    await expect(kv.range({ key: key('a') })).rejects.toThrow('etcd client closed');
  });
});
