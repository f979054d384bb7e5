import { statusErrors } from '../errors/status-error';
import type { VirtualHandler } from '../registry/custom-handlers';
import { nowTime } from '../registry/object';

/**
 * POST selfsubjectreviews: the attributes the server authenticated the request with (`kubectl auth
 * whoami`), as Kubernetes answers: a new object stamped with the time, whatever the body held.
 */
export function selfSubjectReviewHandler(now: () => Date = () => new Date()): VirtualHandler {
  return async (decl, request) => {
    const user = request.user;
    if (!user) throw statusErrors.badRequest('no user present on request');
    return {
      code: 201,
      object: {
        apiVersion: request.scope.apiVersion,
        kind: decl.kind,
        metadata: { creationTimestamp: nowTime(now()) },
        status: {
          userInfo: {
            username: user.username,
            ...(user.uid ? { uid: user.uid } : {}),
            groups: user.groups,
            ...(user.extra && Object.keys(user.extra).length ? { extra: user.extra } : {}),
          },
        },
      },
    };
  };
}
