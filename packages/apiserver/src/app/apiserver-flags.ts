import {
  debuggingFlags,
  featureGateFlags,
  flag,
  loggingFlags,
  miscFlags,
  secureServingFlags,
  type FlagSetSpec,
} from '@orch/component-base';
import { defaultTimeToLive } from '../server/time-to-live';
import { defaultAdmissionPlugins } from '../admission/plugins';

/** The apiserver's secure port, as Kubernetes'. */
export const defaultSecurePort = 6443;

/** orch-apiserver's flags, with Kubernetes' names, in Kubernetes' help sections. */
export function apiserverFlagSets(): FlagSetSpec[] {
  return [
    {
      name: 'Generic',
      flags: [
        flag({
          name: 'advertise-address',
          type: 'ip',
          help: 'The IP address on which to advertise the apiserver to members of the cluster. If blank, the --bind-address will be used.',
        }),
        flag({
          name: 'max-requests-inflight',
          type: 'int',
          default: 400,
          help: 'The maximum number of non-mutating requests in flight at a given time. When the server exceeds this, it rejects requests. Zero for no limit.',
        }),
        flag({
          name: 'max-mutating-requests-inflight',
          type: 'int',
          default: 200,
          help: 'The maximum number of mutating requests in flight at a given time. When the server exceeds this, it rejects requests. Zero for no limit.',
        }),
        flag({
          name: 'request-timeout',
          type: 'duration',
          default: 60_000,
          help: 'An optional field indicating the duration a handler must keep a request open before timing it out. This is the default request timeout for requests but may be overridden by flags such as --min-request-timeout for specific types of requests.',
        }),
        flag({
          name: 'min-request-timeout',
          type: 'int',
          default: 1800,
          help: 'An optional field indicating the minimum number of seconds a handler must keep a request open before timing it out. Currently only honored by the watch request handler, which picks a randomized value above this number as the connection timeout, to spread out load.',
        }),
      ],
    },
    {
      name: 'Etcd',
      flags: [
        flag({
          name: 'storage-backend',
          type: 'string',
          default: 'etcd3',
          help: "The storage backend for persistence. Options: 'etcd3' (an etcd cluster given by --etcd-servers), 'embedded' (SQLite in --embedded-storage-dir, no etcd needed).",
        }),
        flag({
          name: 'etcd-servers',
          type: 'stringList',
          help: 'List of etcd servers to connect with (scheme://ip:port), comma separated.',
        }),
        flag({
          name: 'etcd-prefix',
          type: 'string',
          default: '/registry',
          help: 'The prefix to prepend to all resource paths in etcd.',
        }),
        flag({
          name: 'etcd-compaction-interval',
          type: 'duration',
          default: 300_000,
          help: 'The interval of compaction requests. If 0, the compaction request from apiserver is disabled. For --storage-backend=etcd3; the embedded store compacts by itself every minute, keeping at least five minutes of history.',
        }),
        flag({
          name: 'etcd-cafile',
          type: 'string',
          help: 'SSL Certificate Authority file used to secure etcd communication.',
        }),
        flag({
          name: 'etcd-certfile',
          type: 'string',
          help: 'SSL certification file used to secure etcd communication.',
        }),
        flag({
          name: 'etcd-keyfile',
          type: 'string',
          help: 'SSL key file used to secure etcd communication.',
        }),
        flag({
          name: 'embedded-storage-dir',
          type: 'string',
          default: '/var/lib/orch',
          help: 'Directory of the embedded store when --storage-backend=embedded.',
        }),
        flag({
          name: 'watch-cache',
          type: 'bool',
          default: true,
          help: 'Enable watch caching in the apiserver.',
        }),
      ],
    },
    { name: 'Secure serving', flags: secureServingFlags(defaultSecurePort) },
    {
      name: 'Kubelet client',
      flags: [
        flag({
          name: 'kubelet-client-certificate',
          type: 'string',
          help: 'Path to a client cert file for TLS to the node agents (container logs).',
        }),
        flag({
          name: 'kubelet-client-key',
          type: 'string',
          help: 'Path to a client key file for TLS to the node agents.',
        }),
        flag({
          name: 'kubelet-certificate-authority',
          type: 'string',
          help: "Path to a cert file for the certificate authority; without it the node agents' serving certificates are not verified.",
        }),
        flag({
          name: 'kubelet-preferred-address-types',
          type: 'stringList',
          default: ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'],
          help: 'List of the preferred NodeAddressTypes to use for kubelet connections.',
        }),
        flag({
          name: 'kubelet-timeout',
          type: 'duration',
          default: 5000,
          help: 'Timeout for kubelet operations.',
        }),
      ],
    },
    {
      name: 'Authentication',
      flags: [
        flag({
          name: 'anonymous-auth',
          type: 'bool',
          default: true,
          help: 'Enables anonymous requests to the secure port of the API server. Requests that are not rejected by another authentication method are treated as anonymous requests. Anonymous requests have a username of system:anonymous, and a group name of system:unauthenticated.',
        }),
        flag({
          name: 'client-ca-file',
          type: 'string',
          help: 'If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate.',
        }),
        flag({
          name: 'token-auth-file',
          type: 'string',
          help: 'If set, the file that will be used to secure the secure port of the API server via token authentication.',
        }),
        flag({
          name: 'service-account-key-file',
          type: 'stringList',
          help: 'File containing PEM-encoded x509 RSA or ECDSA private or public keys, used to verify ServiceAccount tokens. The specified file can contain multiple keys, and the flag can be specified multiple times with different files.',
        }),
        flag({
          name: 'service-account-issuer',
          type: 'string',
          help: 'Identifier of the service account token issuer. The issuer will assert this identifier in "iss" claim of issued tokens.',
        }),
        flag({
          name: 'service-account-signing-key-file',
          type: 'string',
          help: 'Path to the file that contains the current private key of the service account token issuer. The issuer will sign issued ID tokens with this private key.',
        }),
        flag({
          name: 'service-account-lookup',
          type: 'bool',
          default: true,
          help: 'If true, validate ServiceAccount tokens exist in etcd as part of authentication.',
        }),
        flag({
          name: 'requestheader-client-ca-file',
          type: 'string',
          help: 'Root certificate bundle to use to verify client certificates on incoming requests before trusting usernames in headers specified by --requestheader-username-headers.',
        }),
        flag({
          name: 'requestheader-allowed-names',
          type: 'stringList',
          help: 'List of client certificate common names to allow to provide usernames in headers specified by --requestheader-username-headers. If empty, any client certificate validated by the authorities in --requestheader-client-ca-file is allowed.',
        }),
        flag({
          name: 'requestheader-username-headers',
          type: 'stringList',
          help: 'List of request headers to inspect for usernames. X-Remote-User is common.',
        }),
        flag({
          name: 'requestheader-group-headers',
          type: 'stringList',
          help: 'List of request headers to inspect for groups. X-Remote-Group is suggested.',
        }),
        flag({
          name: 'requestheader-extra-headers-prefix',
          type: 'stringList',
          help: 'List of request header prefixes to inspect. X-Remote-Extra- is suggested.',
        }),
      ],
    },
    {
      name: 'Authorization',
      flags: [
        flag({
          name: 'authorization-mode',
          type: 'stringList',
          default: ['AlwaysAllow'],
          help: 'Ordered list of plug-ins to do authorization on secure port. Comma-delimited list of: AlwaysAllow,AlwaysDeny,RBAC.',
        }),
      ],
    },
    {
      name: 'Admission',
      flags: [
        flag({
          name: 'enable-admission-plugins',
          type: 'stringList',
          help: `admission plugins that should be enabled in addition to default enabled ones (${defaultAdmissionPlugins.join(', ')}).`,
        }),
        flag({
          name: 'disable-admission-plugins',
          type: 'stringList',
          help: 'admission plugins that should be disabled although they are in the default enabled plugins list.',
        }),
      ],
    },
    {
      name: 'Misc',
      flags: [
        flag({
          name: 'service-cluster-ip-range',
          type: 'string',
          default: '10.0.0.0/24',
          help: 'A CIDR notation IP range from which to assign service cluster IPs. This must not overlap with any IP ranges assigned to nodes or pods.',
        }),
        flag({
          name: 'service-node-port-range',
          type: 'string',
          default: '30000-32767',
          help: "A port range to reserve for services with NodePort visibility. Example: '30000-32767'. Inclusive at both ends of the range.",
        }),
        flag({
          name: 'event-ttl',
          type: 'duration',
          default: defaultTimeToLive['event-ttl'] * 1000,
          help: 'Amount of time to retain events (after their last update); 0 keeps them until deleted.',
        }),
      ],
    },
    { name: 'Feature gate', flags: featureGateFlags() },
    { name: 'Logs', flags: loggingFlags() },
    { name: 'Debugging', flags: debuggingFlags(false) },
    { name: 'Global', flags: miscFlags() },
  ];
}
