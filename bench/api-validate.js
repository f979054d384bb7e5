'use strict';
/*
 * Cost of the per-kind engine on typical objects, one core, ~1 second per figure: prune (decode
 * normalization) + default + validate, validate alone, validateUpdate, and the field manager's
 * Update on create and on update and a steady-state server-side apply. Inputs are parsed outside
 * the timed section.
 *
 *   npx tsc -b packages/api/tsconfig.json && node bench/api-validate.js [seconds]
 */
const path = require('node:path');

const dist = path.join(__dirname, '..', 'packages', 'api', 'dist');
const api = require(path.join(dist, 'index.js'));

function load(file) {
  try {
    return require(path.join(dist, file));
  } catch {
    return {};
  }
}

const compileKind = api.compileKind ?? load('validation/index.js').compileKind;
const FieldManager = api.FieldManager ?? load('managedfields/index.js').FieldManager;
const PodKind = api.PodKind ?? load('kinds/core/pod.js').PodKind;
const DeploymentKind = api.DeploymentKind ?? load('kinds/apps/deployment.js').DeploymentKind;

function container(name, image, port) {
  return {
    name,
    image,
    ports: [
      { name: 'http', containerPort: port },
      { name: 'metrics', containerPort: port + 1000, protocol: 'TCP' },
    ],
    env: [
      { name: 'MODE', value: 'production' },
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'CACHE_SIZE', value: '256' },
    ],
    resources: {
      limits: { cpu: '500m', memory: '256Mi' },
      requests: { cpu: 0.25, memory: '128Mi' },
    },
    livenessProbe: { httpGet: { path: '/healthz', port }, initialDelaySeconds: 10, periodSeconds: 5 },
    readinessProbe: { tcpSocket: { port: 'http' }, periodSeconds: 5 },
    volumeMounts: [
      { name: 'config', mountPath: '/etc/app' },
      { name: 'data', mountPath: '/var/lib/app' },
    ],
  };
}

const podSpec = {
  containers: [container('web', 'nginx:1.19', 8080), container('sidecar', 'envoyproxy/envoy:v1.16.0', 9090)],
  volumes: [
    { name: 'config', configMap: { name: 'web-config' } },
    { name: 'data', emptyDir: {} },
  ],
  nodeSelector: { 'kubernetes.io/os': 'linux' },
};

const labels = { app: 'web', tier: 'frontend', 'app.kubernetes.io/version': '1.19.0' };

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-5d8f7c9b6-x2k4q',
    namespace: 'default',
    labels,
    annotations: { 'example.com/owner': 'team-a' },
  },
  spec: podSpec,
};

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', labels },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels }, spec: podSpec },
  },
};

/**
 * Times `fn(input)` over fresh inputs made by `make(i)` (not timed), in batches, for about `seconds`
 * of wall time after a warm-up. Prints the wall and CPU time per operation and the fastest batches
 * (10th percentile): on a shared machine the wall time includes time the process was not running.
 */
function measure(label, make, fn, seconds) {
  const batch = 200;
  let ops = 0;
  let wall = 0n;
  let cpu = 0;
  const perBatch = [];
  const budget = BigInt(Math.round(seconds * 1e9));
  for (let round = 0; wall < budget; round++) {
    const inputs = new Array(batch);
    for (let i = 0; i < batch; i++) inputs[i] = make(i);
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) fn(inputs[i]);
    const dt = process.hrtime.bigint() - t0;
    const dc = process.cpuUsage(c0);
    if (round >= 20) {
      wall += dt;
      cpu += dc.user + dc.system;
      ops += batch;
      perBatch.push(Number(dt) / 1e3 / batch);
    }
  }
  perBatch.sort((a, b) => a - b);
  const usWall = Number(wall) / 1e3 / ops;
  const usCpu = cpu / ops;
  const usP10 = perBatch[Math.floor(perBatch.length / 10)];
  const rate = (us) => Math.round(1e6 / us);
  console.log(
    `  ${label.padEnd(34)} ${usCpu.toFixed(1).padStart(7)} µs/op CPU (${rate(usCpu)}/s)   ` +
      `wall ${usWall.toFixed(1)} µs/op   fastest batches ${usP10.toFixed(1)} µs/op`,
  );
}

