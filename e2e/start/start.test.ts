import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, freePort, httpsRequest } from '@orch/apiserver';
import { kubectlOK } from '../harness/kubectl';

/** What `npm start` runs after its build: the README's first command. */
const script = join(__dirname, '..', '..', 'scripts', 'start.js');

interface Started {
  child: ChildProcess;
  /** Everything it printed so far. */
  output: () => string;
}

/** The HTTPS ports of the daemons that serve one, each given to the script by its option. */
interface Ports {
  port: number;
  'controller-manager-port': number;
  'cloud-controller-manager-port': number;
  'scheduler-port': number;
  'node-agent-port': number;
}

/** Free loopback ports for the suite, so that it runs beside another on the default ports. */
async function freePorts(): Promise<Ports> {
  return {
    port: await freePort(),
    'controller-manager-port': await freePort(),
    'cloud-controller-manager-port': await freePort(),
    'scheduler-port': await freePort(),
    'node-agent-port': await freePort(),
  };
}

/** Starts the suite and resolves once it has said all it says when running (or fails with what it printed). */
function start(dataDir: string, ports: Ports): Promise<Started> {
  const portArgs = Object.entries(ports).flatMap(([option, port]) => [`--${option}`, String(port)]);
  const args = [
    script,
    '--data-dir',
    dataDir,
    ...portArgs,
    '--nodes',
    '2',
    '--feature-gates',
    'TTLAfterFinished=true',
  ];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not running after 60 s:\n${output}`)), 60_000);
    const check = () => {
      if (!output.includes('Press Ctrl-C to stop')) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      child.off('exit', exited);
      resolve({ child, output: () => output });
    };
    const exited = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before running:\n${output}`));
    };
    child.stdout!.on('data', check);
    child.once('exit', exited);
  });
}

/** The pids of the daemons (built binaries) whose command line names `dataDir`: that suite's. */
function daemonsOf(dataDir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    if (cmdline.includes(dataDir) && cmdline.includes('/dist/bin/orch-')) pids.push(Number(entry));
  }
  return pids;
}

/** Ctrl-C: resolves with the exit code once the script (which waits for every daemon) has exited. */
function interrupt(started: Started): Promise<number | null> {
  return new Promise((resolve) => {
    started.child.once('exit', (code) => resolve(code));
    started.child.kill('SIGINT');
  });
}

describe('npm start (scripts/start.js)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'orch-start-'));
  const kubeconfig = join(dataDir, 'admin.kubeconfig');
  /** What `kubectl get <what>` prints at a JSONPath. */
  const jsonpath = (what: string[], path: string) =>
    kubectlOK(kubeconfig, ['get', ...what, '-o', `jsonpath=${path}`]);
  let running: Started | undefined;
  afterAll(async () => {
    // after a failure: Ctrl-C, which stops the daemons too
    if (running && running.child.exitCode === null) await interrupt(running);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the whole suite for kubectl, stops it on Ctrl-C, starts the same cluster again, and its daemons stop when the script is killed', async () => {
    const ports = await freePorts();
    running = await start(dataDir, ports);
    const first = running.output();
    expect(first).toContain('(new cluster)');
    for (const daemon of [
      'orch-apiserver',
      'orch-controller-manager',
      'orch-cloud-controller-manager',
      'orch-scheduler',
      'orch-node-agent',
    ]) {
      expect(first).toMatch(new RegExp(`ready +${daemon} `));
    }
    expect(first).toContain(`--kubeconfig ${kubeconfig} get namespaces`);
    // each daemon serves its health on the port it was given
    for (const daemon of ['controller-manager', 'cloud-controller-manager', 'scheduler'] as const) {
      // its self-signed serving certificate, kept in its --cert-dir
      const certDir = join(dataDir, 'pki', daemon);
      const cert = readdirSync(certDir).find((f) => f.endsWith('.crt'))!;
      const health = await httpsRequest(`https://127.0.0.1:${ports[`${daemon}-port`]}/healthz`, {
        ca: readFileSync(join(certDir, cert), 'utf8'),
      });
      expect({ daemon, status: health.status, body: health.body.toString() }).toEqual({
        daemon,
        status: 200,
        body: 'ok',
      });
    }

    // the nodes come up Ready, and a Deployment runs on them
    await eventually(async () => {
      const out = await jsonpath(
        ['nodes'],
        '{range .items[*]}{.status.conditions[?(@.type=="Ready")].status}{"\\n"}{end}',
      );
      return out.split('\n').filter((s) => s === 'True').length === 2;
    }, 'two Ready nodes');
    await kubectlOK(kubeconfig, ['create', 'configmap', 'kept', '--from-literal=a=1']);
    await kubectlOK(kubeconfig, ['create', 'deployment', 'web', '--image=nginx', '--replicas=2']);
    await eventually(
      async () => (await jsonpath(['deployment', 'web'], '{.status.readyReplicas}')) === '2',
      'two ready replicas',
    );
    // kubectl logs reaches the node agent's server at the nodes' address: simulated containers write nothing
    expect(await kubectlOK(kubeconfig, ['logs', 'deployment/web'])).toBe('');
    expect(await jsonpath(['nodes'], '{.items[*].status.addresses[?(@.type=="InternalIP")].address}')).toBe(
      '127.0.0.1 127.0.0.1',
    );
    // a claim without a class gets the default StorageClass and a host-path volume made for it
    await kubectlOK(
      kubeconfig,
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      }),
    );
    await eventually(
      async () => (await jsonpath(['pvc', 'data'], '{.status.phase}')) === 'Bound',
      'the claim bound',
    );
    expect(await jsonpath(['pvc', 'data'], '{.spec.storageClassName}')).toBe('standard');
    // --feature-gates reaches the daemons: with TTLAfterFinished on, a finished Job with a TTL goes
    await kubectlOK(
      kubeconfig,
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'brief' },
        spec: {
          ttlSecondsAfterFinished: 0,
          template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
        },
      }),
    );
    await eventually(
      async () => !(await jsonpath(['jobs'], '{.items[*].metadata.name}')).includes('brief'),
      'the finished job deleted',
    );

    // Ctrl-C stops every daemon, then the script: the apiserver no longer answers
    expect(await interrupt(running)).toBe(0);
    expect(running.output()).toContain('orch: stopping');
    const gone = await kubectlOK(kubeconfig, ['get', 'namespaces', '--request-timeout=2s']).then(
      () => false,
      () => true,
    );
    expect(gone).toBe(true);

    // a second start finds the same cluster
    running = await start(dataDir, ports);
    expect(running.output()).not.toContain('(new cluster)');
    expect(await jsonpath(['configmap', 'kept'], '{.data.a}')).toBe('1');

    // the script killed outright: its daemons see their channel to it close and stop on their own
    expect(daemonsOf(dataDir).length).toBe(5);
    const killed = running;
    await new Promise((resolve) => {
      killed.child.once('exit', resolve);
      killed.child.kill('SIGKILL');
    });
    running = undefined;
    await eventually(async () => daemonsOf(dataDir).length === 0, 'every daemon stopped', 45_000);
  }, 180_000);
});
