import type { KindDeclaration } from '@orch/api';

/**
 * The time to live of each setting kinds declare (KindDeclaration.timeToLive), in seconds, when
 * neither the config nor a flag gives it: Kubernetes' --event-ttl default, one hour.
 */
export const defaultTimeToLive: Readonly<Record<NonNullable<KindDeclaration['timeToLive']>, number>> = {
  'event-ttl': 3600,
};
