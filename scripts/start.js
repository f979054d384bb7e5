#!/usr/bin/env node
// Runs a whole orch cluster on this machine: orch-apiserver on the embedded store (or etcd), the
// scheduler, the controller manager, the cloud controller manager and a node agent with simulated
// nodes, each its own process, over HTTPS with its own credentials. State lives in the data
// directory; a second start finds the same cluster. Ctrl-C stops everything.
'use strict';

const { fork, spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
// Young generation sizes: V8 grows new space up to twice the semi-space size while a daemon starts
// and never gives it back, so an idle daemon keeps it resident. Every daemon of the suite keeps 1 MB
// semi-spaces (the apiserver 85-91 MiB resident when idle, against 100-102 MiB with 4 MB); the load of
// a local cluster does not need more (measured: a 150-replica Deployment rolled out in 9.2-9.6 s with
// 1 MB for the apiserver and 9.6-9.7 s with 4 MB, at the same apiserver CPU).
const apiserverOptions = ['--max-semi-space-size=1'];
// The reconcilers' work is bounded by their API rate limits (--orch-api-qps), not by their CPU: without
// the optimizing compiler they keep 8-11 MB less resident each, at the same speed (measured: a
// 150-replica Deployment rolled out in 7.9 s either way, the controller manager using 3.4 s of CPU
// instead of 2.3 s). So is the scheduler's, whose binding rate --orch-api-qps bounds at 50/s (13 MB
// less resident; the same Deployment scheduled with 1.0 s of its CPU instead of 1.1-1.2 s). Lite mode
// has no WebAssembly; saying so keeps V8's warning about the conflicting flag out of their logs.
const reconcilerOptions = ['--max-semi-space-size=1', '--lite-mode', '--no-expose-wasm'];
const schedulerOptions = reconcilerOptions;

function usage() {
  return `Usage: npm start -- [options]

Options:
  --data-dir DIR            where the cluster keeps its state (default .orch)
  --nodes N                 simulated nodes run by the node agent (default 3)
  --storage-backend NAME    embedded (default) or etcd3
  --etcd-servers URLS       etcd client URLs, comma separated (with --storage-backend etcd3)
  --port PORT               the apiserver's HTTPS port (default 6443)
  --controller-manager-port PORT
                            orch-controller-manager's HTTPS port (default 10257)
  --cloud-controller-manager-port PORT
                            orch-cloud-controller-manager's HTTPS port (default 10258)
  --scheduler-port PORT     orch-scheduler's HTTPS port (default 10259)
  --node-agent-port PORT    orch-node-agent's HTTPS port, where the apiserver reads container logs
                            (default 10250, the kubelet's)
  --feature-gates GATES     feature gates for every daemon, e.g. TTLAfterFinished=true,EvenPodsSpread=true
  --pod-runtime NAME        how the node agent runs pods: simulated (default) or process (each container
                            a local process on this host's network; kubectl logs, exec, attach and
                            port-forward reach it)
  -h, --help                this help
`;
}

function parseArgs(argv) {
  const opts = {
    dataDir: path.join(root, '.orch'),
    nodes: 3,
    storageBackend: 'embedded',
    etcdServers: '',
    port: 6443,
    controllerManagerPort: 10257,
    cloudControllerManagerPort: 10258,
    schedulerPort: 10259,
    nodeAgentPort: 10250,
    featureGates: '',
    podRuntime: 'simulated',
  };
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => (inline !== undefined ? inline : argv[++i]);
    switch (name) {
      case '--data-dir':
        opts.dataDir = path.resolve(value());
        break;
      case '--nodes':
        opts.nodes = Number(value());
        break;
      case '--storage-backend':
        opts.storageBackend = value();
        if (opts.storageBackend === 'etcd') opts.storageBackend = 'etcd3';
        break;
      case '--etcd-servers':
        opts.etcdServers = value();
        break;
      case '--port':
        opts.port = Number(value());
        break;
      case '--controller-manager-port':
        opts.controllerManagerPort = Number(value());
        break;
      case '--cloud-controller-manager-port':
        opts.cloudControllerManagerPort = Number(value());
        break;
      case '--scheduler-port':
        opts.schedulerPort = Number(value());
        break;
      case '--node-agent-port':
        opts.nodeAgentPort = Number(value());
        break;
      case '--feature-gates':
        opts.featureGates = value();
        break;
      case '--pod-runtime':
        opts.podRuntime = value();
        break;
      case '-h':
      case '--help':
        process.stdout.write(usage());
        process.exit(0);
        break;
      default:
        process.stderr.write(`unknown option ${argv[i]}\n${usage()}`);
        process.exit(2);
    }
  }
  if (!Number.isInteger(opts.nodes) || opts.nodes < 0) fail('--nodes must be a non-negative integer');
  for (const [flag, port] of [
    ['--port', opts.port],
    ['--controller-manager-port', opts.controllerManagerPort],
    ['--cloud-controller-manager-port', opts.cloudControllerManagerPort],
    ['--scheduler-port', opts.schedulerPort],
    ['--node-agent-port', opts.nodeAgentPort],
  ])
    if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`${flag} must be between 1 and 65535`);
  if (!['simulated', 'process'].includes(opts.podRuntime)) fail('--pod-runtime must be simulated or process');
  if (!['embedded', 'etcd3'].includes(opts.storageBackend))
    fail('--storage-backend must be embedded or etcd3');
  if (opts.storageBackend === 'etcd3' && !opts.etcdServers)
    fail('--etcd-servers is required with --storage-backend etcd3');
  return opts;
}

