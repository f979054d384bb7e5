import { spawn } from 'node:child_process';
import { networkInterfaces, release } from 'node:os';
import { eventually, freePort } from '@orch/apiserver';
import { kubectlArgs } from '../harness/kubectl';
import { httpGet, startServingCluster, type ServingCluster } from './servingCluster';

/**
 * An address of this host other than loopback: the node's InternalIP, and so the process-runtime
 * pods' IP, which Endpoints may not hold when it is a loopback one. Loopback when there is none (the
 * test of a service with endpoints is then skipped).
 */
const hostAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && !a.internal && a.family === 'IPv4')?.address;
const nodeIP = hostAddress ?? '127.0.0.1';

describe('kubectl through the apiserver proxy to pods, services and node agents', () => {
  let cluster: ServingCluster;
  let podPort: number;
  const run = (args: string[], input?: string, timeoutMs?: number) => cluster.run(args, input, timeoutMs);
  const ns = '/api/v1/namespaces/default';

  beforeAll(async () => {
    cluster = await startServingCluster('proxy');
    // the agent serves on the node's address, where the apiserver reaches it
    await cluster.startAgent('proxy', 'process', [`--node-ip=${nodeIP}`, `--address=${nodeIP}`]);
    podPort = await freePort();
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
      spec: {
        nodeName: 'proxy-0',
        restartPolicy: 'Never',
        containers: [
          {
            name: 'app',
            image: 'node',
            ports: [{ containerPort: podPort }],
            command: [
              'node',
              '-e',
              `require("http").createServer((q,s)=>{let b="";q.on("data",c=>b+=c);q.on("end",()=>s.end(q.method+" "+q.url+" "+b+"\\n"))}).listen(${podPort})`,
            ],
          },
        ],
      },
    };
    expect((await run(['create', '-f', '-'], JSON.stringify(pod))).code).toBe(0);
    await eventually(async () => {
      const r = await run(['get', 'pod', 'web', '-o', 'jsonpath={.status.phase}']);
      return r.stdout === 'Running' ? true : undefined;
    }, 'web Running');
  }, 120_000);

  afterAll(async () => {
    await cluster?.close();
  });

  it('reports the node InternalIP as the pod IP of a process-runtime pod', async () => {
    const internal = await run([
      'get',
      'node',
      'proxy-0',
      '-o',
      'jsonpath={.status.addresses[?(@.type=="InternalIP")].address}',
    ]);
    expect(internal.stdout).toBe(nodeIP);
    const ips = await run(['get', 'pod', 'web', '-o', 'jsonpath={.status.podIP} {.status.podIPs[*].ip}']);
    expect(ips.stdout).toBe(`${nodeIP} ${nodeIP}`);
    // the node reports this host's kernel and the process runtime
    const info = await run([
      'get',
      'node',
      'proxy-0',
      '-o',
      'jsonpath={.status.nodeInfo.containerRuntimeVersion} {.status.nodeInfo.kernelVersion}',
    ]);
    expect(info.stdout).toBe(`orch-process://1.0 ${release()}`);
  });

  it('reaches the pod: get --raw and create --raw answer from its server', async () => {
    const r = await eventually(async () => {
      const res = await run(['get', '--raw', `${ns}/pods/web:${podPort}/proxy/`]);
      return res.code === 0 ? res : undefined;
    }, 'an answer from the pod');
    expect(r.stdout).toBe('GET / \n');
    const query = await run(['get', '--raw', `${ns}/pods/web/proxy/some/path?a=1`]);
    expect(query).toMatchObject({ code: 0, stdout: 'GET /some/path?a=1 \n' });
    const posted = await run(['create', '--raw', `${ns}/pods/http:web:${podPort}/proxy/in`, '-f', '-'], 'hi');
    expect(posted).toMatchObject({ code: 0, stdout: 'POST /in hi\n' });
  }, 60_000);

  (hostAddress ? it : it.skip)(
    'reaches the pod through a service with an endpoint of it',
    async () => {
      const service = {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'web', namespace: 'default' },
        spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: podPort, targetPort: podPort }] },
      };
      expect((await run(['create', '-f', '-'], JSON.stringify(service))).code).toBe(0);
      // no controller manager runs: the endpoints controller's Endpoints are written here
      const endpoints = {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name: 'web', namespace: 'default' },
        subsets: [
          {
            addresses: [{ ip: nodeIP, targetRef: { kind: 'Pod', namespace: 'default', name: 'web' } }],
            ports: [{ name: 'http', port: podPort }],
          },
        ],
      };
      expect((await run(['create', '-f', '-'], JSON.stringify(endpoints))).code).toBe(0);
      expect(await run(['get', '--raw', `${ns}/services/web:${podPort}/proxy/`])).toMatchObject({
        code: 0,
        stdout: 'GET / \n',
      });
      expect(await run(['get', '--raw', `${ns}/services/http:web:http/proxy/x?y=z`])).toMatchObject({
        code: 0,
        stdout: 'GET /x?y=z \n',
      });
    },
    60_000,
  );

  it('answers 503 for a service without endpoints', async () => {
    const service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'lonely', namespace: 'default' },
      spec: { selector: { app: 'nobody' }, ports: [{ port: 80 }] },
    };
    expect((await run(['create', '-f', '-'], JSON.stringify(service))).code).toBe(0);
    const endpoints = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'lonely', namespace: 'default' },
    };
    expect((await run(['create', '-f', '-'], JSON.stringify(endpoints))).code).toBe(0);
    const r = await run(['get', '--raw', `${ns}/services/lonely/proxy/`]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      'Error from server (ServiceUnavailable): no endpoints available for service "lonely"',
    );
  }, 60_000);

  it('reaches the node agent: its /pods lists the pod, its /healthz answers', async () => {
    const r = await run(['get', '--raw', '/api/v1/nodes/proxy-0/proxy/pods']);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as { kind: string; items: { metadata: { name: string } }[] };
    expect(list.kind).toBe('PodList');
    expect(list.items.map((p) => p.metadata.name)).toEqual(['web']);
    expect(await run(['get', '--raw', '/api/v1/nodes/proxy-0/proxy/healthz'])).toMatchObject({
      code: 0,
      stdout: 'ok',
    });
  }, 60_000);

  it('refuses a user without the proxy right (403) and allows the verbs a role grants', async () => {
    const denied = await run(['--as=jane', 'get', '--raw', `${ns}/pods/web/proxy/`]);
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain(
      'Error from server (Forbidden): pods "web" is forbidden: User "jane" cannot get resource "pods/proxy" in API group "" in the namespace "default"',
    );
    expect((await run(['create', 'role', 'proxy-get', '--verb=get', '--resource=pods/proxy'])).code).toBe(0);
    expect(
      (await run(['create', 'rolebinding', 'jane-proxy-get', '--role=proxy-get', '--user=jane'])).code,
    ).toBe(0);
    const allowed = await eventually(async () => {
      const res = await run(['--as=jane', 'get', '--raw', `${ns}/pods/web/proxy/`]);
      return res.code === 0 ? res : undefined;
    }, 'jane allowed to get pods/proxy');
    expect(allowed.stdout).toBe('GET / \n');
    const post = await run(['--as=jane', 'create', '--raw', `${ns}/pods/web/proxy/`, '-f', '-'], 'x');
    expect(post.code).not.toBe(0);
    expect(post.stderr).toContain('cannot create resource "pods/proxy"');
  }, 60_000);

  it('serves kubectl proxy users', async () => {
    const port = await freePort();
    const child = spawn(
      'kubectl',
      kubectlArgs(cluster.admin, ['proxy', `--port=${port}`, '--address=127.0.0.1']),
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, KUBECONFIG: '' } },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    try {
      const answer = await eventually(
        () => httpGet(port, `${ns}/pods/web:${podPort}/proxy/through?kubectl=proxy`),
        `an answer through kubectl proxy: ${output}`,
      );
      expect(answer).toEqual({ status: 200, body: 'GET /through?kubectl=proxy \n' });
      const pods = await httpGet(port, '/api/v1/nodes/proxy-0/proxy/pods');
      expect(pods?.status).toBe(200);
      expect(pods?.body).toContain('"PodList"');
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);
});
