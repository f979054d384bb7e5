import { flag, type FlagSpec } from '../flagSpec';

/** Delegated authorization flags. */
export function authorizationFlags(): FlagSpec[] {
  return [
    flag({
      name: 'authorization-always-allow-paths',
      type: 'stringList',
      default: ['/healthz'],
      help: 'A list of HTTP paths to skip during authorization, i.e. these are authorized without contacting the core server.',
    }),
    flag({
      name: 'authorization-kubeconfig',
      type: 'string',
      help: 'Client config file pointing at the core server with rights to create subjectaccessreviews.authorization.k8s.io. Optional: when empty, every request not skipped by authorization is forbidden.',
    }),
    flag({
      name: 'authorization-webhook-cache-authorized-ttl',
      type: 'duration',
      default: 10_000,
      help: 'The duration to cache "authorized" responses from the webhook authorizer.',
    }),
    flag({
      name: 'authorization-webhook-cache-unauthorized-ttl',
      type: 'duration',
      default: 10_000,
      help: 'The duration to cache "unauthorized" responses from the webhook authorizer.',
    }),
  ];
}
