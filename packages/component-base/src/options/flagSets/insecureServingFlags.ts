import { flag, type FlagSpec } from '../flagSpec';

/** The scheduler's deprecated plain-HTTP serving flags. */
export function insecureServingFlags(): FlagSpec[] {
  return [
    flag({
      name: 'address',
      type: 'string',
      default: '0.0.0.0',
      help: 'The IP address on which to serve the insecure --port (set to 0.0.0.0 for all IPv4 interfaces and :: for all IPv6 interfaces).',
      deprecated: 'see --bind-address instead.',
    }),
    flag({
      name: 'port',
      type: 'int',
      default: 10251,
      help: 'The port on which to serve HTTP insecurely without authentication and authorization. If 0, do not serve plain HTTP at all.',
      deprecated: 'see --secure-port instead.',
    }),
  ];
}
