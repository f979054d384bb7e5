import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlagError, createCA, parseFlags } from '@orch/component-base';
import { apiserverOptions } from './apiserver-config';
import { apiserverFlagSets } from './apiserver-flags';

const options = (...argv: string[]) => apiserverOptions(parseFlags(argv, apiserverFlagSets()).flags);
const etcd = '--etcd-servers=https://127.0.0.1:2379';

describe('apiserverOptions: etcd flags', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'orch-apiserver-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const file = (name: string) => {
    const path = join(dir, name);
    writeFileSync(path, 'PEM');
    return path;
  };

  it('--etcd-prefix defaults to /registry; the TLS files to none', () => {
    const { storage } = options(etcd);
    expect(storage.etcdPrefix).toBe('/registry');
    expect(storage.etcdCAFile).toBe('');
    expect(storage.etcdCertFile).toBe('');
    expect(storage.etcdKeyFile).toBe('');
  });

  it('takes the prefix and the TLS files for the storage', () => {
    const [ca, cert, key] = [file('ca.crt'), file('client.crt'), file('client.key')];
    const { storage } = options(
      etcd,
      '--etcd-prefix=/cluster-b',
      `--etcd-cafile=${ca}`,
      `--etcd-certfile=${cert}`,
      `--etcd-keyfile=${key}`,
    );
    expect(storage).toMatchObject({
      etcdPrefix: '/cluster-b',
      etcdCAFile: ca,
      etcdCertFile: cert,
      etcdKeyFile: key,
    });
  });

  it('refuses a certificate without its key, and the reverse, naming both flags', () => {
    const message = '--etcd-certfile and --etcd-keyfile must be given together';
    expect(() => options(etcd, `--etcd-certfile=${file('c')}`)).toThrow(new FlagError(message));
    expect(() => options(etcd, `--etcd-keyfile=${file('k')}`)).toThrow(new FlagError(message));
  });

  it('refuses a TLS file it cannot read, naming the flag', () => {
    expect(() => options(etcd, `--etcd-cafile=${join(dir, 'missing.crt')}`)).toThrow(
      /cannot read file ".*missing\.crt" given by --etcd-cafile/,
    );
  });

  it('refuses a prefix that is not a path', () => {
    expect(() => options(etcd, '--etcd-prefix=registry')).toThrow(
      'invalid value "registry" for flag --etcd-prefix: must start with "/"',
    );
  });
});

describe('apiserverOptions: watches', () => {
  it('--watch-cache and --min-request-timeout default to true and 1800 seconds, as in Kubernetes', () => {
    expect(options(etcd)).toMatchObject({ watchCache: true, minRequestTimeoutSeconds: 1800 });
    expect(options(etcd, '--watch-cache=false', '--min-request-timeout=60')).toMatchObject({
      watchCache: false,
      minRequestTimeoutSeconds: 60,
    });
  });

  it('refuses a --min-request-timeout that is not positive, naming the flag', () => {
    expect(() => options(etcd, '--min-request-timeout=0')).toThrow(
      'invalid value "0" for flag --min-request-timeout: must be a positive number of seconds',
    );
  });
});

describe('apiserverOptions: --event-ttl', () => {
  it('defaults to one hour, as in Kubernetes, and takes a duration', () => {
    expect(options(etcd)).toMatchObject({ eventTTLSeconds: 3600 });
    expect(options(etcd, '--event-ttl=90s')).toMatchObject({ eventTTLSeconds: 90 });
    expect(options(etcd, '--event-ttl=0s')).toMatchObject({ eventTTLSeconds: 0 });
  });

  it('refuses a negative time, naming the flag', () => {
    expect(() => options(etcd, '--event-ttl=-1m')).toThrow('--event-ttl');
  });
});

describe('apiserverOptions: TLS serving', () => {
  it('takes --tls-min-version and --tls-cipher-suites; both default to none', () => {
    expect(options(etcd)).toMatchObject({ tlsMinVersion: '', tlsCipherSuites: [] });
    expect(
      options(
        etcd,
        '--tls-min-version=VersionTLS13',
        '--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
      ),
    ).toMatchObject({
      tlsMinVersion: 'VersionTLS13',
      tlsCipherSuites: ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384'],
    });
  });

  it('refuses unknown versions and suites, naming the flag', () => {
    expect(() => options(etcd, '--tls-min-version=SSLv3')).toThrow(FlagError);
    expect(() => options(etcd, '--tls-min-version=SSLv3')).toThrow('--tls-min-version');
    expect(() => options(etcd, '--tls-cipher-suites=TLS_NOPE')).toThrow('--tls-cipher-suites');
    expect(() => options(etcd, '--tls-cipher-suites=TLS_RSA_WITH_RC4_128_SHA')).toThrow(
      '--tls-cipher-suites',
    );
  });

  it('takes --tls-sni-cert-key pairs and refuses one it cannot read, naming the flag', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-apiserver-sni-'));
    try {
      const [cert, key] = [join(dir, 'a.crt'), join(dir, 'a.key')];
      writeFileSync(cert, 'PEM');
      writeFileSync(key, 'PEM');
      expect(options(etcd, `--tls-sni-cert-key=${cert},${key}:api.example.com`).tlsSNICertKeys).toEqual([
        { certFile: cert, keyFile: key, names: ['api.example.com'] },
      ]);
      expect(() => options(etcd, `--tls-sni-cert-key=${cert},${join(dir, 'missing.key')}`)).toThrow(
        /--tls-sni-cert-key/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('apiserverOptions: --requestheader-*', () => {
  it('takes the front-proxy CA file and the header lists; none when not given', () => {
    expect(options(etcd).requestHeader).toEqual({
      clientCAFile: '',
      allowedNames: [],
      usernameHeaders: [],
      groupHeaders: [],
      extraHeaderPrefixes: [],
    });
    const dir = mkdtempSync(join(tmpdir(), 'orch-apiserver-requestheader-'));
    try {
      const ca = join(dir, 'front-proxy-ca.crt');
      writeFileSync(ca, createCA('front-proxy-ca').cert);
      expect(
        options(
          etcd,
          `--requestheader-client-ca-file=${ca}`,
          '--requestheader-allowed-names=front-proxy-client,aggregator',
          '--requestheader-username-headers=X-Remote-User',
          '--requestheader-group-headers=X-Remote-Group',
          '--requestheader-extra-headers-prefix=X-Remote-Extra-',
        ).requestHeader,
      ).toEqual({
        clientCAFile: ca,
        allowedNames: ['front-proxy-client', 'aggregator'],
        usernameHeaders: ['X-Remote-User'],
        groupHeaders: ['X-Remote-Group'],
        extraHeaderPrefixes: ['X-Remote-Extra-'],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a CA file it cannot read or that holds no certificate, naming the flag', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-apiserver-requestheader-'));
    try {
      const junk = join(dir, 'junk.crt');
      writeFileSync(junk, 'not a certificate');
      expect(() => options(etcd, `--requestheader-client-ca-file=${junk}`)).toThrow(
        /--requestheader-client-ca-file/,
      );
      expect(() => options(etcd, `--requestheader-client-ca-file=${join(dir, 'missing.crt')}`)).toThrow(
        /--requestheader-client-ca-file/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
