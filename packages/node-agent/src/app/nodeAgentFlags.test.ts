import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFlags, runDaemon, validateFlags } from '@orch/component-base';
import { buildNodeAgentConfig, nodeAgentValidators, nodeNames, parseTaints } from './nodeAgentConfig';
import { nodeAgentDaemon } from './nodeAgentDaemon';
import { nodeAgentFlagSets } from './nodeAgentFlags';

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const spec = { ...nodeAgentDaemon(), run: () => ({}) };
  const code = await runDaemon(spec, {
    argv,
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
    exit: () => undefined,
  });
  return { code, out, err };
}

function config(argv: string[]) {
  return buildNodeAgentConfig(parseFlags(argv, nodeAgentFlagSets(), 'orch-node-agent').flags);
}

function problems(argv: string[]): string[] {
  return validateFlags(parseFlags(argv, nodeAgentFlagSets(), 'orch-node-agent').flags, nodeAgentValidators());
}

describe('orch-node-agent flags', () => {
  it('prints help in sections, documenting the exit-code annotation', async () => {
    const { code, out } = await run(['--help']);
    expect(code).toBe(0);
    expect(out).toContain('Usage:\n  orch-node-agent [flags]');
    for (const section of [
      'Simulation flags:',
      'Heartbeat flags:',
      'Client connection flags:',
      'Logs flags:',
    ]) {
      expect(out).toContain(section);
    }
    expect(out).toMatch(/--nodes int32\s+Number of simulated nodes this process runs. \(default 1\)/);
    expect(out).toContain('orch.io/simulated-exit-code');
    expect(out).toMatch(/--node-memory string\s+Memory capacity of each node. \(default "16Gi"\)/);
  });

  it('prints its version', async () => {
    const { code, out } = await run(['--version']);
    expect(code).toBe(0);
    expect(out).toMatch(/^orch v\d+\.\d+\.\d+/);
  });

  it('has the documented defaults', () => {
    const cfg = config([]);
    expect(cfg).toMatchObject({
      nodes: 1,
      nodeNamePrefix: 'orch-node',
      capacity: { cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' },
      reserved: {},
      nodeStatusUpdateFrequencyMs: 10_000,
      nodeStatusReportFrequencyMs: 300_000,
      nodeLeaseDurationSeconds: 40,
      podStartLatencyMs: 0,
      podRunDurationMs: 3000,
      writers: 128,
      clientConnection: { qps: 50, burst: 100 },
    });
    expect(nodeNames(cfg)).toEqual(['orch-node-0']);
  });

  it('names nodes from the prefix, or the single one from --hostname-override', () => {
    expect(nodeNames(config(['--nodes=3', '--node-name-prefix=sim']))).toEqual(['sim-0', 'sim-1', 'sim-2']);
    expect(nodeNames(config(['--hostname-override=Worker-A']))).toEqual(['worker-a']);
  });

  it('parses labels, taints and reserved resources', () => {
    const cfg = config([
      '--node-labels=a=1,b=',
      '--register-with-taints=k=v:NoSchedule,gpu:NoExecute',
      '--node-reserved=cpu=100m,memory=1Gi',
    ]);
    expect(cfg.nodeLabels).toEqual({ a: '1', b: '' });
    expect(cfg.registerWithTaints).toEqual([
      { key: 'k', value: 'v', effect: 'NoSchedule' },
      { key: 'gpu', effect: 'NoExecute' },
    ]);
    expect(cfg.reserved).toEqual({ cpu: '100m', memory: '1Gi' });
    expect(() => parseTaints(['k=v'])).toThrow('invalid taint spec: k=v');
  });

  it('--cloud-provider=external registers the nodes with the uninitialized taint', () => {
    const uninitialized = {
      key: 'node.cloudprovider.kubernetes.io/uninitialized',
      value: 'true',
      effect: 'NoSchedule',
    };
    expect(config([]).registerWithTaints).toEqual([]);
    expect(config([]).externalCloudProvider).toBe(false);
    const external = config(['--cloud-provider=external', '--register-with-taints=k=v:NoSchedule']);
    expect(external.externalCloudProvider).toBe(true);
    expect(external.registerWithTaints).toEqual([
      { key: 'k', value: 'v', effect: 'NoSchedule' },
      uninitialized,
    ]);
    expect(problems(['--cloud-provider=aws'])).toEqual([
      '--cloud-provider: unsupported cloud provider "aws"; use "external" or ""',
    ]);
  });

  it('--pod-runtime selects simulated (the default) or process pods, with --root-dir', async () => {
    expect(config([])).toMatchObject({ podRuntime: 'simulated', rootDir: join(tmpdir(), 'orch-node-agent') });
    expect(config(['--pod-runtime=process', '--root-dir=/var/tmp/agent'])).toMatchObject({
      podRuntime: 'process',
      rootDir: '/var/tmp/agent',
    });
    expect(problems(['--pod-runtime=docker'])).toEqual([
      '--pod-runtime: unsupported pod runtime "docker"; use simulated or process',
    ]);
    expect(problems(['--root-dir='])).toEqual(['--root-dir must not be empty']);
    const { out } = await run(['--help']);
    expect(out).toMatch(/--pod-runtime string\s+How the pods bound to the nodes run/);
    expect(out).toContain('ORCH_TERMINATION_MESSAGE_PATH');
    expect(out).toMatch(/--root-dir string\s+Directory of the agent's files/);
  });

  it('--cert-dir keeps the self-signed serving pair, <root-dir>/pki unless given; ignored with --tls-*', () => {
    expect(config(['--root-dir=/var/tmp/agent']).server).toMatchObject({
      certDir: '/var/tmp/agent/pki',
      certFile: '',
      keyFile: '',
    });
    expect(config(['--cert-dir=/etc/orch/pki']).server.certDir).toBe('/etc/orch/pki');
  });

  it('rejects bad values with a message naming the flag', async () => {
    const parse = await run(['--nodes=many']);
    expect(parse.code).toBe(1);
    expect(parse.err).toContain('--nodes');
    expect(parse.err).toContain("Run 'orch-node-agent --help' for usage.");
    expect(problems(['--nodes=0'])).toEqual(['--nodes 0 must be between 1 and 32768']);
    expect(problems(['--node-cpu=lots'])[0]).toMatch(/^--node-cpu: /);
    expect(problems(['--register-with-taints=k=v:Sometimes'])).toEqual([
      '--register-with-taints: invalid taint effect: Sometimes, unsupported taint effect',
    ]);
    expect(problems(['--node-labels=novalue'])).toEqual([
      '--node-labels: invalid format: novalue, expected key=value',
    ]);
    expect(problems(['--node-reserved=cpu=abc'])[0]).toMatch(/^--node-reserved: /);
    expect(problems(['--node-lease-duration-seconds=0'])).toEqual([
      '--node-lease-duration-seconds must be greater than zero',
    ]);
    expect(problems(['--nodes=2', '--hostname-override=x'])).toEqual([
      '--hostname-override can only be used with --nodes=1',
    ]);
    const rejected = await run(['--pod-run-duration=-1s']);
    expect(rejected.err).toContain('Error: --pod-run-duration must not be negative');
  });
});
