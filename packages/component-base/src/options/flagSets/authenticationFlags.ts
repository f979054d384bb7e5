import { flag, type FlagSpec } from '../flagSpec';

/** Delegated authentication flags; the scheduler tolerates lookup failures by default. */
export function authenticationFlags(tolerateLookupFailure: boolean): FlagSpec[] {
  return [
    flag({
      name: 'authentication-kubeconfig',
      type: 'string',
      help: 'Client config file pointing at the core server with rights to create tokenreviews.authentication.k8s.io. Optional: when empty, all token requests are considered anonymous and no client CA is looked up in the cluster.',
    }),
    flag({
      name: 'authentication-skip-lookup',
      type: 'bool',
      default: false,
      help: 'When false, the authentication-kubeconfig is used to look up missing authentication configuration from the cluster.',
    }),
    flag({
      name: 'authentication-token-webhook-cache-ttl',
      type: 'duration',
      default: 10_000,
      help: 'The duration to cache responses from the webhook token authenticator.',
    }),
    flag({
      name: 'authentication-tolerate-lookup-failure',
      type: 'bool',
      default: tolerateLookupFailure,
      help: 'When true, failures to look up missing authentication configuration from the cluster are not fatal. This can result in all requests being treated as anonymous.',
    }),
    flag({
      name: 'client-ca-file',
      type: 'string',
      help: 'When set, any request presenting a client certificate signed by one of the authorities in this file is authenticated with an identity matching the certificate common name.',
    }),
    flag({
      name: 'requestheader-allowed-names',
      type: 'stringList',
      help: 'Client certificate common names allowed to provide usernames in the headers named by --requestheader-username-headers. When empty, any client certificate validated by --requestheader-client-ca-file is allowed.',
    }),
    flag({
      name: 'requestheader-client-ca-file',
      type: 'string',
      help: 'Root certificate bundle used to verify client certificates on incoming requests before trusting usernames in the headers named by --requestheader-username-headers.',
    }),
    flag({
      name: 'requestheader-extra-headers-prefix',
      type: 'stringList',
      default: ['x-remote-extra-'],
      help: 'List of request header prefixes to inspect for extra user attributes.',
    }),
    flag({
      name: 'requestheader-group-headers',
      type: 'stringList',
      default: ['x-remote-group'],
      help: 'List of request headers to inspect for groups.',
    }),
    flag({
      name: 'requestheader-username-headers',
      type: 'stringList',
      default: ['x-remote-user'],
      help: 'List of request headers to inspect for usernames.',
    }),
  ];
}
