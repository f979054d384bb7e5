import { RestClient } from '../rest/RestClient';

/**
 * The client a daemon's leader election talks through: the daemon's config with `/leader-election`
 * appended to its user agent, and its own rate limiter and connections, as Kubernetes' daemons build
 * theirs. Lock renewals then never queue behind the controllers' requests: a burst of work right
 * after taking over cannot make the new leader miss its renew deadline.
 */
export function leaderElectionClient(rest: RestClient): RestClient {
  return new RestClient({ ...rest.config, userAgent: `${rest.userAgent}/leader-election` });
}
