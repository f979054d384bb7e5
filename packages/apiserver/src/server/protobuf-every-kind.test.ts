import https from 'node:https';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  allKinds,
  compileGatedFields,
  apiVersionOf,
  encodeEnvelope,
  ProtobufCodec,
  protobufMediaType,
  protobufMediaTypeAlias,
  validObjectOf,
  type KindDeclaration,
} from '@orch/api';
import { createSigningKey, DEFAULT_FEATURE_GATES, FeatureGate } from '@orch/component-base';
import { enableAccessControl, type AccessControl } from '../reviews/access-control';
import { httpsRequest, type HttpsResponse } from '../testing/https-request';
import { startTestAPIServer, type TestAPIServer } from '../testing/test-apiserver';

type Json = Record<string, any>;

/** What client-go sends for protobuf: the Kubernetes spelling, and the stream parameter on watches. */
const pbType = protobufMediaTypeAlias;
const pbWatch = `${protobufMediaTypeAlias};stream=watch`;

const codec = new ProtobufCodec(allKinds);
const namespace = 'default';

/**
 * The kinds and how each reaches the server in protobuf, derived from the declarations:
 * - stored kinds (not `virtual`) are created, read and watched;
 * - virtual kinds served with the create verb (reviews, Binding) are POSTed and their answer decoded;
 * - virtual kinds with no verbs of their own (Scale, Eviction, TokenRequest) exist only as the bodies of
 *   subresources (scale, eviction, token) and are exercised there.
 * No kind is declared without a protobuf message but the JSON-only ones (apiextensions.k8s.io, as in
 * Kubernetes): every other one is checked to have one.
 */
// JSON-only kinds (apiextensions.k8s.io) have no protobuf message, as in Kubernetes
const stored = allKinds.filter((d) => !d.virtual && !d.jsonOnly);
const created = allKinds.filter((d) => d.virtual && d.verbs?.includes('create'));
const subresourceBodies = allKinds.filter((d) => d.virtual && !d.verbs?.length);

const cases = stored.flatMap((decl) =>
  decl.versions.map(
    (version) => [`${apiVersionOf(decl.group, version)} ${decl.kind}`, decl, version] as const,
  ),
);

function prefixOf(group: string, version: string): string {
  return group ? `/apis/${group}/${version}` : `/api/${version}`;
}

function collectionOf(decl: KindDeclaration<any>, version: string): string {
  const prefix = prefixOf(decl.group, version);
  return decl.namespaced ? `${prefix}/namespaces/${namespace}/${decl.plural}` : `${prefix}/${decl.plural}`;
}

/**
 * The paths where `got` differs from what was `sent`: every value sent must come back as it was sent
 * (maps may gain keys, as defaults and server-set metadata add them; lists keep their items in order).
 */
function changedFields(sent: unknown, got: unknown, path = ''): string[] {
  if (typeof sent === 'object' && sent !== null) {
    if (typeof got !== 'object' || got === null || Array.isArray(sent) !== Array.isArray(got))
      return [`${path}: sent ${JSON.stringify(sent)}, got ${JSON.stringify(got)}`];
    if (Array.isArray(sent)) {
      const list = got as unknown[];
      if (list.length < sent.length) return [`${path}: sent ${sent.length} items, got ${list.length}`];
      return sent.flatMap((item, i) => changedFields(item, list[i], `${path}[${i}]`));
    }
    return Object.entries(sent).flatMap(([k, v]) => changedFields(v, (got as Json)[k], `${path}.${k}`));
  }
  return sent === got ? [] : [`${path}: sent ${JSON.stringify(sent)}, got ${JSON.stringify(got)}`];
}

/** A protobuf watch: frames are read as they come; `next` waits for the first event matching. */
class ProtobufWatch {
  readonly events: { type: string; object: Json }[] = [];
  contentType = '';
  private buffer = Buffer.alloc(0);
  private waiter?: () => void;
  private req?: ReturnType<typeof https.request>;
  private closed = false;

  open(url: string, ca: string, accept: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.req = https.request(
        url,
        { ca, headers: { Accept: accept, Authorization: 'Bearer admin-token' } },
        (res) => {
          this.contentType = String(res.headers['content-type'] ?? '');
          if (res.statusCode !== 200) {
            reject(new Error(`watch answered ${res.statusCode}`));
            return;
          }
          res.on('data', (chunk: Buffer) => this.receive(chunk));
          res.on('error', () => undefined);
          resolve();
        },
      );
      this.req.on('error', (e) => {
        if (!this.closed) reject(e);
      });
      this.req.end();
    });
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length >= 4) {
      const length = this.buffer.readUInt32BE(0);
      if (this.buffer.length < 4 + length) break;
      this.events.push(codec.decodeWatchEvent(this.buffer.subarray(4, 4 + length)));
      this.buffer = this.buffer.subarray(4 + length);
    }
    this.waiter?.();
  }

  async next(
    match: (e: { type: string; object: Json }) => boolean,
    ms = 5000,
  ): Promise<{ type: string; object: Json }> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.events.find(match);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no matching watch event; got ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 100);
        this.waiter = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
  }

  close(): void {
    this.closed = true;
    this.req?.destroy();
  }
}

