import { controllerManagerFlagSets, schedulerFlagSets } from './daemonFlagSets';
import { FlagError } from './flagError';
import { flag, type FlagSetSpec } from './flagSpec';
import { formatHelp } from './helpText';
import { parseFlags } from './parseFlags';

const cm = controllerManagerFlagSets();

describe('parseFlags', () => {
  it('accepts --flag value and --flag=value', () => {
    const { flags } = parseFlags(['--secure-port', '1234', '--cluster-name=prod'], cm);
    expect(flags.number('secure-port')).toBe(1234);
    expect(flags.string('cluster-name')).toBe('prod');
    expect(flags.changed('secure-port')).toBe(true);
    expect(flags.changed('bind-address')).toBe(false);
  });

  it('accepts bare booleans and --bool=false without eating the next flag', () => {
    const { flags } = parseFlags(['--allocate-node-cidrs', '--leader-elect=false', '--profiling'], cm);
    expect(flags.bool('allocate-node-cidrs')).toBe(true);
    expect(flags.bool('leader-elect')).toBe(false);
    expect(flags.bool('profiling')).toBe(true);
  });

  it('accepts -v 4, -v=4, -v4 and --v=4', () => {
    for (const argv of [['-v', '4'], ['-v=4'], ['-v4'], ['--v=4'], ['--v', '4']]) {
      expect(parseFlags(argv, cm).flags.number('v')).toBe(4);
    }
  });

  it('accepts the underscore flag --concurrent_rc_syncs and, like Kubernetes, either word separator', () => {
    expect(parseFlags(['--concurrent_rc_syncs', '9'], cm).flags.number('concurrent_rc_syncs')).toBe(9);
    expect(parseFlags(['--concurrent-rc-syncs=8'], cm).flags.number('concurrent_rc_syncs')).toBe(8);
    expect(
      parseFlags(['--log_file_max_size=3', '--leader_elect'], cm).flags.number('log-file-max-size'),
    ).toBe(3);
    expect(() => parseFlags(['--concurrent.rc.syncs=9'], cm)).toThrow('unknown flag: --concurrent.rc.syncs');
  });

  it('repeats string lists and named cert keys', () => {
    const { flags } = parseFlags(
      [
        '--controllers',
        '*,-ttl',
        '--controllers=bootstrapsigner',
        '--tls-sni-cert-key',
        'a.crt,a.key',
        '--tls-sni-cert-key=b.crt,b.key:b.io',
      ],
      cm,
    );
    expect(flags.strings('controllers')).toEqual(['*', '-ttl', 'bootstrapsigner']);
    expect(flags.get('tls-sni-cert-key', 'namedCertKey').map((n) => n.certFile)).toEqual(['a.crt', 'b.crt']);
  });

  it('replaces a list default on first use', () => {
    const { flags } = parseFlags(['--authorization-always-allow-paths=/healthz,/metrics'], cm);
    expect(flags.strings('authorization-always-allow-paths')).toEqual(['/healthz', '/metrics']);
  });

  it('reports bad values naming the flag the pflag way', () => {
    expect(() => parseFlags(['--secure-port', 'abc'], cm)).toThrow(
      'invalid argument "abc" for "--secure-port" flag: strconv.ParseInt: parsing "abc": invalid syntax',
    );
    expect(() => parseFlags(['--leader-elect-lease-duration=soon'], cm)).toThrow(
      'invalid argument "soon" for "--leader-elect-lease-duration" flag: time: invalid duration "soon"',
    );
    expect(() => parseFlags(['--leader-elect=maybe'], cm)).toThrow(
      'invalid argument "maybe" for "--leader-elect" flag',
    );
  });

  it('reports unknown flags, missing values and arguments as FlagError', () => {
    expect(() => parseFlags(['--nope'], cm)).toThrow(new FlagError('unknown flag: --nope'));
    expect(() => parseFlags(['-x'], cm)).toThrow("unknown shorthand flag: 'x' in -x");
    expect(() => parseFlags(['--secure-port'], cm)).toThrow('flag needs an argument: --secure-port');
    expect(() => parseFlags(['run'], cm, 'orch-controller-manager')).toThrow(
      '"orch-controller-manager" does not take any arguments, got ["run"]',
    );
  });

  it('warns once for each deprecated flag used', () => {
    const { warnings, flags } = parseFlags(
      ['--port=0', '--scheduler-name', 'mine', '--port', '0'],
      schedulerFlagSets(),
    );
    expect(warnings).toEqual([
      'Flag --port has been deprecated, see --secure-port instead.',
      'Flag --scheduler-name has been deprecated, use the --config file instead.',
    ]);
    expect(flags.string('scheduler-name')).toBe('mine');
  });

  it('rejects duplicate declarations', () => {
    const sets: FlagSetSpec[] = [
      { name: 'A', flags: [flag({ name: 'x', type: 'bool', help: '' })] },
      { name: 'B', flags: [flag({ name: 'x', type: 'string', help: '' })] },
    ];
    expect(() => parseFlags([], sets)).toThrow('flag --x is declared twice');
    const separators: FlagSetSpec[] = [
      {
        name: 'A',
        flags: [flag({ name: 'a_b', type: 'bool', help: '' }), flag({ name: 'a-b', type: 'bool', help: '' })],
      },
    ];
    expect(() => parseFlags([], separators)).toThrow('flag --a-b is declared twice');
  });

  it('typed getters refuse the wrong type', () => {
    const { flags } = parseFlags([], cm);
    expect(() => flags.bool('secure-port')).toThrow('flag --secure-port is of type int, not bool');
    expect(() => flags.value('nope')).toThrow('flag --nope is not declared');
  });
});

