import { flag, type FlagSpec } from '../flagSpec';

/** Secure serving flags; `defaultPort` is the daemon's secure port (10259, 10257, 10258). */
export function secureServingFlags(defaultPort: number): FlagSpec[] {
  return [
    flag({
      name: 'bind-address',
      type: 'ip',
      default: '0.0.0.0',
      help: 'The IP address on which to listen for the --secure-port port. When blank, all interfaces (IPv4 and IPv6) are used.',
    }),
    flag({
      name: 'cert-dir',
      type: 'string',
      help: 'The directory where the TLS certificates are located. Ignored when --tls-cert-file and --tls-private-key-file are both given.',
    }),
    flag({
      name: 'http2-max-streams-per-connection',
      type: 'int',
      help: 'The limit on HTTP/2 streams per connection advertised to clients; zero uses the runtime default.',
    }),
    flag({
      name: 'secure-port',
      type: 'int',
      default: defaultPort,
      help: 'The port on which to serve HTTPS with authentication and authorization. If 0, do not serve HTTPS at all.',
    }),
    flag({
      name: 'tls-cert-file',
      type: 'string',
      help: 'File containing the default x509 certificate for HTTPS (CA certificate, if any, concatenated after the server certificate). When HTTPS is enabled and neither this nor --tls-private-key-file is given, a self-signed certificate and key are generated for the public address and saved to --cert-dir.',
    }),
    flag({
      name: 'tls-cipher-suites',
      type: 'stringList',
      help: 'Comma-separated list of cipher suites for the server. If omitted, the default Go cipher suites are used.',
    }),
    flag({
      name: 'tls-min-version',
      type: 'string',
      help: 'Minimum TLS version supported. Possible values: VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13',
    }),
    flag({
      name: 'tls-private-key-file',
      type: 'string',
      help: 'File containing the default x509 private key matching --tls-cert-file.',
    }),
    flag({
      name: 'tls-sni-cert-key',
      type: 'namedCertKey',
      default: [],
      help: 'A pair of x509 certificate and private key file paths, optionally followed by a colon and a list of domain patterns (fully qualified names, possibly with a wildcard prefix). Without patterns the names in the certificate are used. Non-wildcard matches beat wildcard ones; explicit patterns beat extracted names. May be given several times. Examples: "example.crt,example.key" or "foo.crt,foo.key:*.foo.com,foo.com".',
    }),
  ];
}
