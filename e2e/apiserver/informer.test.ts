import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { httpsRequest, startAPIServerProcess, type APIServerProcess } from '@orch/apiserver';

interface InformerEvent {
  event: string;
  name?: string;
  names?: string[];
  rv?: string;
  labels?: Record<string, string>;
  code?: number;
}

/**
 * An informer of @kubernetes/client-node against orch-apiserver as a process: list, watch, adds,
 * updates, deletes, and a relist after 410 Gone.
 *
 * The 410 is forced the way it happens in a real cluster: the informer stops watching, the pods
 * change, and the apiserver restarts. A restarted apiserver's watch cache holds history only from
 * its start, so the informer's watch from its older resourceVersion is answered 410; the informer
 * then lists again and must see the pods added and deleted while it was away.
 */
describe('client-node informer against orch-apiserver', () => {
  let api: APIServerProcess;
  let driver: ChildProcess;
  const events: InformerEvent[] = [];
  const waiters: (() => void)[] = [];

  const req = (path: string, options: Parameters<typeof httpsRequest>[1] = {}) =>
    httpsRequest(api.url + path, {
      ca: api.pki.ca,
      cert: api.pki.admin.cert,
      key: api.pki.admin.key,
      ...options,
    });
  const pods = '/api/v1/namespaces/default/pods';
  const createPod = async (name: string): Promise<void> => {
    const res = await req(pods, {
      method: 'POST',
      body: { metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
    });
    expect(res.status).toBe(201);
  };
  const deletePod = async (name: string): Promise<void> => {
    expect((await req(`${pods}/${name}`, { method: 'DELETE' })).status).toBe(200);
  };
  const send = (command: string): void => {
    driver.stdin!.write(`${command}\n`);
  };
  /** Waits until an event after index `from` matches. */
  const waitFor = (
    match: (e: InformerEvent) => boolean,
    from = 0,
    timeoutMs = 15_000,
  ): Promise<InformerEvent> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching informer event; seen: ${JSON.stringify(events.slice(from))}`)),
        timeoutMs,
      );
      const check = (): void => {
        const found = events.slice(from).find(match);
        if (!found) return;
        clearTimeout(timer);
        waiters.splice(waiters.indexOf(check), 1);
        resolve(found);
      };
      waiters.push(check);
      check();
    });

  beforeAll(async () => {
    api = await startAPIServerProcess();
    const sa = await req('/api/v1/namespaces/default/serviceaccounts', {
      method: 'POST',
      body: { metadata: { name: 'default' } },
    });
    expect([201, 409]).toContain(sa.status);
    driver = spawn(process.execPath, [join(__dirname, 'informer-driver.mjs'), api.kubeconfig], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    createInterface({ input: driver.stdout! }).on('line', (line) => {
      events.push(JSON.parse(line) as InformerEvent);
      for (const w of [...waiters]) w();
    });
  }, 60_000);
  afterAll(async () => {
    driver?.kill();
    await api?.destroy();
  });

  it('lists, watches adds, updates and deletes, and relists after 410', async () => {
    send('start');
    await waitFor((e) => e.event === 'LIST');
    await waitFor((e) => e.event === 'STARTED');

    await createPod('a');
    await createPod('b');
    await waitFor((e) => e.event === 'ADD' && e.name === 'a');
    await waitFor((e) => e.event === 'ADD' && e.name === 'b');
    const patched = await req(`${pods}/a`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: { metadata: { labels: { tier: 'web' } } },
    });
    expect(patched.status).toBe(200);
    await waitFor((e) => e.event === 'UPDATE' && e.name === 'a' && e.labels?.tier === 'web');
    await deletePod('b');
    await waitFor((e) => e.event === 'DELETE' && e.name === 'b');

    // away: the informer stops watching, the pods change, the apiserver restarts
    const mark = events.length;
    send('stop');
    const stopped = await waitFor((e) => e.event === 'STOPPED', mark);
    await createPod('c');
    await deletePod('a');
    await api.stop();
    await api.restart();

    // the informer's resourceVersion is history the restarted apiserver no longer has
    const gone = await req(`${pods}?watch=true&timeoutSeconds=1&resourceVersion=${stopped.rv}`);
    const answer = gone.status === 200 ? JSON.parse(gone.body.toString().split('\n')[0]!).object : gone.json;
    expect(answer).toMatchObject({ kind: 'Status', code: 410 });

    const resumed = events.length;
    send('start');
    const relist = await waitFor((e) => e.event === 'LIST', resumed);
    expect(relist.names).toEqual(['c']);
    await waitFor((e) => e.event === 'ADD' && e.name === 'c', resumed);
    await waitFor((e) => e.event === 'DELETE' && e.name === 'a', resumed);

    // and it watches again from the new list
    await createPod('d');
    await waitFor((e) => e.event === 'ADD' && e.name === 'd', resumed);
    const cacheAt = events.length;
    send('cache');
    expect((await waitFor((e) => e.event === 'CACHE', cacheAt)).names).toEqual(['c', 'd']);
  }, 60_000);
});
