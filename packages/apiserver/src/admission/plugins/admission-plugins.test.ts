import { DEFAULT_FEATURE_GATES, FeatureGate } from '@orch/component-base';
import { httpsRequest } from '../../testing/https-request';
import { startTestAPIServer, type TestAPIServer } from '../../testing/test-apiserver';
import { defaultAdmissionPlugins } from './index';

/** The admission plugins on by default, through a server that runs all of them, as Kubernetes does. */
describe('the default admission plugins', () => {
  let s: TestAPIServer;
  const call = (method: string, path: string, body?: unknown) =>
    httpsRequest(s.url + path, { ca: s.ca, method, body });
  const mergePatch = (path: string, body: unknown) =>
    httpsRequest(s.url + path, {
      ca: s.ca,
      method: 'PATCH',
      body,
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
  const pods = (ns: string) => `/api/v1/namespaces/${ns}/pods`;
  const pcs = '/apis/scheduling.k8s.io/v1/priorityclasses';
  const createPod = (ns: string, name: string, spec: Record<string, unknown> = {}) =>
    call('POST', pods(ns), {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: { containers: [{ name: 'app', image: 'busybox' }], ...spec },
    });
  const createNamespace = async (name: string, serviceAccounts = ['default']) => {
    expect((await call('POST', '/api/v1/namespaces', { metadata: { name } })).status).toBe(201);
    for (const sa of serviceAccounts) {
      const r = await call('POST', `/api/v1/namespaces/${name}/serviceaccounts`, { metadata: { name: sa } });
      expect(r.status).toBe(201);
    }
  };
  const forbidden = (r: { status: number; json: any }, message: string) => {
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message,
    });
  };

  beforeAll(async () => {
    // preemption policies are set with NonPreemptingPriority on (see feature-gated-fields.test.ts for off)
    const features = new FeatureGate(DEFAULT_FEATURE_GATES);
    features.set({ NonPreemptingPriority: true });
    s = await startTestAPIServer({ admissionPlugins: defaultAdmissionPlugins, featureGates: features });
    await createNamespace('adm');
  });
  afterAll(() => s.close());

  describe('NamespaceLifecycle', () => {
    it('refuses content in a namespace that does not exist', async () => {
      const r = await call('POST', '/api/v1/namespaces/nowhere/configmaps', { metadata: { name: 'c' } });
      expect(r.status).toBe(404);
      expect(r.json).toMatchObject({ reason: 'NotFound', message: 'namespaces "nowhere" not found' });
    });

    it('refuses new content in a terminating namespace and lets existing content change', async () => {
      await createNamespace('ending', []);
      const cms = '/api/v1/namespaces/ending/configmaps';
      expect((await call('POST', cms, { metadata: { name: 'kept' } })).status).toBe(201);
      expect((await call('DELETE', '/api/v1/namespaces/ending')).status).toBe(200);
      const r = await call('POST', cms, { metadata: { name: 'late' } });
      forbidden(
        r,
        'configmaps "late" is forbidden: unable to create new content in namespace ending because it is being terminated',
      );
      expect(r.json.details.causes).toEqual([
        {
          reason: 'NamespaceTerminating',
          message: 'namespace ending is being terminated',
          field: 'metadata.namespace',
        },
      ]);
      expect(
        (await call('PUT', `${cms}/kept`, { metadata: { name: 'kept' }, data: { a: '1' } })).status,
      ).toBe(200);
    });

    it.each(['default', 'orch-system', 'orch-public'])('refuses to delete the %s namespace', async (ns) => {
      forbidden(
        await call('DELETE', `/api/v1/namespaces/${ns}`),
        `namespaces "${ns}" is forbidden: this namespace may not be deleted`,
      );
      expect((await call('GET', `/api/v1/namespaces/${ns}`)).json.status.phase).toBe('Active');
    });
  });

  describe('ServiceAccount', () => {
    it('runs a pod as the default service account', async () => {
      const r = await createPod('adm', 'plain');
      expect(r.status).toBe(201);
      expect(r.json.spec).toMatchObject({ serviceAccountName: 'default', serviceAccount: 'default' });
    });

    it('refuses a pod whose service account does not exist, until it does', async () => {
      forbidden(
        await createPod('adm', 'builds', { serviceAccountName: 'builder' }),
        'pods "builds" is forbidden: error looking up service account adm/builder: serviceaccount "builder" not found',
      );
      await call('POST', '/api/v1/namespaces/adm/serviceaccounts', { metadata: { name: 'builder' } });
      const r = await createPod('adm', 'builds', { serviceAccountName: 'builder' });
      expect(r.status).toBe(201);
      expect(r.json.spec).toMatchObject({ serviceAccountName: 'builder', serviceAccount: 'builder' });
      // the deprecated field names the account when serviceAccountName is not given
      const old = await createPod('adm', 'old-style', { serviceAccount: 'builder' });
      expect(old.json.spec).toMatchObject({ serviceAccountName: 'builder', serviceAccount: 'builder' });
    });

    it('refuses pods in a namespace without its default service account', async () => {
      await createNamespace('no-accounts', []);
      forbidden(
        await createPod('no-accounts', 'p'),
        'pods "p" is forbidden: error looking up service account no-accounts/default: serviceaccount "default" not found',
      );
    });
  });

  describe('DefaultIngressClass', () => {
    const classes = '/apis/networking.k8s.io/v1/ingressclasses';
    const ingresses = '/apis/networking.k8s.io/v1/namespaces/adm/ingresses';
    const ingress = (
      name: string,
      spec: Record<string, unknown> = {},
      annotations?: Record<string, string>,
    ) =>
      call('POST', ingresses, {
        metadata: { name, ...(annotations ? { annotations } : {}) },
        spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } }, ...spec },
      });
    const ingressClass = (name: string, isDefault: boolean) =>
      call('POST', classes, {
        metadata: {
          name,
          ...(isDefault ? { annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } } : {}),
        },
        spec: { controller: 'example.com/ingress' },
      });

    it('gives a new Ingress that names no class the default class, the newest of several', async () => {
      expect((await ingress('before')).json.spec.ingressClassName).toBeUndefined();
      expect((await ingressClass('plain', false)).status).toBe(201);
      expect((await ingress('no-default')).json.spec.ingressClassName).toBeUndefined();
      expect((await ingressClass('first', true)).status).toBe(201);
      expect((await ingress('defaulted')).json.spec.ingressClassName).toBe('first');
      // creation times have whole seconds: the newer default is made a second later
      await new Promise((r) => setTimeout(r, 1100));
      expect((await ingressClass('second', true)).status).toBe(201);
      expect((await ingress('newest')).json.spec.ingressClassName).toBe('second');
    });

    it('leaves an Ingress that names its class, by field or annotation, and updates', async () => {
      expect((await ingress('named', { ingressClassName: 'plain' })).json.spec.ingressClassName).toBe(
        'plain',
      );
      const annotated = await ingress('annotated', {}, { 'kubernetes.io/ingress.class': 'legacy' });
      expect(annotated.status).toBe(201);
      expect(annotated.json.spec.ingressClassName).toBeUndefined();
      const updated = await mergePatch(`${ingresses}/annotated`, { metadata: { labels: { a: 'b' } } });
      expect(updated.status).toBe(200);
      expect(updated.json.spec.ingressClassName).toBeUndefined();
    });
  });

  describe('DefaultTolerationSeconds', () => {
    const notReady = { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' };
    const unreachable = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' };

    it('adds 300 s tolerations of not-ready and unreachable nodes', async () => {
      const r = await createPod('adm', 'tolerant');
      expect(r.json.spec.tolerations).toEqual([
        { ...notReady, tolerationSeconds: 300 },
        { ...unreachable, tolerationSeconds: 300 },
      ]);
    });

    it.each([
      [
        'keeps a toleration of its own and adds the other',
        [{ ...notReady, tolerationSeconds: 10 }],
        [
          { ...notReady, tolerationSeconds: 10 },
          { ...unreachable, tolerationSeconds: 300 },
        ],
      ],
      [
        'adds nothing to a pod that tolerates every taint',
        [{ operator: 'Exists' }],
        [{ operator: 'Exists' }],
      ],
      [
        'adds both when the pod tolerates them for another effect only',
        [{ ...notReady, effect: 'NoSchedule' }],
        [
          { ...notReady, effect: 'NoSchedule' },
          { ...notReady, tolerationSeconds: 300 },
          { ...unreachable, tolerationSeconds: 300 },
        ],
      ],
    ])('%s', async (_what, tolerations, want) => {
      const name = `t-${Math.random().toString(36).slice(2, 8)}`;
      const r = await createPod('adm', name, { tolerations });
      expect(r.status).toBe(201);
      expect(r.json.spec.tolerations).toEqual(want);
    });
  });

  describe('LimitRanger', () => {
    beforeAll(async () => {
      await createNamespace('limited');
      const r = await call('POST', '/api/v1/namespaces/limited/limitranges', {
        metadata: { name: 'limits' },
        spec: {
          limits: [
            {
              type: 'Container',
              default: { cpu: '500m', memory: '256Mi' },
              defaultRequest: { cpu: '100m' },
              max: { cpu: '1' },
              min: { cpu: '50m' },
              maxLimitRequestRatio: { cpu: '10' },
            },
            { type: 'Pod', max: { memory: '1Gi' } },
          ],
        },
      });
      expect(r.status).toBe(201);
    });

    it('sets the default requests and limits it names in the annotation', async () => {
      const r = await createPod('limited', 'defaulted', {
        containers: [{ name: 'app', image: 'busybox', resources: { requests: { memory: '64Mi' } } }],
        initContainers: [{ name: 'setup', image: 'busybox' }],
      });
      expect(r.status).toBe(201);
      expect(r.json.spec.containers[0].resources).toEqual({
        requests: { memory: '64Mi', cpu: '100m' },
        limits: { cpu: '500m', memory: '256Mi' },
      });
      // the LimitRange's own defaulting made defaultRequest's memory its default's
      expect(r.json.spec.initContainers[0].resources).toEqual({
        requests: { cpu: '100m', memory: '256Mi' },
        limits: { cpu: '500m', memory: '256Mi' },
      });
      expect(r.json.metadata.annotations['kubernetes.io/limit-ranger']).toBe(
        'LimitRanger plugin set: cpu request for container app; cpu, memory limit for container app; ' +
          'cpu, memory request for init container setup; cpu, memory limit for init container setup',
      );
    });

    it.each([
      [
        { requests: { cpu: '100m' }, limits: { cpu: '2' } },
        'pods "p" is forbidden: [maximum cpu usage per Container is 1, but limit is 2, cpu max limit to request ratio per Container is 10, but provided ratio is 20.000000]',
      ],
      // a container's requests default to its limits when it gives only limits
      [
        { limits: { cpu: '2' } },
        'pods "p" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
      ],
      [
        { requests: { cpu: '10m' } },
        'pods "p" is forbidden: [minimum cpu usage per Container is 50m, but request is 10m, cpu max limit to request ratio per Container is 10, but provided ratio is 50.000000]',
      ],
      [
        { requests: { cpu: '60m' }, limits: { cpu: '900m' } },
        'pods "p" is forbidden: cpu max limit to request ratio per Container is 10, but provided ratio is 15.000000',
      ],
      [
        { limits: { memory: '2Gi' } },
        'pods "p" is forbidden: maximum memory usage per Pod is 1Gi, but limit is 2Gi',
      ],
    ])('refuses resources %j outside the ranges', async (resources, message) => {
      forbidden(
        await createPod('limited', 'p', { containers: [{ name: 'app', image: 'busybox', resources }] }),
        message,
      );
    });

    it('counts every container toward the Pod maximum', async () => {
      const container = (name: string) => ({
        name,
        image: 'busybox',
        resources: { limits: { memory: '600Mi' } },
      });
      forbidden(
        await createPod('limited', 'two', { containers: [container('a'), container('b')] }),
        'pods "two" is forbidden: maximum memory usage per Pod is 1Gi, but limit is 1200Mi',
      );
      expect((await createPod('limited', 'one', { containers: [container('a')] })).status).toBe(201);
    });
  });

  describe('Priority', () => {
    it('serves the system classes, which cannot be deleted', async () => {
      const list = await call('GET', pcs);
      expect(
        list.json.items.map((pc: any) => [pc.metadata.name, pc.value, pc.globalDefault, pc.preemptionPolicy]),
      ).toEqual([
        // globalDefault false is left out, as Kubernetes serves it
        ['system-cluster-critical', 2000000000, undefined, 'PreemptLowerPriority'],
        ['system-node-critical', 2000001000, undefined, 'PreemptLowerPriority'],
      ]);
      forbidden(
        await call('DELETE', `${pcs}/system-node-critical`),
        'priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted',
      );
      expect((await call('GET', `${pcs}/system-node-critical`)).status).toBe(200);
      // any other class can be deleted, whatever its name
      expect((await call('POST', pcs, { metadata: { name: 'constructor' }, value: 1 })).status).toBe(201);
      expect((await call('DELETE', `${pcs}/constructor`)).status).toBe(200);
    });

    it('gives a pod without a class priority 0 and PreemptLowerPriority', async () => {
      const r = await createPod('adm', 'ordinary');
      expect(r.json.spec.priority).toBe(0);
      expect(r.json.spec.preemptionPolicy).toBe('PreemptLowerPriority');
      expect(r.json.spec.priorityClassName).toBeUndefined();
    });

    it("takes a named class's value and preemption policy", async () => {
      const pc = { metadata: { name: 'batch' }, value: 1000, preemptionPolicy: 'Never' };
      expect((await call('POST', pcs, pc)).status).toBe(201);
      const r = await createPod('adm', 'batch-job', { priorityClassName: 'batch' });
      expect(r.json.spec).toMatchObject({
        priorityClassName: 'batch',
        priority: 1000,
        preemptionPolicy: 'Never',
      });
      const critical = await createPod('adm', 'critical', { priorityClassName: 'system-node-critical' });
      expect(critical.json.spec).toMatchObject({
        priority: 2000001000,
        preemptionPolicy: 'PreemptLowerPriority',
      });
    });

    it('refuses a missing class and a stated priority or policy other than the computed ones', async () => {
      forbidden(
        await createPod('adm', 'lost', { priorityClassName: 'nope' }),
        'pods "lost" is forbidden: no PriorityClass with name nope was found',
      );
      forbidden(
        await createPod('adm', 'bold', { priorityClassName: 'batch', priority: 5 }),
        'pods "bold" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name',
      );
      forbidden(
        await createPod('adm', 'pushy', {
          priorityClassName: 'batch',
          preemptionPolicy: 'PreemptLowerPriority',
        }),
        'pods "pushy" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name',
      );
      const same = await createPod('adm', 'agreeing', { priorityClassName: 'batch', priority: 1000 });
      expect(same.status).toBe(201);
    });

    it('gives pods without a class the one global default, and keeps priority through updates', async () => {
      const r = await call('POST', pcs, { metadata: { name: 'standard' }, value: 10, globalDefault: true });
      expect(r.status).toBe(201);
      forbidden(
        await call('POST', pcs, { metadata: { name: 'rival' }, value: 20, globalDefault: true }),
        'priorityclasses.scheduling.k8s.io "rival" is forbidden: PriorityClass standard is already marked as default. Only one default can exist',
      );
      forbidden(
        await mergePatch(`${pcs}/batch`, { globalDefault: true }),
        'priorityclasses.scheduling.k8s.io "batch" is forbidden: PriorityClass standard is already marked as default. Only one default can exist',
      );
      // the default itself may be updated
      expect((await mergePatch(`${pcs}/standard`, { description: 'the usual' })).status).toBe(200);

      const pod = await createPod('adm', 'defaulted-priority');
      expect(pod.json.spec).toMatchObject({
        priorityClassName: 'standard',
        priority: 10,
        preemptionPolicy: 'PreemptLowerPriority',
      });
      const { priority: _p, preemptionPolicy: _pp, ...rest } = pod.json.spec;
      const updated = await call('PUT', `${pods('adm')}/defaulted-priority`, {
        ...pod.json,
        metadata: { ...pod.json.metadata, labels: { updated: 'yes' } },
        spec: rest,
      });
      expect(updated.status).toBe(200);
      expect(updated.json.spec).toMatchObject({ priority: 10, preemptionPolicy: 'PreemptLowerPriority' });
    });
  });
});
