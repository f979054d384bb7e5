import type { NamedCertKey } from '../options/flagTypes';
import type { ParsedFlags } from '../options/parsedFlags';

/** What the secure serving flags configure. */
export interface SecureServingOptions {
  bindAddress: string;
  /** 0 disables serving. */
  port: number;
  certDir: string;
  /** Base name of the generated pair in certDir (`<pairName>.crt`/`.key`). */
  pairName: string;
  certFile: string;
  keyFile: string;
  sniCertKeys: NamedCertKey[];
  /** A --tls-min-version value (VersionTLS12…), empty for the default. */
  minVersion: string;
  /** Go/IANA cipher suite names, empty for the default. */
  cipherSuites: string[];
  http2MaxStreamsPerConnection: number;
  /** Client certificates signed by this bundle authenticate as their common name. */
  clientCAFile: string;
  /**
   * Ask clients for certificates even without a client CA file: delegated authentication verifies
   * them against the CA it looks up in the cluster.
   */
  requestClientCertificates?: boolean;
}

/** Reads the secure serving flags (and --client-ca-file). */
export function secureServingOptionsFromFlags(flags: ParsedFlags, pairName: string): SecureServingOptions {
  return {
    bindAddress: flags.string('bind-address'),
    port: flags.number('secure-port'),
    certDir: flags.string('cert-dir'),
    pairName,
    certFile: flags.string('tls-cert-file'),
    keyFile: flags.string('tls-private-key-file'),
    sniCertKeys: flags.get('tls-sni-cert-key', 'namedCertKey'),
    minVersion: flags.string('tls-min-version'),
    cipherSuites: flags.strings('tls-cipher-suites'),
    http2MaxStreamsPerConnection: flags.number('http2-max-streams-per-connection'),
    clientCAFile: flags.has('client-ca-file') ? flags.string('client-ca-file') : '',
    requestClientCertificates:
      flags.has('authentication-kubeconfig') && flags.string('authentication-kubeconfig') !== '',
  };
}
