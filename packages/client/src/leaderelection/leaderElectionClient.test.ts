import { RestClient } from '../rest/RestClient';
import { generateTestPki, type TestPki } from '../testing/certs';
import { FakeApiServer } from '../testing/FakeApiServer';
import { leaderElectionClient } from './leaderElectionClient';

let pki: TestPki;
let server: FakeApiServer;
const clients: RestClient[] = [];

beforeAll(async () => {
  pki = generateTestPki();
  server = new FakeApiServer({ pki, token: 'secret' });
  await server.start();
});
afterAll(async () => {
  clients.forEach((c) => c.close());
  await server.stop();
});

describe('leaderElectionClient', () => {
  it("goes out at once while the daemon's own rate limiter is queueing requests", async () => {
    const daemon = new RestClient({
      server: server.url,
      ca: Buffer.from(pki.caCert),
      token: 'secret',
      qps: 2,
      burst: 1,
      userAgent: 'orch-controller-manager/v1.29.0',
    });
    const election = leaderElectionClient(daemon);
    clients.push(daemon, election);
    // a burst of controller requests: at 2 qps the last of them waits about 3 s for its token
    const start = Date.now();
    const burst = Promise.all(
      Array.from({ length: 7 }, () => daemon.get().resource('configmaps').namespace('d').do()),
    );
    await election.get().resource('configmaps').namespace('d').do();
    const electionWaited = Date.now() - start;
    const electionRequest = server.requests.at(-1)!;
    await burst;
    const daemonWaited = Date.now() - start;
    expect(daemonWaited).toBeGreaterThanOrEqual(2500);
    expect(electionWaited).toBeLessThan(1000);
    expect(electionRequest.headers['user-agent']).toBe('orch-controller-manager/v1.29.0/leader-election');
  });
});
