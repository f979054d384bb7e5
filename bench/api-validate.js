'use strict';
/*
 * Throughput of the per-kind engine on typical objects: prune (decode normalization) + default +
 * validate, one core, ~2 seconds per kind. Objects are cloned outside the timed section.
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

function run(name, kind, sample, seconds) {
  const k = compileKind(kind);
  const text = JSON.stringify(sample);
  // Sanity: the sample must be valid, or the figure measures error reporting.
  const probe = JSON.parse(text);
  const unknown = k.prune(probe).unknown;
  k.default(probe);
  const errors = k.validate(probe);
  if (unknown.length > 0 || errors.length > 0) {
    console.error(`${name}: sample is not valid:`, unknown, errors);
    process.exitCode = 1;
    return;
  }
  const batch = 500;
  let ops = 0;
  let wall = 0n;
  let cpu = 0;
  const perBatch = [];
  const budget = BigInt(Math.round(seconds * 1e9));
  // Warm up, then measure in batches of fresh clones (cloning is not timed). On a shared machine the
  // wall time includes time the process was not running: the CPU time of the process and the
  // fastest batches (10th percentile) are shown as well.
  for (let round = 0; wall < budget; round++) {
    const objs = new Array(batch);
    for (let i = 0; i < batch; i++) objs[i] = JSON.parse(text);
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) {
      const o = objs[i];
      k.prune(o);
      k.default(o);
      k.validate(o);
    }
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
    `${name}: ${rate(usWall)} ${name.toLowerCase()}s/s, ${usWall.toFixed(2)} µs/op (wall, ${ops} ops); ` +
      `CPU time ${usCpu.toFixed(2)} µs/op (${rate(usCpu)}/s); fastest batches ${usP10.toFixed(2)} µs/op (${rate(usP10)}/s)`,
  );
}

const seconds = Number(process.argv[2] ?? 2);
if (compileKind === undefined)
  throw new Error('compileKind is not built: run npx tsc -b packages/api/tsconfig.json');
if (PodKind !== undefined) run('Pod', PodKind, pod, seconds);
else console.log('Pod: not declared yet (packages/api/src/kinds/core/pod.ts)');
if (DeploymentKind !== undefined) run('Deployment', DeploymentKind, deployment, seconds);
else console.log('Deployment: not declared yet (packages/api/src/kinds/apps/deployment.ts)');
