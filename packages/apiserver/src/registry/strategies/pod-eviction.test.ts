import { startTestAPIServer, type TestAPIServer } from '../../testing/test-apiserver';
import { httpsRequest } from '../../testing/https-request';

describe('pods/eviction', () => {
  let s: TestAPIServer;
  const req = (path: string, options: Parameters<typeof httpsRequest>[1] = {}) =>
    httpsRequest(s.url + path, { ca: s.ca, ...options });
  const pods = '/api/v1/namespaces/default/pods';
  const pdbs = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
  const evict = (name: string, extra: Record<string, unknown> = {}) =>
    req(`${pods}/${name}/eviction`, {
      method: 'POST',
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name }, ...extra },
    });
  const pod = async (name: string, labels: Record<string, string>, phase = 'Running', ready = true) => {
    const created = await req(pods, {
      method: 'POST',
      body: { metadata: { name, labels }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
    });
    expect(created.status).toBe(201);
    const running = await req(`${pods}/${name}/status`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: { status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } },
    });
    expect(running.status).toBe(200);
  };
  const budget = async (
    name: string,
    app: string,
    status: Record<string, unknown>,
    spec: Record<string, unknown> = {},
  ) => {
    const created = await req(pdbs, {
      method: 'POST',
      body: { metadata: { name }, spec: { minAvailable: 1, selector: { matchLabels: { app } }, ...spec } },
    });
    expect(created.status).toBe(201);
    const updated = await req(`${pdbs}/${name}/status`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: { status: { observedGeneration: created.json.metadata.generation, ...status } },
    });
    expect(updated.status).toBe(200);
  };

  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: [] });
  });
  afterAll(() => s.close());

  it('evicts a pod no budget covers: 201 Success and the pod is gone', async () => {
    await pod('free', { app: 'free' });
    const res = await evict('free');
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Success', code: 201 });
    expect((await req(`${pods}/free`)).status).toBe(404);
  });

  it('refuses with 429 and the DisruptionBudget cause when the budget allows no disruption', async () => {
    await pod('db-0', { app: 'db' });
    await budget('db', 'db', {
      disruptionsAllowed: 0,
      currentHealthy: 1,
      desiredHealthy: 1,
      expectedPods: 1,
    });
    const res = await evict('db-0');
    expect(res.status).toBe(429);
    expect(res.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'TooManyRequests',
      code: 429,
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      details: {
        causes: [
          {
            reason: 'DisruptionBudget',
            message: 'The disruption budget db needs 1 healthy pods and has 1 currently',
          },
        ],
      },
    });
    expect((await req(`${pods}/db-0`)).status).toBe(200);
  });

  it('takes one allowed disruption, records the pod in disruptedPods and honours deleteOptions', async () => {
    await pod('web-0', { app: 'web' });
    await pod('web-1', { app: 'web' });
    await budget('web', 'web', {
      disruptionsAllowed: 1,
      currentHealthy: 2,
      desiredHealthy: 1,
      expectedPods: 2,
    });
    const dry = await req(`${pods}/web-0/eviction?dryRun=All`, {
      method: 'POST',
      body: { apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name: 'web-0' } },
    });
    expect(dry.status).toBe(201);
    expect((await req(`${pods}/web-0`)).status).toBe(200);

    const first = await evict('web-0', { deleteOptions: { gracePeriodSeconds: 0 } });
    expect(first.status).toBe(201);
    expect((await req(`${pods}/web-0`)).status).toBe(404);
    const pdb = (await req(`${pdbs}/web`)).json;
    expect(pdb.status.disruptionsAllowed).toBe(0);
    expect(Object.keys(pdb.status.disruptedPods)).toEqual(['web-0']);

    const second = await evict('web-1');
    expect(second.status).toBe(429);
    expect((await req(`${pods}/web-1`)).status).toBe(200);
  });

  it('evicts pods that are not running whatever the budget says, and 404s a missing pod', async () => {
    await pod('done', { app: 'db' }, 'Succeeded');
    expect((await evict('done')).status).toBe(201);
    const missing = await evict('nope');
    expect(missing.status).toBe(404);
    expect(missing.json.reason).toBe('NotFound');
    const mismatch = await req(`${pods}/db-0/eviction`, {
      method: 'POST',
      body: { apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name: 'other' } },
    });
    expect(mismatch.status).toBe(400);
  });

  it('evicts a pod that is not ready without taking a disruption, as its budget policy allows', async () => {
    // IfHealthyBudget (the default): while the budget has the healthy pods it needs
    await pod('api-0', { app: 'api' }, 'Running', false);
    await budget('api', 'api', {
      disruptionsAllowed: 0,
      currentHealthy: 1,
      desiredHealthy: 1,
      expectedPods: 2,
    });
    expect((await evict('api-0')).status).toBe(201);
    expect((await req(`${pods}/api-0`)).status).toBe(404);
    expect((await req(`${pdbs}/api`)).json.status.disruptionsAllowed).toBe(0);

    // ... and not when it lacks them
    await pod('queue-0', { app: 'queue' }, 'Running', false);
    await budget('queue', 'queue', {
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 1,
      expectedPods: 1,
    });
    expect((await evict('queue-0')).status).toBe(429);

    // AlwaysAllow: whatever the budget has
    await pod('cache-0', { app: 'cache' }, 'Running', false);
    await budget(
      'cache',
      'cache',
      { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 1, expectedPods: 1 },
      { unhealthyPodEvictionPolicy: 'AlwaysAllow' },
    );
    expect((await evict('cache-0')).status).toBe(201);
    expect((await req(`${pods}/cache-0`)).status).toBe(404);
  });

  it('serves budgets in policy/v1 and policy/v1beta1, the older with a deprecation warning', async () => {
    const old = await req('/apis/policy/v1beta1/namespaces/default/poddisruptionbudgets/web');
    expect(old.status).toBe(200);
    expect(old.json.apiVersion).toBe('policy/v1beta1');
    expect(old.headers.warning).toContain('policy/v1beta1 PodDisruptionBudget is deprecated in v1.21+');
    const current = await req(`${pdbs}/web`);
    expect(current.json.apiVersion).toBe('policy/v1');
    expect(current.headers.warning).toBeUndefined();
    const bad = await req(pdbs, {
      method: 'POST',
      body: { metadata: { name: 'bad' }, spec: { maxUnavailable: 1, unhealthyPodEvictionPolicy: 'Never' } },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toContain(
      'spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"',
    );
  });
});