describe('formatHelp', () => {
  const help = formatHelp('orch-scheduler', 'Schedules pods.', schedulerFlagSets());

  it('has Kubernetes-style sections', () => {
    expect(help.startsWith('Schedules pods.\n\nUsage:\n  orch-scheduler [flags]\n')).toBe(true);
    for (const section of [
      'Misc flags:',
      'Secure serving flags:',
      'Authentication flags:',
      'Authorization flags:',
      'Deprecated flags:',
      'Leader election flags:',
      'Feature gate flags:',
      'Logs flags:',
    ]) {
      expect(help).toContain(`\n${section}\n\n`);
    }
  });

  it('shows type, help and non-zero defaults', () => {
    expect(help).toMatch(/ {6}--secure-port int +The port on which to serve HTTPS.* \(default 10259\)\n/);
    expect(help).toMatch(/ {6}--leader-elect-resource-lock string +.*\(default "endpoints"\)\n/);
    expect(help).toMatch(/ {6}--leader-elect-lease-duration duration +.*\(default 15s\)\n/);
    expect(help).toMatch(/ {6}--authorization-always-allow-paths strings +.*\(default \[\/healthz\]\)\n/);
    expect(help).toMatch(/ {2}-v, --v Level +Number for the log level verbosity\.\n/);
    expect(help).toMatch(/ {6}--leader-elect +Start a leader election client.*\(default true\)\n/);
    expect(help).toMatch(/ {6}--port int +DEPRECATED: .*\(default 10251\)\n/);
    expect(help).toMatch(/ {2}-h, --help +help for this command\n/);
  });

  it('indents multi-line help and leaves hidden flags out', () => {
    const text = formatHelp('x', '', [
      {
        name: 'Test',
        flags: [
          flag({ name: 'shown', type: 'string', help: 'first\nsecond' }),
          flag({ name: 'secret', type: 'bool', help: 'hidden', hidden: true }),
        ],
      },
    ]);
    expect(text).toBe(
      'Usage:\n  x [flags]\n\nTest flags:\n\n      --shown string   first\n                       second\n',
    );
  });

  it('lists the feature gates with stage and default', () => {
    expect(help).toMatch(
      /\n {6}--feature-gates mapStringBool +A set of key=value pairs.*\n +APIListChunking=true\|false/,
    );
    expect(help).toContain('APIListChunking=true|false (BETA - default=true)');
    expect(help).toContain('AllAlpha=true|false (ALPHA - default=false)');
  });
});