function fail(message) {
  process.stderr.write(`orch: ${message}\n`);
  process.exit(2);
}

/**
 * The local cloud's config under the data directory, written once: every node is a running
 * instance on this machine, load balancers listen on 127.0.1.0/24, routes are kept next to it.
 */
function localCloudConfig(dataDir) {
  const file = path.join(dataDir, 'cloud.yaml');
  if (!fs.existsSync(file)) {
    fs.writeFileSync(
      file,
      [
        '# The local cloud of orch-cloud-controller-manager (--cloud-provider=local).',
        '# List instances to give nodes addresses, types and zones, or to shut them down / remove them:',
        '# instances:',
        '#   - {name: orch-node-0, instanceType: local.large, zone: local-b, state: running}',
        'unlistedInstances: running',
        'loadBalancerPool: 127.0.1.0/24',
        '',
      ].join('\n'),
    );
  }
  return file;
}

/** The daemons of the suite, the apiserver first (see main for the order they start in). */
function daemons(opts, pki) {
  const bin = (pkg, name) => path.join(root, 'packages', pkg, 'dist', 'bin', `${name}.js`);
  const logDir = path.join(opts.dataDir, 'logs');
  const ccmBin = bin('cloud-controller-manager', 'orch-cloud-controller-manager');
  const apiserverArgs = [
    `--secure-port=${opts.port}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--tls-cert-file=${pki.files.apiserverCert}`,
    `--tls-private-key-file=${pki.files.apiserverKey}`,
    `--client-ca-file=${pki.files.caCert}`,
    `--kubelet-client-certificate=${pki.files.kubeletClientCert}`,
    `--kubelet-client-key=${pki.files.kubeletClientKey}`,
    '--kubelet-preferred-address-types=InternalIP,Hostname,InternalDNS,ExternalDNS,ExternalIP',
    `--service-account-key-file=${pki.files.serviceAccountPublicKey}`,
    `--service-account-signing-key-file=${pki.files.serviceAccountKey}`,
    '--service-account-issuer=https://orch.default.svc',
    '--authorization-mode=RBAC',
    `--storage-backend=${opts.storageBackend}`,
    ...(opts.storageBackend === 'embedded'
      ? [`--embedded-storage-dir=${path.join(opts.dataDir, 'data')}`]
      : [`--etcd-servers=${opts.etcdServers}`]),
  ];
  const { loopbackDaemonArgs } = require('../packages/component-base/dist/server/loopbackDaemonArgs');
  const daemonArgs = (name, port) =>
    loopbackDaemonArgs(pki.kubeconfigs[name], port, path.join(opts.dataDir, 'pki', name));
  return [
    {
      name: 'orch-apiserver',
      bin: bin('apiserver', 'orch-apiserver'),
      args: apiserverArgs,
      ready: `https://127.0.0.1:${opts.port}/readyz`,
      nodeOptions: apiserverOptions,
    },
    {
      name: 'orch-controller-manager',
      bin: bin('controller-manager', 'orch-controller-manager'),
      args: [
        ...daemonArgs('controller-manager', opts.controllerManagerPort),
        // each controller acts as its own service account with its own role, as kubeadm runs them
        '--use-service-account-credentials',
        // claims of the default StorageClass `standard` (see ADDONS) become host-path volumes
        '--enable-hostpath-provisioner',
        // the cluster CA signs approved CertificateSigningRequests (kubectl certificate approve)
        `--cluster-signing-cert-file=${pki.files.caCert}`,
        `--cluster-signing-key-file=${pki.files.caKey}`,
        // the tokens controller signs the tokens of kubernetes.io/service-account-token secrets with
        // the key whose public half the apiserver verifies them with (--service-account-key-file)
        `--service-account-private-key-file=${pki.files.serviceAccountKey}`,
        `--root-ca-file=${pki.files.caCert}`,
      ],
      ready: `https://127.0.0.1:${opts.controllerManagerPort}/healthz`,
      nodeOptions: reconcilerOptions,
    },
    {
      name: 'orch-cloud-controller-manager',
      bin: ccmBin,
      args: [
        ...daemonArgs('cloud-controller-manager', opts.cloudControllerManagerPort),
        // as the controller manager: each cloud controller acts as the service account Kubernetes names
        '--use-service-account-credentials',
        '--cloud-provider=local',
        `--cloud-config=${localCloudConfig(opts.dataDir)}`,
        '--allocate-node-cidrs=true',
        '--cluster-cidr=10.128.0.0/9',
      ],
      ready: `https://127.0.0.1:${opts.cloudControllerManagerPort}/healthz`,
      nodeOptions: reconcilerOptions,
    },
    {
      name: 'orch-scheduler',
      bin: bin('scheduler', 'orch-scheduler'),
      // the deprecated plain-HTTP port stays closed, as kubeadm runs kube-scheduler
      args: [...daemonArgs('scheduler', opts.schedulerPort), '--port=0'],
      ready: `https://127.0.0.1:${opts.schedulerPort}/healthz`,
      nodeOptions: schedulerOptions,
    },
    {
      name: 'orch-node-agent',
      bin: bin('node-agent', 'orch-node-agent'),
      args: [
        `--kubeconfig=${pki.kubeconfigs['node-agent']}`,
        `--nodes=${opts.nodes}`,
        `--pod-runtime=${opts.podRuntime}`,
        // container logs for the apiserver, which presents a certificate of the cluster CA
        `--port=${opts.nodeAgentPort}`,
        // simulated nodes are reached on loopback; the process runtime's pods run on this host's
        // network, so its nodes report this host's address (a pod IP may not be loopback) and the
        // server listens on every interface, as a kubelet's does
        ...(opts.podRuntime === 'process'
          ? ['--address=0.0.0.0']
          : ['--address=127.0.0.1', '--node-ip=127.0.0.1']),
        `--client-ca-file=${pki.files.caCert}`,
        `--root-dir=${path.join(opts.dataDir, 'node-agent')}`,
        // With the cloud controller manager running, nodes wait for it to initialize them (not with
        // the process runtime, whose nodes report the address of this host).
        ...(fs.existsSync(ccmBin) && opts.podRuntime !== 'process' ? ['--cloud-provider=external'] : []),
      ],
      ready: undefined,
      nodeOptions: reconcilerOptions,
    },
  ]
    .map((d) => (opts.featureGates ? { ...d, args: [...d.args, `--feature-gates=${opts.featureGates}`] } : d))
    .map((d) => ({ ...d, log: path.join(logDir, `${d.name}.log`) }));
}

