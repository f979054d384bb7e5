import { spawn } from 'node:child_process';
import { eventually, freePort } from '@orch/apiserver';
import { kubectl, kubectlArgs } from '../harness/kubectl';
import { httpGet, startServingCluster, type ServingCluster } from './servingCluster';

describe('kubectl exec and port-forward through the apiserver to a process-runtime node agent', () => {
  let cluster: ServingCluster;
  let admin: string;
  const run = (args: string[], input?: string, timeoutMs?: number) => cluster.run(args, input, timeoutMs);

  beforeAll(async () => {
    cluster = await startServingCluster('exec');
    admin = cluster.admin;
    await cluster.startAgent('exec', 'process');
    await cluster.startAgent('sim', 'simulated');
  }, 90_000);

  afterAll(async () => {
    await cluster?.close();
  });

  const createPod = (name: string, node: string, script: string, env: Record<string, string> = {}) =>
    kubectl(
      admin,
      ['create', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: 'default' },
        spec: {
          nodeName: node,
          restartPolicy: 'Never',
          containers: [
            {
              name: 'app',
              image: 'busybox',
              command: ['sh', '-c', script],
              env: Object.entries(env).map(([n, value]) => ({ name: n, value })),
            },
          ],
        },
      }),
    );

  const running = (name: string) =>
    eventually(async () => {
      const r = await run(['get', 'pod', name, '-o', 'jsonpath={.status.phase}']);
      return r.stdout === 'Running' ? true : undefined;
    }, `${name} Running`);

  it('runs a command with the container environment, printing both streams and exiting with its code', async () => {
    expect((await createPod('shell', 'exec-0', 'sleep 600', { GREETING: 'hello' })).code).toBe(0);
    await running('shell');
    const r = await run(['exec', 'shell', '--', 'sh', '-c', 'echo out $GREETING; echo err >&2; exit 3']);
    expect(r.stdout).toBe('out hello\n');
    expect(r.stderr).toContain('err\n');
    expect(r.stderr).toContain('command terminated with exit code 3');
    expect(r.code).toBe(3);
    expect(await run(['exec', 'shell', '--', 'true'])).toMatchObject({ code: 0, stdout: '' });
  }, 60_000);

  it('feeds stdin with -i', async () => {
    await running('shell');
    const r = await run(['exec', '-i', 'shell', '--', 'cat'], 'hi\n');
    expect(r).toMatchObject({ code: 0, stdout: 'hi\n' });
  }, 60_000);

  it('reports a command that cannot start, and refuses without a node or a command', async () => {
    const missing = await run(['exec', 'shell', '--', 'no-such-program-x']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('executable file not found in $PATH');
    const raw = await run(
      ['create', '--raw', '/api/v1/namespaces/default/pods/shell/exec?stdout=true', '-f', '-'],
      '{}',
    );
    expect(raw.code).not.toBe(0);
    expect(raw.stderr).toContain('you must specify at least one command for the container');
    await kubectl(
      admin,
      ['create', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'unbound', namespace: 'default' },
        spec: { schedulerName: 'none', containers: [{ name: 'app', image: 'busybox' }] },
      }),
    );
    const unbound = await run(['exec', 'unbound', '--', 'true']);
    expect(unbound.code).not.toBe(0);
    expect(unbound.stderr).toContain('pod unbound does not have a host assigned');
  }, 60_000);

  it('fails clearly on a simulated pod', async () => {
    expect((await createPod('sim', 'sim-0', 'sleep 600')).code).toBe(0);
    await running('sim');
    const r = await run(['exec', 'sim', '--', 'true']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('the simulated runtime cannot exec in container "app"');
  }, 60_000);

  it('forwards a local port to a port the container listens on', async () => {
    const podPort = await freePort();
    expect(
      (
        await createPod(
          'web',
          'exec-0',
          `exec node -e 'require("http").createServer((q,s)=>s.end("hello from the pod\\n")).listen(${podPort},"127.0.0.1")'`,
        )
      ).code,
    ).toBe(0);
    await running('web');
    const local = await freePort();
    const child = spawn('kubectl', kubectlArgs(admin, ['port-forward', 'pod/web', `${local}:${podPort}`]), {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, KUBECONFIG: '' },
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    try {
      const answer = await eventually(() => httpGet(local), `an answer through port ${local}: ${output}`);
      expect(answer).toEqual({ status: 200, body: 'hello from the pod\n' });
      // a second connection over the same session
      expect(await httpGet(local)).toEqual({ status: 200, body: 'hello from the pod\n' });
      expect(output).toContain(`Forwarding from 127.0.0.1:${local} -> ${podPort}`);
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);

  it('attaches to a running container: its output from then on, and its stdin (stdinOnce)', async () => {
    const r = await kubectl(
      admin,
      ['create', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'reader', namespace: 'default' },
        spec: {
          nodeName: 'exec-0',
          restartPolicy: 'Never',
          containers: [
            {
              name: 'app',
              image: 'busybox',
              stdin: true,
              stdinOnce: true,
              // reads lines until its stdin closes, answering each on stdout and on stderr
              command: [
                'sh',
                '-c',
                'echo ready; while read line; do echo "got $line"; echo "err $line" >&2; done; echo bye',
              ],
            },
          ],
        },
      }),
    );
    expect(r.code).toBe(0);
    await running('reader');
    await eventually(
      async () => ((await run(['logs', 'reader'])).stdout.includes('ready') ? true : undefined),
      'ready',
    );
    const attached = await run(['attach', '-i', 'reader', '-c', 'app'], 'one\ntwo\n', 30_000);
    // what came before the attach is not repeated; the container ends when its stdin closes
    expect(attached.stdout).not.toContain('ready');
    expect(attached.stdout).toContain('got one\ngot two\n');
    expect(attached.stdout).toContain('bye');
    expect(attached.stderr).toContain('err one\nerr two\n');
    expect(attached.code).toBe(0);
    await eventually(
      async () =>
        (await run(['get', 'pod', 'reader', '-o', 'jsonpath={.status.phase}'])).stdout === 'Succeeded'
          ? true
          : undefined,
      'the container done',
    );
  }, 60_000);

  it('refuses to attach to a simulated container', async () => {
    // restartPolicy Always: a simulated container that keeps running
    const created = await run(
      ['create', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'sim-always', namespace: 'default' },
        spec: { nodeName: 'sim-0', containers: [{ name: 'app', image: 'busybox' }] },
      }),
    );
    expect(created.code).toBe(0);
    await running('sim-always');
    const r = await run(['attach', 'sim-always', '-c', 'app']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('the simulated runtime cannot attach to container "app"');
  }, 60_000);

  it('forbids exec to a user without create on pods/exec', async () => {
    await run(['create', 'rolebinding', 'viewer-view', '--clusterrole=view', '--user=viewer']);
    const r = await run(['--as=viewer', 'exec', 'shell', '--', 'true']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      'cannot create resource "pods/exec" in API group "" in the namespace "default"',
    );
  }, 60_000);
});
