import type { DaemonSpec } from '../app/runDaemon';
import { DeferredDelegatedAuth } from './delegatedAuthFromFlags';

/**
 * The daemon with its secure port authenticating and authorizing through the apiserver, as
 * Kubernetes' delegating daemons do (--authentication-kubeconfig, --authorization-kubeconfig,
 * --client-ca-file, --requestheader-*, the lookup of extension-apiserver-authentication; see
 * delegatedAuthFromFlags): the hooks are built from the flags first thing in `run`, and closed when
 * the daemon stops or fails to start.
 */
export function withDelegatedAuth<C>(spec: DaemonSpec<C>): DaemonSpec<C> {
  const auth = new DeferredDelegatedAuth();
  return {
    ...spec,
    authenticate: auth.authenticate,
    authorize: auth.authorize,
    run: async (ctx) => {
      await auth.init(ctx.flags, ctx.logger);
      try {
        const handle = await spec.run(ctx);
        return {
          async stop() {
            try {
              await handle?.stop?.();
            } finally {
              auth.close();
            }
          },
        };
      } catch (err) {
        auth.close();
        throw err;
      }
    },
  };
}