/**
 * Startup work that needs heavy modules runs in a helper child that lives only until the suite is
 * ready: it makes or refreshes the cluster's certificates and kubeconfigs (ensureClusterPKI brings
 * node-forge and yaml) and probes the daemons' health endpoints over mutual TLS. The launcher, one
 * of the processes of the suite, so stays near the size of a bare node process.
 *
 * Protocol (IPC): the helper sends {pki} (or {error}) first; for each {probe: url} it answers
 * {ready: url} once the endpoint returns 200; it exits when the launcher disconnects.
 */
function startupHelper() {
  const https = require('node:https');
  const [dataDir, server] = process.argv.slice(3);
  let pki;
  try {
    const { ensureClusterPKI } = require('../packages/component-base/dist/certs');
    pki = ensureClusterPKI(dataDir, server);
  } catch (e) {
    process.send({ error: e.message });
    process.disconnect();
    return;
  }
  const probe = (url) =>
    new Promise((resolve) => {
      const req = https.get(
        url,
        { ca: pki.ca, cert: pki.admin.cert, key: pki.admin.key, rejectUnauthorized: false, timeout: 1000 },
        (res) => {
          res.resume();
          resolve(res.statusCode === 200);
        },
      );
      req.on('error', () => resolve(false));
      req.on('timeout', () => req.destroy());
    });
  /** POSTs an object as the admin; resolves with the answer's status code. */
  const create = (url, object) =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify(object);
      const req = https.request(
        url,
        {
          method: 'POST',
          ca: pki.ca,
          cert: pki.admin.cert,
          key: pki.admin.key,
          headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  process.on('message', async ({ probe: url, ensure }) => {
    if (ensure) {
      // created when missing, left as the user made it otherwise (409 AlreadyExists)
      const code = await create(ensure.url, ensure.object).catch((e) => e.message);
      process.send({ ensured: ensure.url, ok: code === 201 || code === 409, code });
      return;
    }
    while (process.connected && !(await probe(url))) await new Promise((r) => setTimeout(r, 50));
    if (process.connected) process.send({ ready: url });
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ pki });
}

/** Starts the helper and resolves with it and the cluster's PKI. */
function startHelper(dataDir, server) {
  const helper = fork(path.join(__dirname, 'start.js'), ['--startup-helper', dataDir, server], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    helper.once('message', (m) => (m.pki ? resolve({ helper, pki: m.pki }) : reject(new Error(m.error))));
    helper.once('exit', (code) => reject(new Error(`startup helper exited (${code})`)));
  });
}

/**
 * The objects a new cluster starts with, as Kubernetes' local-up-cluster starts its own: the default
 * StorageClass `standard`, whose claims the controller manager provisions as host-path volumes
 * (--enable-hostpath-provisioner), so a StatefulSet's volumeClaimTemplates bind. Made when missing.
 */
const ADDONS = [
  {
    path: '/apis/storage.k8s.io/v1/storageclasses',
    object: {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: {
        name: 'standard',
        annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' },
        labels: { 'addonmanager.kubernetes.io/mode': 'EnsureExists' },
      },
      provisioner: 'kubernetes.io/host-path',
    },
  },
];

/** Creates the missing addons through the helper; a failure is reported, not fatal. */
async function ensureAddons(helper, server) {
  for (const { path: apiPath, object } of ADDONS) {
    const url = server + apiPath;
    const answer = await new Promise((resolve) => {
      const onMessage = (m) => {
        if (m.ensured !== url) return;
        helper.off('message', onMessage);
        resolve(m);
      };
      helper.on('message', onMessage);
      helper.send({ ensure: { url, object } });
    });
    if (!answer.ok)
      console.error(`orch: could not create ${object.kind} ${object.metadata.name}: ${answer.code}`);
  }
}

/** Waits until the daemon's health endpoint answers 200 (true) or the daemon exits (false). */
function waitReady(daemon, helper, child, started) {
  const report = () => {
    console.log(`  ready  ${daemon.name.padEnd(30)} ${((Date.now() - started) / 1000).toFixed(2)}s`);
    return true;
  };
  if (!daemon.ready) return Promise.resolve(report());
  return new Promise((resolve) => {
    const onMessage = (m) => {
      if (m.ready !== daemon.ready) return;
      child.off('exit', onExit);
      helper.off('message', onMessage);
      resolve(report());
    };
    const onExit = () => {
      helper.off('message', onMessage);
      resolve(false);
    };
    helper.on('message', onMessage);
    child.once('exit', onExit);
    helper.send({ probe: daemon.ready });
  });
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const started = Date.now();
  fs.mkdirSync(path.join(opts.dataDir, 'logs'), { recursive: true });
  const { helper, pki } = await startHelper(opts.dataDir, `https://127.0.0.1:${opts.port}`);
  console.log(`orch: data directory ${opts.dataDir}${pki.created ? ' (new cluster)' : ''}`);
  const children = [];
  let stopping = false;
  const running = (c) => c.exitCode === null && c.signalCode === null;
  /** SIGTERM to `group`, SIGKILL to what still runs 10 s later; resolves once all have exited. */
  const terminate = (group) => {
    const live = group.filter(running);
    const exited = Promise.all(live.map((c) => new Promise((r) => c.once('exit', r))));
    for (const c of live) c.kill('SIGTERM');
    const deadline = setTimeout(() => live.filter(running).forEach((c) => c.kill('SIGKILL')), 10_000);
    return exited.finally(() => clearTimeout(deadline));
  };
  const stop = async (code) => {
    if (stopping) return;
    stopping = true;
    if (helper.connected) helper.disconnect();
    console.log('\norch: stopping');
    // the daemons that talk to the apiserver stop first, while it still serves them: the scheduler and
    // the controller managers give up their leader locks through it, so the next start leads at once
    const [apiserver, ...clients] = children;
    await terminate(clients);
    if (apiserver) await terminate([apiserver]);
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void stop(0));
  // however this script ends, no daemon outlives it
  process.on('exit', () => children.filter(running).forEach((c) => c.kill('SIGTERM')));
  const launch = (daemon) => {
    const log = fs.openSync(daemon.log, 'a');
    // each daemon in a process group of its own: Ctrl-C reaches this script only, which stops them
    // in order (see stop)
    // the IPC channel closes when this script ends, however it ends (even killed outright): the
    // daemon then stops on its own (see runDaemon)
    const child = spawn(process.execPath, [...daemon.nodeOptions, daemon.bin, ...daemon.args], {
      stdio: ['ignore', log, log, 'ipc'],
      detached: true,
    });
    child.channel?.unref();
    children.push(child);
    child.on('exit', (code, signal) => {
      if (!stopping) {
        console.error(`orch: ${daemon.name} exited (${signal ?? code}); see ${daemon.log}`);
        stop(1);
      }
    });
    return waitReady(daemon, helper, child, started);
  };
  // the apiserver first; then every other daemon at once, since each only needs the apiserver (the
  // node agent's nodes wait for the cloud controller manager to initialize them, whenever it comes)
  const [apiserver, ...clients] = daemons(opts, pki);
  if (!fs.existsSync(apiserver.bin)) throw new Error('orch-apiserver is not built: run npm run build');
  if (!(await launch(apiserver))) return;
  await ensureAddons(helper, `https://127.0.0.1:${opts.port}`);
  // a daemon whose binary is not built yet is skipped
  const ready = await Promise.all(clients.filter((d) => fs.existsSync(d.bin)).map(launch));
  if (ready.includes(false)) return;
  helper.disconnect();
  console.log(`\norch is running (${((Date.now() - started) / 1000).toFixed(2)}s). Try:\n`);
  const rel = path.relative(process.cwd(), pki.kubeconfigs.admin);
  console.log(
    `  kubectl --kubeconfig ${rel.startsWith('..') ? pki.kubeconfigs.admin : rel} get namespaces\n`,
  );
  console.log('Logs are in ' + path.join(opts.dataDir, 'logs') + '. Press Ctrl-C to stop.');
}

if (process.argv[2] === '--startup-helper') {
  startupHelper();
} else {
  main().catch((e) => {
    console.error(`orch: ${e.message}`);
    process.exit(1);
  });
}
