import { constants as cryptoConstants } from 'node:crypto';
import { DEFAULT_CIPHERS, type SecureVersion } from 'node:tls';
import { FlagError } from '../options/flagError';

/** --tls-min-version values and the node TLS versions they select. */
export const TLS_VERSIONS: Readonly<Record<string, SecureVersion>> = {
  VersionTLS10: 'TLSv1',
  VersionTLS11: 'TLSv1.1',
  VersionTLS12: 'TLSv1.2',
  VersionTLS13: 'TLSv1.3',
};

/**
 * The cipher suites doc 3 allows for --tls-cipher-suites, by Go/IANA name, with the OpenSSL name node
 * uses; null marks suites node's OpenSSL cannot offer (RC4 and 3DES).
 */
export const CIPHER_SUITES: Readonly<Record<string, string | null>> = {
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256: 'ECDHE-ECDSA-AES128-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_RC4_128_SHA: null,
  TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA: null,
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256: 'ECDHE-RSA-AES128-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_RC4_128_SHA: null,
  TLS_RSA_WITH_3DES_EDE_CBC_SHA: null,
  TLS_RSA_WITH_AES_128_CBC_SHA: 'AES128-SHA',
  TLS_RSA_WITH_AES_128_CBC_SHA256: 'AES128-SHA256',
  TLS_RSA_WITH_AES_128_GCM_SHA256: 'AES128-GCM-SHA256',
  TLS_RSA_WITH_AES_256_CBC_SHA: 'AES256-SHA',
  TLS_RSA_WITH_AES_256_GCM_SHA384: 'AES256-GCM-SHA384',
  TLS_RSA_WITH_RC4_128_SHA: null,
};

/**
 * TLS 1.3 suites are not configurable (as in Go) and stay enabled when a suite list is given. Go's
 * order: AES-128-GCM first (the fastest with AES instructions), ChaCha20 for clients that ask for it
 * first (see {@link tlsServerTuning}).
 */
const TLS13_SUITES = 'TLS_AES_128_GCM_SHA256:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_256_GCM_SHA384';

/** The runtime's default TLS 1.2 suites, in its order. */
const TLS12_DEFAULT = DEFAULT_CIPHERS.split(':')
  .filter((c) => !c.startsWith('TLS_'))
  .join(':');

/** Problems with a --tls-min-version value (empty means the runtime default). */
export function tlsMinVersionErrors(value: string): string[] {
  if (value === '' || value in TLS_VERSIONS) return [];
  return [
    `--tls-min-version: unknown tls version "${value}"; allowed values: ${Object.keys(TLS_VERSIONS).join(', ')}`,
  ];
}

/** Problems with a --tls-cipher-suites list: unknown names and suites node cannot offer. */
export function cipherSuiteErrors(names: readonly string[]): string[] {
  const errors: string[] = [];
  for (const name of names) {
    if (!(name in CIPHER_SUITES)) {
      errors.push(`--tls-cipher-suites: cipher suite ${name} not supported or doesn't exist`);
    } else if (CIPHER_SUITES[name] === null) {
      errors.push(
        `--tls-cipher-suites: cipher suite ${name} is insecure and cannot be offered by this server (RC4 and 3DES are unavailable)`,
      );
    }
  }
  return errors;
}

/** The node `minVersion` for a --tls-min-version value, undefined for the runtime default. */
export function tlsMinVersion(value: string): SecureVersion | undefined {
  const errors = tlsMinVersionErrors(value);
  if (errors.length) throw new FlagError(errors[0]);
  return value === '' ? undefined : TLS_VERSIONS[value];
}

/**
 * The OpenSSL cipher string for a --tls-cipher-suites list: the TLS 1.3 suites, then the listed ones
 * (the runtime's default TLS 1.2 suites for an empty list).
 */
export function opensslCipherList(names: readonly string[]): string {
  if (names.length === 0) return `${TLS13_SUITES}:${TLS12_DEFAULT}`;
  const errors = cipherSuiteErrors(names);
  if (errors.length) throw new FlagError(errors.join('; '));
  return [TLS13_SUITES, ...names.map((n) => CIPHER_SUITES[n] as string)].join(':');
}

/**
 * Node TLS options for a server's --tls-min-version and --tls-cipher-suites (empty for the defaults):
 * the minimum version, and the suites, which the server picks by its own order, as Go's servers do,
 * except that a client asking for ChaCha20 first (one without AES instructions) gets it.
 */
export function tlsServerTuning(
  minVersion: string,
  cipherSuites: readonly string[],
): { minVersion?: SecureVersion; ciphers: string; honorCipherOrder: true; secureOptions: number } {
  const version = tlsMinVersion(minVersion);
  return {
    ...(version ? { minVersion: version } : {}),
    ciphers: opensslCipherList(cipherSuites),
    honorCipherOrder: true,
    secureOptions: cryptoConstants.SSL_OP_PRIORITIZE_CHACHA,
  };
}
