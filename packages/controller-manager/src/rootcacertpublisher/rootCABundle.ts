import { loadCABundleFile, type ControllerContext } from '@orch/component-base';

/** The flag naming the CA bundle to publish. */
export const ROOT_CA_FILE_FLAG = 'root-ca-file';

/**
 * The PEM CA bundle the publisher puts in every namespace: the one in --root-ca-file when it is
 * given, otherwise the CA the controller manager's own client trusts the apiserver with (empty
 * when it has none). A file that cannot be read or holds no certificate is an error naming the flag.
 */
export function rootCABundle(ctx: Pick<ControllerContext, 'client' | 'flags'>): string {
  const file = ctx.flags?.string(ROOT_CA_FILE_FLAG);
  if (file) {
    try {
      return loadCABundleFile(file);
    } catch (err) {
      throw new Error(`--${ROOT_CA_FILE_FLAG}: ${(err as Error).message}`, { cause: err });
    }
  }
  return ctx.client.config.ca?.toString('utf8') ?? '';
}
