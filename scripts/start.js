#!/usr/bin/env node
// Runs a whole orch cluster on this machine: orch-apiserver on the embedded store (or etcd), the
// scheduler, the controller manager and a node agent with simulated nodes, each its own process,
// over HTTPS with its own credentials. State lives in the data directory; a second start finds the
// same cluster. Ctrl-C stops everything.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const https = require('node:https');
const path = require('node:path');
// only the certificates module: the launcher stays small (it is one of the processes of the suite)
const { ensureClusterPKI } = require('../packages/component-base/dist/certs');

const root = path.resolve(__dirname, '..');
// A smaller young generation: the daemons are long-lived and mostly idle on one machine.
const nodeOptions = ['--max-semi-space-size=4'];

function usage() {
  return `Usage: npm start -- [options]

Options:
  --data-dir DIR            where the cluster keeps its state (default .orch)
  --nodes N                 simulated nodes run by the node agent (default 3)
  --storage-backend NAME    embedded (default) or etcd3
  --etcd-servers URLS       etcd client URLs, comma separated (with --storage-backend etcd3)
  --port PORT               the apiserver's HTTPS port (default 6443)
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
  if (!Number.isInteger(opts.port) || opts.port < 1 || opts.port > 65535)
    fail('--port must be between 1 and 65535');
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

/** The daemons of the suite, in start order; a daemon whose binary is not built yet is skipped. */
function daemons(opts, pki) {
  const bin = (pkg, name) => path.join(root, 'packages', pkg, 'dist', 'bin', `${name}.js`);
  const logDir = path.join(opts.dataDir, 'logs');
  const apiserverArgs = [
    `--secure-port=${opts.port}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--tls-cert-file=${pki.files.apiserverCert}`,
    `--tls-private-key-file=${pki.files.apiserverKey}`,
    `--client-ca-file=${pki.files.caCert}`,
    `--service-account-key-file=${pki.files.serviceAccountPublicKey}`,
    `--service-account-signing-key-file=${pki.files.serviceAccountKey}`,
    '--service-account-issuer=https://orch.default.svc',
    '--authorization-mode=RBAC',
    `--storage-backend=${opts.storageBackend}`,
    ...(opts.storageBackend === 'embedded'
      ? [`--embedded-storage-dir=${path.join(opts.dataDir, 'data')}`]
      : [`--etcd-servers=${opts.etcdServers}`]),
  ];
  const daemonArgs = (name, port) => [
    `--kubeconfig=${pki.kubeconfigs[name]}`,
    `--authentication-kubeconfig=${pki.kubeconfigs[name]}`,
    `--authorization-kubeconfig=${pki.kubeconfigs[name]}`,
    '--bind-address=127.0.0.1',
    `--secure-port=${port}`,
    `--cert-dir=${path.join(opts.dataDir, 'pki', name)}`,
  ];
  return [
    {
      name: 'orch-apiserver',
      bin: bin('apiserver', 'orch-apiserver'),
      args: apiserverArgs,
      ready: `https://127.0.0.1:${opts.port}/readyz`,
    },
    {
      name: 'orch-controller-manager',
      bin: bin('controller-manager', 'orch-controller-manager'),
      args: [
        ...daemonArgs('controller-manager', 10257),
        `--service-account-private-key-file=${pki.files.serviceAccountKey}`,
        `--root-ca-file=${pki.files.caCert}`,
        `--cluster-signing-cert-file=${pki.files.caCert}`,
        `--cluster-signing-key-file=${pki.files.caKey}`,
      ],
      ready: 'https://127.0.0.1:10257/healthz',
    },
    {
      name: 'orch-scheduler',
      bin: bin('scheduler', 'orch-scheduler'),
      args: daemonArgs('scheduler', 10259),
      ready: 'https://127.0.0.1:10259/healthz',
    },
    {
      name: 'orch-node-agent',
      bin: bin('node-agent', 'orch-node-agent'),
      args: [`--kubeconfig=${pki.kubeconfigs['node-agent']}`, `--nodes=${opts.nodes}`],
      ready: undefined,
    },
  ].map((d) => ({ ...d, log: path.join(logDir, `${d.name}.log`) }));
}

function probe(url, pki) {
  return new Promise((resolve) => {
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
}

async function waitReady(daemon, pki, child, started) {
  for (;;) {
    if (child.exitCode !== null) return false;
    if (!daemon.ready || (await probe(daemon.ready, pki))) {
      console.log(`  ready  ${daemon.name.padEnd(26)} ${((Date.now() - started) / 1000).toFixed(2)}s`);
      return true;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const started = Date.now();
  fs.mkdirSync(path.join(opts.dataDir, 'logs'), { recursive: true });
  const pki = ensureClusterPKI(opts.dataDir, `https://127.0.0.1:${opts.port}`);
  console.log(`orch: data directory ${opts.dataDir}${pki.created ? ' (new cluster)' : ''}`);
  const children = [];
  let stopping = false;
  const stop = (code) => {
    if (stopping) return;
    stopping = true;
    console.log('\norch: stopping');
    for (const c of [...children].reverse()) if (c.exitCode === null) c.kill('SIGTERM');
    const deadline = setTimeout(() => {
      for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    }, 10_000);
    deadline.unref();
    Promise.all(
      children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.once('exit', r)))),
    ).then(() => process.exit(code));
  };
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
  for (const daemon of daemons(opts, pki)) {
    if (!fs.existsSync(daemon.bin)) continue;
    const log = fs.openSync(daemon.log, 'a');
    const child = spawn(process.execPath, [...nodeOptions, daemon.bin, ...daemon.args], {
      stdio: ['ignore', log, log],
    });
    children.push(child);
    child.on('exit', (code, signal) => {
      if (!stopping) {
        console.error(`orch: ${daemon.name} exited (${signal ?? code}); see ${daemon.log}`);
        stop(1);
      }
    });
    if (!(await waitReady(daemon, pki, child, started))) return;
  }
  console.log(`\norch is running (${((Date.now() - started) / 1000).toFixed(2)}s). Try:\n`);
  const rel = path.relative(process.cwd(), pki.kubeconfigs.admin);
  console.log(
    `  kubectl --kubeconfig ${rel.startsWith('..') ? pki.kubeconfigs.admin : rel} get namespaces\n`,
  );
  console.log('Logs are in ' + path.join(opts.dataDir, 'logs') + '. Press Ctrl-C to stop.');
}

main().catch((e) => {
  console.error(`orch: ${e.message}`);
  process.exit(1);
});
