import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allKinds, compileGatedFields } from '@orch/api';
import { DEFAULT_FEATURE_GATES, FeatureGate } from '@orch/component-base';
import { startTestAPIServer, type TestAPIServer } from '../testing/test-apiserver';
import { httpsRequest } from '../testing/https-request';
import { SqliteStorage } from '../storage/embedded/sqlite-storage';

function gates(values: Record<string, boolean>): FeatureGate {
  const g = new FeatureGate(DEFAULT_FEATURE_GATES);
  expect(g.set(values)).toEqual([]);
  return g;
}

const pods = '/api/v1/namespaces/default/pods';

/** A pod using fields of alpha gates (off by default) and of a beta gate (on by default). */
function gatedPod(name: string) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'nginx',
          startupProbe: { exec: { command: ['true'] } },
          securityContext: { runAsGroup: 1000 },
        },
      ],
      topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }],
      overhead: { cpu: '100m' },
    },
  };
}

it('every gate a field names is a feature gate the daemons know', () => {
  const known = new Set(new FeatureGate(DEFAULT_FEATURE_GATES).names());
  const named = allKinds.flatMap((k) => compileGatedFields(k.schema)?.gates ?? []);
  expect(named.length).toBeGreaterThan(0);
  expect(named.filter((g) => !known.has(g))).toEqual([]);
});

describe.each([
  ['default gates', {}, false],
  [
    'StartupProbe, EvenPodsSpread and PodOverhead on',
    { StartupProbe: true, EvenPodsSpread: true, PodOverhead: true },
    true,
  ],
])('fields of feature gates, %s', (_name, values, alphaOn) => {
  let s: TestAPIServer;
  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: [], featureGates: gates(values) });
  });
  afterAll(() => s.close());
  const req = (method: string, path: string, body?: unknown) =>
    httpsRequest(s.url + path, { ca: s.ca, method, body });

  it(`are ${alphaOn ? 'kept' : 'dropped'} on create; a beta field (on by default) is kept`, async () => {
    const created = await req('POST', pods, gatedPod('a'));
    expect(created.status).toBe(201);
    const got = (await req('GET', `${pods}/a`)).json;
    const container = got.spec.containers[0];
    expect(container.securityContext.runAsGroup).toBe(1000);
    if (alphaOn) {
      expect(container.startupProbe).toMatchObject({ exec: { command: ['true'] } });
      expect(got.spec.topologySpreadConstraints).toHaveLength(1);
      expect(got.spec.overhead).toEqual({ cpu: '100m' });
    } else {
      expect(container.startupProbe).toBeUndefined();
      expect(got.spec.topologySpreadConstraints).toBeUndefined();
      expect(got.spec.overhead).toBeUndefined();
    }
    expect(created.json.spec).toEqual(got.spec);
  });
});

describe('an update of an object that uses a disabled feature', () => {
  it('keeps the feature it has, and a new object of the same server still loses it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-gated-'));
    const storage = new SqliteStorage(join(dir, 'orch.db'));
    // written while the gate was on
    const on = await startTestAPIServer({
      admissionPlugins: [],
      storage,
      featureGates: gates({ StartupProbe: true }),
    });
    expect(
      (await httpsRequest(`${on.url}${pods}`, { ca: on.ca, method: 'POST', body: gatedPod('a') })).status,
    ).toBe(201);
    await on.close();
    // the gate turned off again
    const off = await startTestAPIServer({ admissionPlugins: [], storage });
    try {
      const req = (method: string, path: string, body?: unknown) =>
        httpsRequest(off.url + path, { ca: off.ca, method, body });
      const stored = (await req('GET', `${pods}/a`)).json;
      expect(stored.spec.containers[0].startupProbe).toBeDefined();
      stored.metadata.labels = { changed: 'yes' };
      const updated = await req('PUT', `${pods}/a`, stored);
      expect(updated.status).toBe(200);
      expect(updated.json.spec.containers[0].startupProbe).toBeDefined();
      expect((await req('POST', pods, gatedPod('b'))).status).toBe(201);
      expect((await req('GET', `${pods}/b`)).json.spec.containers[0].startupProbe).toBeUndefined();
    } finally {
      await off.close();
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Priority admission with NonPreemptingPriority off (its default)', () => {
  let s: TestAPIServer;
  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: ['Priority'] });
  });
  afterAll(() => s.close());
  const req = (method: string, path: string, body?: unknown) =>
    httpsRequest(s.url + path, { ca: s.ca, method, body });

  it('gives pods their priority but no preemption policy, and classes keep none', async () => {
    const classes = '/apis/scheduling.k8s.io/v1/priorityclasses';
    const made = await req('POST', classes, {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'never' },
      value: 5,
      preemptionPolicy: 'Never',
    });
    expect(made.status).toBe(201);
    expect(made.json.preemptionPolicy).toBeUndefined();
    const system = (await req('GET', `${classes}/system-node-critical`)).json;
    expect(system.preemptionPolicy).toBeUndefined();
    const pod = await req('POST', pods, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { priorityClassName: 'never', containers: [{ name: 'app', image: 'nginx' }] },
    });
    expect(pod.status).toBe(201);
    expect(pod.json.spec.priority).toBe(5);
    expect(pod.json.spec.preemptionPolicy).toBeUndefined();
  });
});
