import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyConfigFile, writeConfigFile } from './configFile';
import { schedulerFlagSets } from './daemonFlagSets';
import { parseFlags } from './parseFlags';

describe('--config files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'orch-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads KubeSchedulerConfiguration-style YAML; explicit flags win', () => {
    const file = join(dir, 'sched.yaml');
    writeFileSync(
      file,
      [
        'apiVersion: kubescheduler.config.k8s.io/v1alpha1',
        'kind: KubeSchedulerConfiguration',
        'schedulerName: my-scheduler',
        'leaderElection:',
        '  leaderElect: false',
        '  leaseDuration: 30s',
        '  resourceName: custom-lock',
        'clientConnection:',
        '  qps: 75',
        'secure-port: 11111',
        'authorization-always-allow-paths: [/healthz, /metrics]',
      ].join('\n'),
    );
    const { flags } = parseFlags(
      ['--leader-elect-lease-duration=45s', '--config', file],
      schedulerFlagSets(),
    );
    applyConfigFile(flags, file);
    expect(flags.string('scheduler-name')).toBe('my-scheduler');
    expect(flags.bool('leader-elect')).toBe(false);
    expect(flags.format('leader-elect-lease-duration')).toBe('45s');
    expect(flags.string('leader-elect-resource-name')).toBe('custom-lock');
    expect(flags.number('orch-api-qps')).toBe(75);
    expect(flags.number('secure-port')).toBe(11111);
    expect(flags.strings('authorization-always-allow-paths')).toEqual(['/healthz', '/metrics']);
    expect(flags.changed('scheduler-name')).toBe(false);
  });

  it('reads JSON and reports bad values and unknown fields together', () => {
    const file = join(dir, 'sched.json');
    writeFileSync(file, JSON.stringify({ leaderElection: { leaseDuration: 'long' }, bogus: 1 }));
    const { flags } = parseFlags([], schedulerFlagSets());
    expect(() => applyConfigFile(flags, file)).toThrow(
      `--config: invalid value "long" for leaderElection.leaseDuration: time: invalid duration "long"\n--config: unknown field "bogus" in ${file}`,
    );
  });

  it('reports unreadable files naming the flag', () => {
    const { flags } = parseFlags([], schedulerFlagSets());
    expect(() => applyConfigFile(flags, join(dir, 'missing.yaml'))).toThrow(/^--config: failed to read/);
  });

  it('writes a file that reads back to the same values', () => {
    const file = join(dir, 'out.yaml');
    const { flags } = parseFlags(
      [
        '--secure-port=1',
        '--tls-sni-cert-key=a.crt,a.key:a.io',
        '--feature-gates=PodOverhead=true',
        '--leader-elect-renew-deadline=3s',
      ],
      schedulerFlagSets(),
    );
    writeConfigFile(flags, file);
    expect(readFileSync(file, 'utf8')).toContain('leader-elect-renew-deadline: 3s');
    const reread = parseFlags([], schedulerFlagSets()).flags;
    applyConfigFile(reread, file);
    for (const spec of reread.allSpecs()) {
      if (['config', 'write-config-to', 'help', 'version'].includes(spec.name)) continue;
      expect([spec.name, reread.value(spec.name)]).toEqual([spec.name, flags.value(spec.name)]);
    }
  });
});