/** The object as a create stores it: pruned, defaulted, with the metadata the server sets. */
function created(k, sample) {
  const o = JSON.parse(JSON.stringify(sample));
  k.prune(o);
  k.default(o);
  o.metadata.uid = '6c1f0b6e-3f49-4b8e-9a57-3c8f0a1d2e4b';
  o.metadata.creationTimestamp = '2026-01-01T00:00:00Z';
  o.metadata.resourceVersion = '12345';
  o.metadata.generation = 1;
  return o;
}

/** The object after a client changes the image of every container and an annotation. */
function changed(live, rev) {
  const o = JSON.parse(JSON.stringify(live));
  const spec = o.spec.template?.spec ?? o.spec;
  for (const c of spec.containers) c.image = `${c.image.split(':')[0]}:rev-${rev}`;
  o.metadata.annotations = { ...o.metadata.annotations, 'bench.orch.io/rev': String(rev) };
  return o;
}

function run(name, kind, sample, seconds) {
  const k = compileKind(kind);
  const fm = new FieldManager(kind.schema, { statusSubresource: Boolean(kind.subresources?.status) });
  const apiVersion = sample.apiVersion;
  const text = JSON.stringify(sample);
  // Sanity: the samples must be valid, or the figures measure error reporting.
  const probe = JSON.parse(text);
  const unknown = k.prune(probe).unknown;
  k.default(probe);
  const live = created(k, sample);
  fm.update(undefined, live, 'kubectl-create', apiVersion);
  const next = changed(live, 1);
  const errors = [...k.validate(probe), ...k.validateUpdate(next, live)];
  if (unknown.length > 0 || errors.length > 0) {
    console.error(`${name}: sample is not valid:`, unknown, errors);
    process.exitCode = 1;
    return;
  }
  const liveText = JSON.stringify(live);
  const parse = () => JSON.parse(text);
  console.log(`${name}:`);
  measure(
    'prune + default + validate',
    parse,
    (o) => {
      k.prune(o);
      k.default(o);
      k.validate(o);
    },
    seconds,
  );
  const defaulted = JSON.stringify(created(k, sample));
  measure(
    'validate',
    () => JSON.parse(defaulted),
    (o) => k.validate(o),
    seconds,
  );
  const updates = Array.from({ length: 8 }, (_, i) => JSON.stringify(changed(live, i + 2)));
  measure(
    'validateUpdate',
    (i) => [JSON.parse(updates[i % 8]), JSON.parse(liveText)],
    ([o, old]) => k.validateUpdate(o, old),
    seconds,
  );
  const now = new Date('2026-01-01T00:00:01Z');
  measure(
    'FieldManager.update (create)',
    () => JSON.parse(defaulted),
    (o) => fm.update(undefined, o, 'kubectl-create', apiVersion, '', now),
    seconds,
  );
  measure(
    'FieldManager.update (update)',
    (i) => [JSON.parse(liveText), JSON.parse(updates[i % 8])],
    ([old, o]) => fm.update(old, o, 'kubectl-client-side-apply', apiVersion, '', now),
    seconds,
  );
  // steady-state apply: the manager applied the previous revision and applies the next one
  const owned = fm.apply(JSON.parse(liveText), changed(sample, 1), 'bench', apiVersion, true, '', now);
  const ownedText = JSON.stringify(owned);
  const applied = Array.from({ length: 8 }, (_, i) => JSON.stringify(changed(sample, i + 2)));
  measure(
    'FieldManager.apply (steady state)',
    (i) => [JSON.parse(ownedText), JSON.parse(applied[i % 8])],
    ([old, a]) => fm.apply(old, a, 'bench', apiVersion, false, '', now),
    seconds,
  );
}

const seconds = Number(process.argv[2] ?? process.env.BENCH_SECONDS ?? 1);
if (compileKind === undefined)
  throw new Error('compileKind is not built: run npx tsc -b packages/api/tsconfig.json');
if (PodKind !== undefined) run('Pod', PodKind, pod, seconds);
else console.log('Pod: not declared yet (packages/api/src/kinds/core/pod.ts)');
if (DeploymentKind !== undefined) run('Deployment', DeploymentKind, deployment, seconds);
else console.log('Deployment: not declared yet (packages/api/src/kinds/apps/deployment.ts)');
