import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '@orch/apiserver';
import { tlsHandshake } from '@orch/component-base';
import { kubectl } from '../harness/kubectl';
import { startServingCluster, type AgentProcess, type ServingCluster } from './servingCluster';

/** The SHA-256 fingerprint of the certificate the server on `port` presents. */
async function servedCertificate(port: number): Promise<string> {
  const r = await tlsHandshake(port, {});
  if (!r.ok) throw new Error(r.error);
  return r.fingerprint;
}

describe('kubectl logs through the apiserver to a process-runtime node agent', () => {
  let cluster: ServingCluster;
  let admin: string;
  let agent: AgentProcess;
  const run = (args: string[], timeoutMs?: number) => cluster.run(args, undefined, timeoutMs);

  beforeAll(async () => {
    cluster = await startServingCluster('logs');
    admin = cluster.admin;
    agent = await cluster.startAgent('logs', 'process');
  }, 60_000);

  afterAll(async () => {
    await cluster?.close();
  });

  const createPod = (name: string, containers: { name: string; script: string }[]) =>
    kubectl(
      admin,
      ['create', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: 'default' },
        spec: {
          nodeName: 'logs-0',
          restartPolicy: 'Never',
          containers: containers.map((c) => ({
            name: c.name,
            image: 'busybox',
            command: ['sh', '-c', c.script],
          })),
        },
      }),
    );

  const phase = (name: string, want: string) =>
    eventually(async () => {
      const r = await run(['get', 'pod', name, '-o', 'jsonpath={.status.phase}']);
      return r.stdout === want ? true : undefined;
    }, `${name} ${want}`);

  it('prints the lines a pod echoed, and the last one with --tail=1', async () => {
    expect((await createPod('echo', [{ name: 'app', script: 'echo one; echo two; echo three' }])).code).toBe(
      0,
    );
    await phase('echo', 'Succeeded');
    const all = await run(['logs', 'echo']);
    expect(all).toMatchObject({ code: 0, stdout: 'one\ntwo\nthree\n' });
    expect(await run(['logs', 'echo', '--tail=1'])).toMatchObject({ code: 0, stdout: 'three\n' });
    const stamped = await run(['logs', 'echo', '--timestamps', '--tail=1']);
    expect(stamped.stdout).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z three\n$/);
  }, 60_000);

  it('streams a line written later with -f', async () => {
    await createPod('later', [{ name: 'app', script: 'echo first; sleep 2; echo second' }]);
    await phase('later', 'Running');
    const followed = await run(['logs', '-f', 'later'], 30_000);
    expect(followed).toMatchObject({ code: 0, stdout: 'first\nsecond\n' });
  }, 60_000);

  it('asks for -c on a pod with two containers, as Kubernetes does', async () => {
    await createPod('two', [
      { name: 'a', script: 'echo from a' },
      { name: 'b', script: 'echo from b' },
    ]);
    await phase('two', 'Succeeded');
    // kubectl itself defaults to the first container; the API asks for one
    const defaulted = await run(['logs', 'two']);
    expect(defaulted).toMatchObject({ code: 0, stdout: 'from a\n' });
    expect(defaulted.stderr).toContain('Defaulted container "a" out of: a, b');
    const missing = await run(['get', '--raw', '/api/v1/namespaces/default/pods/two/log']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('a container name must be specified for pod two, choose one of: [a b]');
    expect(await run(['logs', 'two', '-c', 'b'])).toMatchObject({ code: 0, stdout: 'from b\n' });
    const unknown = await run(['logs', 'two', '-c', 'c']);
    expect(unknown.stderr).toContain('container c is not valid for pod two');
  }, 60_000);

  it('serves a self-signed pair kept in <root-dir>/pki, and the same pair after a restart with --cert-dir', async () => {
    // as the kubelet keeps kubelet.crt and kubelet.key in --cert-dir (<root-dir>/pki)
    const kept = new X509Certificate(readFileSync(join(agent.root, 'pki', 'kubelet.crt')));
    expect(await servedCertificate(agent.port)).toBe(kept.fingerprint256);
    expect(readFileSync(join(agent.root, 'pki', 'kubelet.key'), 'utf8')).toContain('PRIVATE KEY');

    const certDir = mkdtempSync(join(tmpdir(), 'orch-e2e-cert-dir-'));
    try {
      const first = await cluster.startAgent('pki-a', 'simulated', [`--cert-dir=${certDir}`]);
      const made = await servedCertificate(first.port);
      expect(made).toBe(new X509Certificate(readFileSync(join(certDir, 'kubelet.crt'))).fingerprint256);
      await first.stop();
      const second = await cluster.startAgent('pki-b', 'simulated', [`--cert-dir=${certDir}`]);
      expect(await servedCertificate(second.port)).toBe(made);
    } finally {
      rmSync(certDir, { recursive: true, force: true });
    }
  }, 60_000);
});