describe('protobuf through the apiserver for every kind', () => {
  let s: TestAPIServer;
  let access: AccessControl;

  const send = (
    method: string,
    path: string,
    options: { body?: Buffer | Json; contentType?: string; accept?: string } = {},
  ): Promise<HttpsResponse> => {
    return httpsRequest(s.url + path, {
      method,
      ca: s.ca,
      ...(options.body === undefined ? {} : { body: options.body }),
      headers: {
        Authorization: 'Bearer admin-token',
        ...(options.contentType ? { 'Content-Type': options.contentType } : {}),
        ...(options.accept ? { Accept: options.accept } : {}),
      },
    });
  };
  /** Sends an object in protobuf and decodes a protobuf answer (JSON answers are errors). */
  const sendPB = async (method: string, path: string, obj: Json, expected: number): Promise<Json> => {
    const res = await send(method, path, {
      body: Buffer.from(codec.encode(obj)),
      contentType: pbType,
      accept: pbType,
    });
    if (res.status !== expected) throw new Error(`${method} ${path}: ${res.status} ${res.body.toString()}`);
    expect(res.headers['content-type']).toBe(pbType);
    return codec.decode(res.body);
  };
  const getJSON = async (path: string): Promise<Json> => {
    const res = await send('GET', path, { accept: 'application/json' });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.body.toString()}`);
    return res.json as Json;
  };
  const getPB = async (path: string, accept = pbType): Promise<Json> => {
    const res = await send('GET', path, { accept });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.body.toString()}`);
    expect(res.headers['content-type']).toBe(accept.split(',')[0]);
    return codec.decode(res.body);
  };

  beforeAll(async () => {
    // every field travels, those of feature gates off by default too
    const fieldGates = new FeatureGate(DEFAULT_FEATURE_GATES);
    fieldGates.set(
      Object.fromEntries(
        allKinds.flatMap((k) => compileGatedFields(k.schema)?.gates ?? []).map((g) => [g, true]),
      ),
    );
    s = await startTestAPIServer({ admissionPlugins: [], featureGates: fieldGates });
    const signing = createSigningKey();
    writeFileSync(join(s.dir, 'sa.pub'), signing.publicKey);
    writeFileSync(join(s.dir, 'tokens.csv'), 'admin-token,admin,admin-uid,"system:masters"\n');
    access = await enableAccessControl(s.server, {
      tokenAuthFile: join(s.dir, 'tokens.csv'),
      serviceAccountKeyFiles: [join(s.dir, 'sa.pub')],
      serviceAccountIssuers: ['https://orch.test'],
      serviceAccountSigningKey: signing.privateKey,
    });
  });
  afterAll(async () => {
    access.close();
    await s.close();
  });

  it('has a protobuf message for every kind and version', () => {
    for (const decl of allKinds)
      for (const v of decl.versions)
        expect(codec.supports(apiVersionOf(decl.group, v), decl.kind)).toBe(!decl.jsonOnly);
    expect(subresourceBodies.map((d) => d.kind).sort()).toEqual(['Eviction', 'Scale', 'TokenRequest']);
  });

  it.each(cases)(
    '%s: created in protobuf, read as JSON and protobuf, watched in protobuf',
    async (_n, decl, version) => {
      const name = `pb-${decl.singular}-${version}`;
      const sent = validObjectOf(decl.group, version, decl.kind, {
        name,
        namespace: decl.namespaced ? namespace : '',
      });
      expect(sent).toBeDefined();
      // every field of the fixture is declared (protobuf has no place for the others)
      expect(codec.decode(codec.encode(sent!))).toEqual(sent);
      const collection = collectionOf(decl, version);
      const watch = new ProtobufWatch();
      // alternate the two spellings client-go may send for a protobuf watch
      const accept = cases.findIndex((c) => c[1] === decl && c[2] === version) % 2 ? pbWatch : pbType;
      await watch.open(`${s.url}${collection}?watch=1&fieldSelector=metadata.name%3D${name}`, s.ca, accept);
      try {
        expect(watch.contentType).toBe(pbWatch);
        const answer = await sendPB('POST', collection, sent!, 201);

        const json = await getJSON(`${collection}/${name}`);
        expect(changedFields(sent, json)).toEqual([]);
        expect(answer).toEqual(json);
        expect(await getPB(`${collection}/${name}`)).toEqual(json);

        const added = await watch.next((e) => e.type === 'ADDED' && e.object.metadata?.name === name);
        expect(added.object).toEqual(json);

        // lists in protobuf carry the items without their TypeMeta
        const list = await getPB(`${collection}?fieldSelector=metadata.name%3D${name}`);
        const { apiVersion: _a, kind: _k, ...item } = json;
        expect(list).toMatchObject({ kind: decl.listKind ?? `${decl.kind}List`, items: [item] });
      } finally {
        watch.close();
      }
    },
  );

  /** Creates a stored kind's valid object in JSON and returns the stored form. */
  const createJSON = async (group: string, kind: string, name: string): Promise<Json> => {
    const decl = allKinds.find((d) => d.group === group && d.kind === kind)!;
    const obj = validObjectOf(group, decl.versions[0]!, kind, {
      name,
      namespace: decl.namespaced ? namespace : '',
    })!;
    const res = await send('POST', collectionOf(decl, decl.versions[0]!), {
      body: obj,
      contentType: 'application/json',
    });
    if (res.status !== 201) throw new Error(`create ${kind}: ${res.status} ${res.body.toString()}`);
    return res.json as Json;
  };
  const pathOf = (group: string, kind: string, name: string): string => {
    const decl = allKinds.find((d) => d.group === group && d.kind === kind)!;
    return `${collectionOf(decl, decl.versions[0]!)}/${name}`;
  };

  it.each([
    ['', 'ConfigMap'],
    ['apps', 'Deployment'],
    ['', 'Secret'],
  ])('%s %s: protobuf in, JSON out', async (group, kind) => {
    const decl = allKinds.find((d) => d.group === group && d.kind === kind)!;
    const version = decl.versions[0]!;
    const name = `pb-in-${decl.singular}`;
    const sent = validObjectOf(group, version, kind, { name, namespace })!;
    const res = await send('POST', collectionOf(decl, version), {
      body: Buffer.from(codec.encode(sent)),
      contentType: protobufMediaType,
      accept: 'application/json',
    });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
    expect(changedFields(sent, res.json)).toEqual([]);
    expect(res.json).toEqual(await getJSON(`${collectionOf(decl, version)}/${name}`));
  });

  it.each([
    ['', 'Pod'],
    ['rbac.authorization.k8s.io', 'Role'],
    ['coordination.k8s.io', 'Lease'],
  ])('%s %s: JSON in, protobuf out', async (group, kind) => {
    const decl = allKinds.find((d) => d.group === group && d.kind === kind)!;
    const version = decl.versions[0]!;
    const name = `json-in-${decl.singular}`;
    const sent = validObjectOf(group, version, kind, { name, namespace })!;
    const res = await send('POST', collectionOf(decl, version), {
      body: sent,
      contentType: 'application/json',
      accept: `${protobufMediaType}, application/json`,
    });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe(protobufMediaType);
    const answer = codec.decode(res.body);
    expect(changedFields(sent, answer)).toEqual([]);
    expect(answer).toEqual(await getJSON(`${collectionOf(decl, version)}/${name}`));
  });

  it('updates (PUT) in protobuf, with a resourceVersion precondition, watched in protobuf', async () => {
    const path = pathOf('apps', 'Deployment', 'pb-put');
    const stored = await createJSON('apps', 'Deployment', 'pb-put');
    const collection = collectionOf(
      allKinds.find((d) => d.kind === 'Deployment')!,
      'v1',
    );
    const watch = new ProtobufWatch();
    await watch.open(
      `${s.url}${collection}?watch=1&allowWatchBookmarks=true&resourceVersion=${stored.metadata.resourceVersion}`,
      s.ca,
      pbWatch,
    );
    try {
      const changed = structuredClone(stored);
      changed.spec.replicas = 4;
      changed.spec.template.spec.containers[0].image = 'nginx:1.26';
      changed.metadata.labels.updated = 'yes';
      const answer = await sendPB('PUT', path, changed, 200);
      expect(answer.spec.replicas).toBe(4);
      expect(answer.metadata.generation).toBe(2);
      expect(
        changedFields({ spec: changed.spec, metadata: { labels: changed.metadata.labels } }, answer),
      ).toEqual([]);
      expect(await getJSON(path)).toEqual(answer);

      // the stale resourceVersion of the first read now conflicts, and the Status comes back in protobuf
      const stale = await send('PUT', path, {
        body: Buffer.from(codec.encode(changed)),
        contentType: pbType,
        accept: pbType,
      });
      expect(stale.status).toBe(409);
      expect(stale.headers['content-type']).toBe(pbType);
      expect(codec.decode(stale.body)).toMatchObject({ kind: 'Status', reason: 'Conflict', code: 409 });

      const modified = await watch.next((e) => e.type === 'MODIFIED' && e.object.metadata.name === 'pb-put');
      expect(modified.object).toEqual(answer);
      expect((await send('DELETE', path)).status).toBe(200);
      const deleted = await watch.next((e) => e.type === 'DELETED' && e.object.metadata.name === 'pb-put');
      expect(deleted.object.spec).toEqual(answer.spec);
    } finally {
      watch.close();
    }
  });

  it('accepts objects written as Go writes them, zero values of non-pointer fields included', async () => {
    // Kubernetes' generated marshalers write every non-pointer field: "" strings, 0, false, and a zero
    // metav1.Time as an empty message; the server reads them as unset, as Kubernetes does
    const message = (name: string) =>
      codec.registry.root.lookupType(name) as unknown as { encode(m: object): { finish(): Uint8Array } };
    const meta = (name: string, ns: string) => ({
      name,
      generateName: '',
      namespace: ns,
      selfLink: '',
      uid: '',
      resourceVersion: '',
      generation: 0,
      creationTimestamp: {},
    });
    const pod = message('k8s.io.api.core.v1.Pod')
      .encode({
        metadata: meta('go-pod', namespace),
        spec: {
          containers: [
            {
              name: 'c',
              image: 'nginx:1.25',
              workingDir: '',
              terminationMessagePath: '',
              imagePullPolicy: '',
              terminationMessagePolicy: '',
              resources: {},
              readinessProbe: {
                handler: { tcpSocket: { port: { type: 0, intVal: 80 }, host: '' } },
                initialDelaySeconds: 0,
                timeoutSeconds: 0,
                periodSeconds: 0,
                successThreshold: 0,
                failureThreshold: 0,
              },
              stdin: false,
              stdinOnce: false,
              tty: false,
            },
          ],
          restartPolicy: '',
          dnsPolicy: '',
          serviceAccountName: '',
          serviceAccount: '',
          nodeName: '',
          hostNetwork: false,
          hostname: '',
          subdomain: '',
          schedulerName: '',
        },
        status: { phase: '', startTime: undefined },
      })
      .finish();
    const answer = await send('POST', `/api/v1/namespaces/${namespace}/pods`, {
      body: Buffer.from(encodeEnvelope(codec.registry.root, { apiVersion: 'v1', kind: 'Pod', raw: pod })),
      contentType: pbType,
      accept: 'application/json',
    });
    expect(`${answer.status} ${answer.body.toString()}`).toMatch(/^201 /);
    expect(answer.json.metadata).toMatchObject({ name: 'go-pod' });
    // the Go client's zero generation is no generation: pods carry none, as in Kubernetes 1.29
    expect(answer.json.metadata).not.toHaveProperty('generation');
    expect(answer.json.metadata.creationTimestamp).not.toBe('1970-01-01T00:00:00Z');
    expect(answer.json.spec).toMatchObject({
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      containers: [
        {
          imagePullPolicy: 'IfNotPresent',
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          readinessProbe: { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 },
        },
      ],
    });
    // zeros of fields Go holds as plain values are unset, and absent from the JSON, as in Kubernetes
    const absent = (obj: Json, keys: string[]) => keys.filter((k) => k in obj);
    expect(absent(answer.json.metadata, ['generateName'])).toEqual([]);
    expect(absent(answer.json.spec, ['hostNetwork', 'serviceAccount', 'hostname', 'subdomain'])).toEqual([]);
    const [container] = answer.json.spec.containers;
    expect(absent(container, ['workingDir', 'stdin', 'stdinOnce', 'tty'])).toEqual([]);
    expect(absent(container.readinessProbe, ['initialDelaySeconds'])).toEqual([]);
    expect(container.readinessProbe.tcpSocket).toEqual({ port: 80 });

    const node = message('k8s.io.api.core.v1.Node')
      .encode({ metadata: meta('go-node', ''), spec: { podCIDR: '', providerID: '', unschedulable: false } })
      .finish();
    const nodeAnswer = await send('POST', '/api/v1/nodes', {
      body: Buffer.from(encodeEnvelope(codec.registry.root, { apiVersion: 'v1', kind: 'Node', raw: node })),
      contentType: pbType,
      accept: 'application/json',
    });
    expect(`${nodeAnswer.status} ${nodeAnswer.body.toString()}`).toMatch(/^201 /);
    expect(absent(nodeAnswer.json.spec ?? {}, ['podCIDR', 'providerID', 'unschedulable'])).toEqual([]);

    const service = message('k8s.io.api.core.v1.Service')
      .encode({
        metadata: meta('go-svc', namespace),
        spec: {
          ports: [
            { name: '', protocol: '', port: 80, targetPort: { type: 0, intVal: 0, strVal: '' }, nodePort: 0 },
          ],
          selector: { app: 'web' },
          clusterIP: '',
          type: '',
          sessionAffinity: '',
          loadBalancerIP: '',
          externalName: '',
          externalTrafficPolicy: '',
          healthCheckNodePort: 0,
          publishNotReadyAddresses: false,
        },
        status: { loadBalancer: {} },
      })
      .finish();
    const svcAnswer = await send('POST', `/api/v1/namespaces/${namespace}/services`, {
      body: Buffer.from(
        encodeEnvelope(codec.registry.root, { apiVersion: 'v1', kind: 'Service', raw: service }),
      ),
      contentType: pbType,
      accept: 'application/json',
    });
    expect(`${svcAnswer.status} ${svcAnswer.body.toString()}`).toMatch(/^201 /);
    expect(svcAnswer.json.spec).toMatchObject({
      type: 'ClusterIP',
      sessionAffinity: 'None',
      ports: [{ protocol: 'TCP', port: 80, targetPort: 80 }],
    });
    expect(
      absent(svcAnswer.json.spec, [
        'loadBalancerIP',
        'externalName',
        'healthCheckNodePort',
        'publishNotReadyAddresses',
      ]),
    ).toEqual([]);
    expect(absent(svcAnswer.json.spec.ports[0], ['name', 'nodePort'])).toEqual([]);

    const deployment = message('k8s.io.api.apps.v1.Deployment')
      .encode({
        metadata: meta('go-deploy', namespace),
        spec: {
          selector: { matchLabels: { app: 'go' } },
          template: {
            metadata: { ...meta('', ''), labels: { app: 'go' } },
            spec: {
              containers: [{ name: 'c', image: 'nginx:1.25', imagePullPolicy: '' }],
              restartPolicy: '',
            },
          },
          strategy: { type: '' },
          minReadySeconds: 0,
          paused: false,
        },
        status: {},
      })
      .finish();
    const deployAnswer = await send('POST', `/apis/apps/v1/namespaces/${namespace}/deployments`, {
      body: Buffer.from(
        encodeEnvelope(codec.registry.root, { apiVersion: 'apps/v1', kind: 'Deployment', raw: deployment }),
      ),
      contentType: pbType,
      accept: 'application/json',
    });
    expect(`${deployAnswer.status} ${deployAnswer.body.toString()}`).toMatch(/^201 /);
    expect(deployAnswer.json.spec).toMatchObject({
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      template: { spec: { restartPolicy: 'Always' } },
    });
    expect(absent(deployAnswer.json.spec, ['minReadySeconds', 'paused'])).toEqual([]);
    expect(deployAnswer.json.spec.template.metadata).toEqual({ labels: { app: 'go' } });
  });

  it('answers patches and collection deletes in protobuf', async () => {
    const path = pathOf('apps', 'Deployment', 'pb-patch');
    await createJSON('apps', 'Deployment', 'pb-patch');
    for (const [contentType, body] of [
      ['application/merge-patch+json', { spec: { replicas: 2 } }],
      ['application/strategic-merge-patch+json', { metadata: { labels: { patched: 'yes' } } }],
      ['application/json-patch+json', [{ op: 'replace', path: '/spec/minReadySeconds', value: 9 }]],
    ] as const) {
      const res = await send('PATCH', path, { body: body as Json, contentType, accept: pbType });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(pbType);
      expect(codec.decode(res.body)).toEqual(await getJSON(path));
    }
    const applied = await send('PATCH', `${path}?fieldManager=pb-applier&force=true`, {
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'pb-patch' },
        spec: { replicas: 3 },
      },
      contentType: 'application/apply-patch+yaml',
      accept: pbType,
    });
    expect(applied.status).toBe(200);
    const object: Json = codec.decode(applied.body);
    expect(object.spec).toMatchObject({ replicas: 3, minReadySeconds: 9 });
    expect(object.metadata.managedFields).toContainEqual(
      expect.objectContaining({
        manager: 'pb-applier',
        operation: 'Apply',
        fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      }),
    );

    for (const name of ['pb-dc-a', 'pb-dc-b']) await createJSON('', 'ConfigMap', name);
    const deleted = await send(
      'DELETE',
      `/api/v1/namespaces/${namespace}/configmaps?fieldSelector=metadata.name%3Dpb-dc-a`,
      {
        body: Buffer.from(codec.encode({ apiVersion: 'v1', kind: 'DeleteOptions' })),
        contentType: pbType,
        accept: pbType,
      },
    );
    expect(deleted.status).toBe(200);
    const list = codec.decode(deleted.body);
    expect(list.kind).toBe('ConfigMapList');
    expect((list.items as Json[]).map((i) => i.metadata.name)).toEqual(['pb-dc-a']);
  });

  it('pages lists in protobuf', async () => {
    for (const name of ['pb-page-a', 'pb-page-b', 'pb-page-c']) await createJSON('', 'Secret', name);
    const collection = `/api/v1/namespaces/${namespace}/secrets`;
    const first = await getPB(`${collection}?limit=1`);
    expect(first.items).toHaveLength(1);
    expect(first.metadata).toMatchObject({
      resourceVersion: expect.any(String),
      continue: expect.any(String),
      remainingItemCount: expect.any(Number),
    });
    expect(first).toEqual(await getJSON(`${collection}?limit=1`));
  });

  it('writes the status subresource in protobuf', async () => {
    const path = pathOf('apps', 'Deployment', 'pb-status');
    const stored = await createJSON('apps', 'Deployment', 'pb-status');
    const status = {
      observedGeneration: 1,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 2,
      availableReplicas: 2,
      unavailableReplicas: 1,
      collisionCount: 2,
      conditions: [
        {
          type: 'Progressing',
          status: 'True',
          lastUpdateTime: '2026-11-22T21:00:00Z',
          lastTransitionTime: '2026-11-22T20:59:00Z',
          reason: 'NewReplicaSetAvailable',
          message: 'ReplicaSet "web" has successfully progressed.',
        },
      ],
    };
    const answer = await sendPB('PUT', `${path}/status`, { ...stored, status }, 200);
    expect(changedFields(status, answer.status)).toEqual([]);
    expect(await getPB(path)).toEqual(await getJSON(path));

    const podPath = pathOf('', 'Pod', 'pb-status');
    const pod = await createJSON('', 'Pod', 'pb-status');
    const podStatus = {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-11-22T21:00:00Z' }],
      hostIP: '192.0.2.1',
      podIP: '10.244.0.5',
      podIPs: [{ ip: '10.244.0.5' }],
      startTime: '2026-11-22T21:00:00Z',
      qosClass: 'Burstable',
      containerStatuses: [
        {
          name: 'web',
          state: { running: { startedAt: '2026-11-22T21:00:01Z' } },
          lastState: {
            terminated: {
              exitCode: 137,
              signal: 9,
              reason: 'OOMKilled',
              startedAt: '2026-11-22T20:00:00Z',
              finishedAt: '2026-11-22T20:59:00Z',
              containerID: 'orch://abc',
            },
          },
          ready: true,
          restartCount: 1,
          image: 'nginx:1.25',
          imageID: 'sha256:0123',
          containerID: 'orch://def',
          started: true,
        },
      ],
    };
    const podAnswer = await sendPB('PUT', `${podPath}/status`, { ...pod, status: podStatus }, 200);
    expect(changedFields(podStatus, podAnswer.status)).toEqual([]);

    const nodePath = pathOf('', 'Node', 'pb-status');
    const node = await createJSON('', 'Node', 'pb-status');
    const nodeStatus = {
      capacity: { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '100Gi' },
      allocatable: { cpu: '3800m', memory: '7Gi', pods: '110' },
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          lastHeartbeatTime: '2026-11-22T21:00:00Z',
          lastTransitionTime: '2026-11-22T20:00:00Z',
          reason: 'KubeletReady',
          message: 'ready',
        },
      ],
      addresses: [
        { type: 'InternalIP', address: '192.0.2.1' },
        { type: 'Hostname', address: 'pb-status' },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: 'm',
        systemUUID: 's',
        bootID: 'b',
        kernelVersion: '6.1',
        osImage: 'linux',
        containerRuntimeVersion: 'orch://1',
        kubeletVersion: 'v1.29.0',
        kubeProxyVersion: 'v1.29.0',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
      images: [{ names: ['nginx:1.25'], sizeBytes: 5_000_000_123 }],
    };
    const nodeAnswer = await sendPB('PUT', `${nodePath}/status`, { ...node, status: nodeStatus }, 200);
    expect(changedFields(nodeStatus, nodeAnswer.status)).toEqual([]);
    expect(await getPB(nodePath)).toEqual(await getJSON(nodePath));
  });

  it.each([
    ['apps', 'Deployment', 'app=deploy,tier in (front)'],
    ['apps', 'StatefulSet', 'app=sts'],
    ['apps', 'ReplicaSet', 'app=rs'],
    ['', 'ReplicationController', 'app=rc'],
  ])('%s %s: reads and writes the scale subresource in protobuf', async (group, kind, selector) => {
    const path = pathOf(group, kind, 'pb-scale');
    await createJSON(group, kind, 'pb-scale');
    const scale = await getPB(`${path}/scale`);
    expect(scale).toMatchObject({
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'pb-scale' },
    });
    expect(scale).toEqual(await getJSON(`${path}/scale`));
    expect(scale.status.selector).toBe(selector);
    const answer = await sendPB('PUT', `${path}/scale`, { ...scale, spec: { replicas: 5 } }, 200);
    expect(answer.spec).toEqual({ replicas: 5 });
    expect((await getJSON(path)).spec.replicas).toBe(5);
  });

  it('binds pods with a protobuf Binding, on the binding subresource and the bindings collection', async () => {
    for (const [name, path] of [
      ['pb-bind-sub', (n: string) => `/api/v1/namespaces/${namespace}/pods/${n}/binding`],
      ['pb-bind-coll', () => `/api/v1/namespaces/${namespace}/bindings`],
    ] as const) {
      const pod = validObjectOf('', 'v1', 'Pod', { name, namespace })!;
      delete (pod.spec as Json).nodeName;
      expect((await send('POST', `/api/v1/namespaces/${namespace}/pods`, { body: pod })).status).toBe(201);
      const binding = {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name, namespace },
        target: { apiVersion: 'v1', kind: 'Node', name: 'node-7' },
      };
      const answer = await sendPB('POST', path(name), binding, 201);
      expect(answer).toMatchObject({ kind: 'Status', status: 'Success', code: 201 });
      expect((await getJSON(`/api/v1/namespaces/${namespace}/pods/${name}`)).spec.nodeName).toBe('node-7');
    }
  });

  it('evicts a pod with a protobuf Eviction carrying DeleteOptions', async () => {
    await createJSON('', 'Pod', 'pb-evict');
    const eviction = {
      apiVersion: 'policy/v1beta1',
      kind: 'Eviction',
      metadata: { name: 'pb-evict', namespace },
      deleteOptions: { gracePeriodSeconds: 0, propagationPolicy: 'Background' },
    };
    const answer = await sendPB(
      'POST',
      `/api/v1/namespaces/${namespace}/pods/pb-evict/eviction`,
      eviction,
      201,
    );
    expect(answer).toMatchObject({ kind: 'Status', status: 'Success' });
    const gone = await send('GET', `/api/v1/namespaces/${namespace}/pods/pb-evict`, { accept: pbType });
    expect(gone.status).toBe(404);
    expect(codec.decode(gone.body)).toMatchObject({
      apiVersion: 'v1',
      kind: 'Status',
      status: 'Failure',
      reason: 'NotFound',
      details: { name: 'pb-evict', kind: 'pods' },
      code: 404,
    });
  });

  it('deletes with protobuf DeleteOptions and answers in protobuf', async () => {
    const path = pathOf('', 'ConfigMap', 'pb-delete');
    const stored = await createJSON('', 'ConfigMap', 'pb-delete');
    const mismatch: Json = { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: 'not-the-uid' } };
    const wrongUID = await send('DELETE', path, {
      body: Buffer.from(codec.encode(mismatch)),
      contentType: pbType,
      accept: pbType,
    });
    expect(wrongUID.status).toBe(409);
    expect(codec.decode(wrongUID.body)).toMatchObject({ kind: 'Status', reason: 'Conflict' });
    const options = {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      gracePeriodSeconds: 0,
      preconditions: { uid: stored.metadata.uid, resourceVersion: stored.metadata.resourceVersion },
      propagationPolicy: 'Background',
    };
    const res = await send('DELETE', path, {
      body: Buffer.from(codec.encode(options)),
      contentType: pbType,
      accept: pbType,
    });
    expect(res.status).toBe(200);
    expect(codec.decode(res.body)).toMatchObject({ kind: 'Status', status: 'Success' });
    expect((await send('GET', path)).status).toBe(404);
  });

  it('serves metadata-only objects in protobuf, and Tables as JSON only, as Kubernetes does', async () => {
    await createJSON('apps', 'Deployment', 'pb-meta');
    const collection = collectionOf(
      allKinds.find((d) => d.kind === 'Deployment')!,
      'v1',
    );
    // a Table has no protobuf message: refused, or the next entry of the Accept list is served
    const pbTable = `${pbType};as=Table;v=v1;g=meta.k8s.io`;
    expect((await send('GET', collection, { accept: pbTable })).status).toBe(406);
    const fallback = await send('GET', collection, { accept: `${pbTable}, ${pbType}` });
    expect(fallback.headers['content-type']).toBe(pbType);
    expect(codec.decode(fallback.body)).toMatchObject({ kind: 'DeploymentList' });
    const json = await getJSON(`${collection}/pb-meta`);
    const partial = await getPB(
      `${collection}/pb-meta`,
      `${pbType};as=PartialObjectMetadata;v=v1;g=meta.k8s.io`,
    );
    expect(partial).toEqual({
      apiVersion: 'meta.k8s.io/v1',
      kind: 'PartialObjectMetadata',
      metadata: json.metadata,
    });
    const list = await getPB(collection, `${pbType};as=PartialObjectMetadataList;v=v1;g=meta.k8s.io`);
    expect(list).toMatchObject({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadataList' });
    expect(list.items).toContainEqual({ metadata: json.metadata });

    // client-go's metadata informers watch with the same Accept
    const watch = new ProtobufWatch();
    await watch.open(
      `${s.url}${collection}?watch=1&fieldSelector=metadata.name%3Dpb-meta`,
      s.ca,
      `${pbType};as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json`,
    );
    try {
      expect(watch.contentType).toBe(`${pbType};stream=watch`);
      const added = await watch.next((e) => e.type === 'ADDED');
      expect(added.object).toEqual({
        apiVersion: 'meta.k8s.io/v1',
        kind: 'PartialObjectMetadata',
        metadata: json.metadata,
      });
    } finally {
      watch.close();
    }
  });

  it.each(created.map((d) => [d.kind, d] as const))(
    '%s: created in protobuf, answered in protobuf',
    async (_k, decl) => {
      const version = decl.versions[0]!;
      const apiVersion = apiVersionOf(decl.group, version);
      const access = {
        namespace,
        verb: 'get',
        group: 'apps',
        resource: 'deployments',
        subresource: 'scale',
        name: 'web',
      };
      const bodies: Record<string, { path: string; body: Json; check: (answer: Json) => void }> = {
        Binding: {
          path: `/api/v1/namespaces/${namespace}/bindings`,
          body: {
            metadata: { name: 'pb-review-bind' },
            target: { apiVersion: 'v1', kind: 'Node', name: 'node-2' },
          },
          check: (a) => expect(a).toMatchObject({ kind: 'Status', status: 'Success' }),
        },
        TokenReview: {
          path: '/apis/authentication.k8s.io/v1/tokenreviews',
          body: { spec: { token: 'admin-token' } },
          check: (a) =>
            expect(a.status).toMatchObject({
              authenticated: true,
              user: {
                username: 'admin',
                uid: 'admin-uid',
                groups: expect.arrayContaining(['system:masters']),
              },
            }),
        },
        SubjectAccessReview: {
          path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
          body: {
            spec: {
              resourceAttributes: access,
              user: 'jane',
              groups: ['devs'],
              extra: { scopes: ['a', 'b'], empty: [] },
              uid: 'jane-uid',
            },
          },
          check: (a) => {
            expect(a.status).toMatchObject({ allowed: true });
            expect(a.spec.extra).toEqual({ scopes: ['a', 'b'], empty: [] });
          },
        },
        SelfSubjectAccessReview: {
          path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
          body: { spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } } },
          check: (a) => expect(a.status).toMatchObject({ allowed: true }),
        },
        LocalSubjectAccessReview: {
          path: `/apis/authorization.k8s.io/v1/namespaces/${namespace}/localsubjectaccessreviews`,
          body: { metadata: { namespace }, spec: { resourceAttributes: access, user: 'jane' } },
          check: (a) => expect(a.status).toMatchObject({ allowed: true }),
        },
        SelfSubjectReview: {
          path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
          body: {},
          check: (a) =>
            expect(a.status).toMatchObject({
              userInfo: {
                username: expect.any(String),
                groups: expect.arrayContaining(['system:authenticated']),
              },
            }),
        },
        SelfSubjectRulesReview: {
          path: '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
          body: { spec: { namespace } },
          check: (a) => expect(a.status).toMatchObject({ incomplete: expect.any(Boolean) }),
        },
      };
      const spec = bodies[decl.kind];
      expect(spec).toBeDefined();
      if (decl.kind === 'Binding') {
        const pod = validObjectOf('', 'v1', 'Pod', { name: 'pb-review-bind', namespace })!;
        delete (pod.spec as Json).nodeName;
        expect((await send('POST', `/api/v1/namespaces/${namespace}/pods`, { body: pod })).status).toBe(201);
      }
      const answer = await sendPB('POST', spec!.path, { apiVersion, kind: decl.kind, ...spec!.body }, 201);
      // a binding is answered with a Status (Kubernetes' answer to pods/binding)
      if (decl.kind !== 'Binding') {
        expect(answer).toMatchObject({ apiVersion, kind: decl.kind });
        if (spec!.body.spec !== undefined) expect(answer).toMatchObject({ spec: spec!.body.spec });
      }
      spec!.check(answer);
    },
  );

  it('requests a service account token in protobuf', async () => {
    await createJSON('', 'ServiceAccount', 'pb-token');
    const request = {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: { name: 'pb-token', namespace },
      spec: { audiences: ['https://orch.test'], expirationSeconds: 3600 },
    };
    const answer = await sendPB(
      'POST',
      `/api/v1/namespaces/${namespace}/serviceaccounts/pb-token/token`,
      request,
      201,
    );
    expect(answer).toMatchObject({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { audiences: ['https://orch.test'], expirationSeconds: 3600 },
      status: { token: expect.stringMatching(/^ey/), expirationTimestamp: expect.any(String) },
    });
  });
});
