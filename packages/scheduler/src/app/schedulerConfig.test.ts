import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyConfigFile, parseFlags } from '@orch/component-base';
import { buildSchedulerConfig } from './schedulerConfig';
import { orchSchedulerFlagSets } from './schedulerFlags';

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'orch-scheduler-config-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Parses the flags and applies --config the way runDaemon does. */
function configFor(args: string[], file?: string) {
  const argv = file ? [`--config=${file}`, ...args] : args;
  const { flags } = parseFlags(argv, orchSchedulerFlagSets(), 'orch-scheduler');
  if (file) applyConfigFile(flags, file);
  return buildSchedulerConfig(flags);
}

function writeConfig(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe('buildSchedulerConfig', () => {
  it('has one default-scheduler profile and Kubernetes defaults without a file', () => {
    const cfg = configFor([]);
    expect(cfg.profiles).toEqual([{ schedulerName: 'default-scheduler' }]);
    expect(cfg.leaderElection).toMatchObject({
      leaderElect: true,
      resourceLock: 'endpoints',
      resourceName: 'orch-scheduler',
      resourceNamespace: 'orch-system',
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
    });
    expect(cfg.clientConnection).toMatchObject({ qps: 50, burst: 100 });
    expect(cfg).toMatchObject({
      percentageOfNodesToScore: 0,
      podInitialBackoffSeconds: 1,
      podMaxBackoffSeconds: 10,
    });
  });

  it('names the profile after --scheduler-name and honours --leader-elect=false', () => {
    const cfg = configFor([
      '--scheduler-name=my-scheduler',
      '--leader-elect=false',
      '--lock-object-name=legacy',
    ]);
    expect(cfg.profiles).toEqual([{ schedulerName: 'my-scheduler' }]);
    expect(cfg.leaderElection.leaderElect).toBe(false);
    expect(cfg.leaderElection.resourceName).toBe('legacy');
  });

  it('reads a KubeSchedulerConfiguration file with profiles, client connection and leader election', () => {
    const file = writeConfig(
      'config.yaml',
      `apiVersion: kubescheduler.config.k8s.io/v1beta1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: /etc/orch/scheduler.kubeconfig
  qps: 5000
  burst: 5000
leaderElection:
  leaderElect: false
  resourceName: my-lock
percentageOfNodesToScore: 30
podInitialBackoffSeconds: 2
podMaxBackoffSeconds: 20
profiles:
  - schedulerName: default-scheduler
  - schedulerName: no-scoring
    plugins:
      score:
        disabled:
          - name: '*'
    pluginConfig:
      - name: NodeResourcesFit
        args:
          ignoredResources: [example.com/fpga]
`,
    );
    const cfg = configFor(['--orch-api-qps=100'], file);
    expect(cfg.clientConnection).toMatchObject({
      kubeconfig: '/etc/orch/scheduler.kubeconfig',
      qps: 100,
      burst: 5000,
    });
    expect(cfg.leaderElection).toMatchObject({ leaderElect: false, resourceName: 'my-lock' });
    expect(cfg).toMatchObject({
      percentageOfNodesToScore: 30,
      podInitialBackoffSeconds: 2,
      podMaxBackoffSeconds: 20,
    });
    expect(cfg.profiles).toEqual([
      { schedulerName: 'default-scheduler' },
      {
        schedulerName: 'no-scoring',
        plugins: { score: { disabled: [{ name: '*' }] } },
        pluginConfig: [{ name: 'NodeResourcesFit', args: { ignoredResources: ['example.com/fpga'] } }],
      },
    ]);
  });

  it('applies --hard-pod-affinity-symmetric-weight to the InterPodAffinity args of every profile', () => {
    expect(configFor(['--hard-pod-affinity-symmetric-weight=7']).profiles).toEqual([
      {
        schedulerName: 'default-scheduler',
        pluginConfig: [{ name: 'InterPodAffinity', args: { hardPodAffinityWeight: 7 } }],
      },
    ]);
    const file = writeConfig(
      'affinity.yaml',
      [
        'profiles:',
        '  - schedulerName: a',
        '    pluginConfig:',
        '      - name: InterPodAffinity',
        '        args: {hardPodAffinityWeight: 3}',
        '  - schedulerName: b',
        '',
      ].join('\n'),
    );
    // The file's argument stands unless the flag is given; the flag overrides it.
    expect(configFor([], file).profiles[0]!.pluginConfig).toEqual([
      { name: 'InterPodAffinity', args: { hardPodAffinityWeight: 3 } },
    ]);
    expect(configFor([], file).profiles[1]!.pluginConfig).toBeUndefined();
    expect(
      configFor(['--hard-pod-affinity-symmetric-weight=0'], file).profiles.map((p) => p.pluginConfig),
    ).toEqual([
      [{ name: 'InterPodAffinity', args: { hardPodAffinityWeight: 0 } }],
      [{ name: 'InterPodAffinity', args: { hardPodAffinityWeight: 0 } }],
    ]);
  });

  it.each([
    ['profiles:\n  - plugins: {}\n', 'profiles[0].schedulerName: Required value'],
    [
      'profiles:\n  - schedulerName: a\n  - schedulerName: a\n',
      'profiles[1].schedulerName: Duplicate value: "a"',
    ],
    ['profiles:\n  - schedulerName: a\n    plugins:\n      sort: {}\n', 'unknown extension point "sort"'],
    ['percentageOfNodesToScore: 101\n', 'not in valid range [0-100]'],
    [
      'profiles:\n  - schedulerName: a\n    pluginConfig:\n      - name: InterPodAffinity\n        args:\n          hardPodAffinityWeight: 101\n',
      'profiles[0].pluginConfig[0].args.hardPodAffinityWeight: Invalid value: 101: not in valid range [0-100]',
    ],
    [
      'profiles:\n  - schedulerName: a\n    pluginConfig:\n      - name: DefaultPreemption\n        args:\n          minCandidateNodesPercentage: 101\n',
      'profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]',
    ],
    [
      'podInitialBackoffSeconds: 5\npodMaxBackoffSeconds: 4\n',
      'must be greater than or equal to PodInitialBackoffSeconds',
    ],
  ])('rejects %j', (text, message) => {
    const file = writeConfig('bad.yaml', text);
    expect(() => configFor([], file)).toThrow(message);
  });
});
