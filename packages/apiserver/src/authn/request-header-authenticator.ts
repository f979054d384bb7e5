import type { IncomingMessage } from 'node:http';
import { requestHeaderAuthenticator, type RequestHeaderConfig } from '@orch/component-base';
import { AuthenticationError } from './authentication-error';
import type { Authenticator, UserInfo } from './authenticator';

/**
 * `--requestheader-client-ca-file` and the other `--requestheader-*` flags: a front proxy's client
 * certificate, verified by the request-header CA (and carrying an allowed common name when names are
 * given), vouches for the user its headers name (Kubernetes' request-header authenticator, first in
 * kube-apiserver's chain). Requests without such a certificate or without a username header are left
 * to the other authenticators.
 */
export class RequestHeaderAuthenticator implements Authenticator {
  private readonly inner: ReturnType<typeof requestHeaderAuthenticator>;

  constructor(config: RequestHeaderConfig) {
    this.inner = requestHeaderAuthenticator(() => config);
  }

  async authenticate(req: IncomingMessage): Promise<UserInfo | undefined> {
    const user = await this.inner(req);
    if (user === undefined) return undefined;
    if (user instanceof Error) throw new AuthenticationError(user.message);
    return { username: user.name, groups: user.groups, ...(user.extra ? { extra: user.extra } : {}) };
  }
}
