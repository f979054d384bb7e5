import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCA } from '../certs/pki';
import {
  cloudControllerManagerFlagSets,
  controllerManagerFlagSets,
  schedulerFlagSets,
} from './daemonFlagSets';
import type { DaemonKind } from './daemonKind';
import { parseFlags } from './parseFlags';
import { daemonValidators, validateFlags } from './validateFlags';

const SETS = {
  scheduler: schedulerFlagSets,
  'controller-manager': controllerManagerFlagSets,
  'cloud-controller-manager': cloudControllerManagerFlagSets,
};

function problems(daemon: DaemonKind, argv: string[]): string[] {
  return validateFlags(parseFlags(argv, SETS[daemon]()).flags, daemonValidators(daemon));
}

describe('validateFlags', () => {
  it.each(['scheduler', 'controller-manager', 'cloud-controller-manager'] as DaemonKind[])(
    '%s defaults are valid',
    (daemon) => {
      expect(problems(daemon, [])).toEqual([]);
    },
  );

  it('checks ports are in 0-65535', () => {
    expect(problems('scheduler', ['--secure-port=70000', '--port=-1'])).toEqual([
      '--secure-port 70000 must be between 0 and 65535, inclusive. 0 for turning off secure port',
      '--port -1 must be between 0 and 65535, inclusive. 0 for turning off insecure port',
    ]);
    expect(problems('scheduler', ['--secure-port=0', '--port=0'])).toEqual([]);
  });

  it('checks the leader election timings and lock type', () => {
    expect(
      problems('controller-manager', [
        '--leader-elect-lease-duration=10s',
        '--leader-elect-renew-deadline=15s',
        '--leader-elect-retry-period=0s',
        '--leader-elect-resource-lock=files',
      ]),
    ).toEqual([
      '--leader-elect-retry-period must be greater than zero',
      '--leader-elect-renew-deadline (15s) must be less than or equal to --leader-elect-lease-duration (10s)',
      '--leader-elect-resource-lock: unknown lock type "files"; use one of leases, endpoints, configmaps, endpointsleases, configmapsleases',
    ]);
    expect(
      problems('controller-manager', ['--leader-elect=false', '--leader-elect-retry-period=0s']),
    ).toEqual([]);
    for (const lock of ['leases', 'endpoints', 'configmaps', 'endpointsleases', 'configmapsleases'])
      expect(problems('controller-manager', [`--leader-elect-resource-lock=${lock}`])).toEqual([]);
  });

  it('checks TLS version and cipher suites against doc 3', () => {
    expect(problems('scheduler', ['--tls-min-version=VersionTLS13'])).toEqual([]);
    expect(problems('scheduler', ['--tls-min-version=TLS1.2'])).toEqual([
      '--tls-min-version: unknown tls version "TLS1.2"; allowed values: VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13',
    ]);
    expect(problems('scheduler', ['--tls-cipher-suites=TLS_RSA_WITH_AES_128_GCM_SHA256,TLS_FAKE'])).toEqual([
      "--tls-cipher-suites: cipher suite TLS_FAKE not supported or doesn't exist",
    ]);
    expect(problems('scheduler', ['--tls-cipher-suites=TLS_RSA_WITH_RC4_128_SHA'])[0]).toMatch(
      /^--tls-cipher-suites: cipher suite TLS_RSA_WITH_RC4_128_SHA is insecure/,
    );
  });

  it('requires the certificate and key files together', () => {
    expect(problems('scheduler', ['--tls-cert-file=a.crt'])).toEqual([
      '--tls-cert-file and --tls-private-key-file must be given together',
    ]);
  });

  it('checks feature gates', () => {
    expect(problems('scheduler', ['--feature-gates=Bogus=true,PodOverhead=true'])).toEqual([
      '--feature-gates: unrecognized feature gate: Bogus',
    ]);
  });

  it('checks cluster CIDRs and the node CIDR mask size', () => {
    expect(
      problems('controller-manager', [
        '--cluster-cidr=10.0.0.0/16',
        '--service-cluster-ip-range=10.96.0.0/12',
      ]),
    ).toEqual([]);
    expect(
      problems('controller-manager', ['--cluster-cidr=10.0.0.0/40', '--service-cluster-ip-range=nope']),
    ).toEqual([
      '--cluster-cidr: invalid CIDR address: 10.0.0.0/40',
      '--service-cluster-ip-range: invalid CIDR address: nope',
    ]);
    expect(problems('controller-manager', ['--node-cidr-mask-size=33'])).toEqual([
      '--node-cidr-mask-size 33 must be between 1 and 32',
    ]);
    expect(problems('controller-manager', ['--cluster-cidr=10.0.0.0/25'])).toEqual([
      '--node-cidr-mask-size 24 must not be smaller than the --cluster-cidr 10.0.0.0/25 prefix length',
    ]);
    expect(problems('controller-manager', ['--cluster-cidr=fd00::/48', '--node-cidr-mask-size=64'])).toEqual(
      [],
    );
    expect(problems('cloud-controller-manager', ['--cluster-cidr=bad'])).toEqual([
      '--cluster-cidr: invalid CIDR address: bad',
    ]);
  });

  it('checks controller names per daemon', () => {
    expect(problems('controller-manager', ['--controllers=*,-ttl,bootstrapsigner'])).toEqual([]);
    expect(problems('controller-manager', ['--controllers=*,cloud-node'])).toEqual([
      '--controllers: "cloud-node" is not in the list of known controllers',
    ]);
    expect(problems('cloud-controller-manager', ['--controllers=cloud-node,-route'])).toEqual([]);
  });

  it('checks controller manager ranges', () => {
    expect(
      problems('controller-manager', [
        '--attach-detach-reconcile-sync-period=1s',
        '--horizontal-pod-autoscaler-tolerance=-0.1',
        '--node-eviction-rate=-1',
        '--unhealthy-zone-threshold=1.5',
        '--large-cluster-size-threshold=-1',
        '--node-monitor-period=0s',
        '--pod-eviction-timeout=0s',
      ]),
    ).toEqual([
      '--attach-detach-reconcile-sync-period must be longer than one second',
      '--horizontal-pod-autoscaler-tolerance must not be negative',
      '--node-eviction-rate must not be negative',
      '--unhealthy-zone-threshold must be in the range (0, 1]',
      '--large-cluster-size-threshold must not be negative',
      '--node-monitor-period must be greater than zero',
      '--pod-eviction-timeout must be greater than zero',
    ]);
  });

  it('checks the EndpointSlice controller bounds', () => {
    expect(
      problems('controller-manager', [
        '--concurrent-service-endpoint-syncs=0',
        '--max-endpoints-per-slice=1001',
      ]),
    ).toEqual([
      '--concurrent-service-endpoint-syncs must not be less than 1, but got 0',
      '--max-endpoints-per-slice must not be more than 1000, but got 1001',
    ]);
    expect(
      problems('controller-manager', [
        '--concurrent-service-endpoint-syncs=51',
        '--max-endpoints-per-slice=0',
      ]),
    ).toEqual([
      '--concurrent-service-endpoint-syncs must not be more than 50, but got 51',
      '--max-endpoints-per-slice must not be less than 1, but got 0',
    ]);
    expect(
      problems('controller-manager', [
        '--concurrent-service-endpoint-syncs=50',
        '--max-endpoints-per-slice=1',
      ]),
    ).toEqual([]);
  });

  it('checks --root-ca-file holds a PEM CA bundle while a controller reading it is enabled', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-root-ca-'));
    try {
      const good = join(dir, 'ca.crt');
      const bad = join(dir, 'not-pem');
      writeFileSync(good, createCA('test-ca').cert);
      writeFileSync(bad, 'not a certificate\n');
      const missing = join(dir, 'missing');
      expect(problems('controller-manager', [`--root-ca-file=${good}`])).toEqual([]);
      expect(problems('controller-manager', [`--root-ca-file=${bad}`])).toEqual([
        `--root-ca-file: error parsing CA bundle file "${bad}": data does not contain any valid RSA or ECDSA certificates`,
      ]);
      const [problem, ...rest] = problems('controller-manager', [`--root-ca-file=${missing}`]);
      expect(rest).toEqual([]);
      expect(problem).toMatch(`--root-ca-file: error reading CA bundle file "${missing}": ENOENT`);
      // nothing reads it with both readers disabled
      expect(
        problems('controller-manager', [
          `--root-ca-file=${missing}`,
          '--controllers=*,-root-ca-cert-publisher,-serviceaccount-token',
        ]),
      ).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('checks --service-account-private-key-file holds a signing key while serviceaccount-token is enabled', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-sa-key-'));
    try {
      const good = join(dir, 'sa.key');
      const bad = join(dir, 'sa.pub');
      const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
      writeFileSync(good, pair.privateKey.export({ type: 'pkcs1', format: 'pem' }));
      writeFileSync(bad, pair.publicKey.export({ type: 'spki', format: 'pem' }));
      expect(problems('controller-manager', [`--service-account-private-key-file=${good}`])).toEqual([]);
      expect(problems('controller-manager', [`--service-account-private-key-file=${bad}`])).toEqual([
        '--service-account-private-key-file: error reading key for service account token controller: data does not contain a valid RSA or ECDSA private key',
      ]);
      expect(
        problems('controller-manager', [
          `--service-account-private-key-file=${bad}`,
          '--controllers=*,-serviceaccount-token',
        ]),
      ).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('checks the node IPAM configuration with --allocate-node-cidrs', () => {
    expect(problems('controller-manager', ['--allocate-node-cidrs', '--cluster-cidr=10.0.0.0/16'])).toEqual(
      [],
    );
    expect(problems('controller-manager', ['--allocate-node-cidrs'])).toEqual([
      'Controller: Must specify --cluster-cidr if --allocate-node-cidrs is set',
    ]);
    expect(
      problems('controller-manager', [
        '--allocate-node-cidrs',
        '--cluster-cidr=10.0.0.0/16',
        '--cidr-allocator-type=X',
      ]),
    ).toEqual(['--cidr-allocator-type: invalid CIDR allocator type: X (only RangeAllocator is supported)']);
    // nothing to allocate without it, or with nodeipam disabled
    expect(problems('controller-manager', ['--cidr-allocator-type=X'])).toEqual([]);
    expect(problems('controller-manager', ['--allocate-node-cidrs', '--controllers=*,-nodeipam'])).toEqual(
      [],
    );
    // an IPv6 cluster CIDR gets /64 node CIDRs by default
    expect(problems('controller-manager', ['--allocate-node-cidrs', '--cluster-cidr=fd00::/48'])).toEqual([]);
  });

  it('checks scheduler-only values', () => {
    expect(
      problems('scheduler', ['--hard-pod-affinity-symmetric-weight=101', '--algorithm-provider=Fancy']),
    ).toEqual([
      '--hard-pod-affinity-symmetric-weight 101 must be in the range 0-100',
      '--algorithm-provider: unknown provider "Fancy"; use ClusterAutoscalerProvider or DefaultProvider',
    ]);
  });

  it('checks the logging format', () => {
    expect(problems('scheduler', ['--logging-format=xml'])).toEqual([
      '--logging-format: unsupported log format "xml"; use text or json',
    ]);
  });
});
