import { readFileSync } from 'node:fs';
import { parsePrivateKeyPEM, type ControllerContext } from '@orch/component-base';
import { rootCABundle } from '../rootcacertpublisher/rootCABundle';
import { TokensController } from './TokensController';

/** The flag naming the key the tokens controller signs with. */
export const SERVICE_ACCOUNT_PRIVATE_KEY_FILE_FLAG = 'service-account-private-key-file';

/**
 * Starts the tokens controller. Without --service-account-private-key-file it has nothing to sign
 * with and does not start (it says so); a file holding no RSA or ECDSA private key is an error naming
 * the flag. The CA bundle it gives the token secrets is --root-ca-file's, else the one the manager's
 * client trusts the apiserver with.
 */
export function startServiceAccountTokens(ctx: ControllerContext): TokensController | undefined {
  const file = ctx.flags?.string(SERVICE_ACCOUNT_PRIVATE_KEY_FILE_FLAG);
  if (!file) {
    ctx.logger.info(
      `"serviceaccount-token" is disabled because there is no private key (--${SERVICE_ACCOUNT_PRIVATE_KEY_FILE_FLAG})`,
    );
    return undefined;
  }
  let signingKey;
  try {
    signingKey = parsePrivateKeyPEM(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(
      `--${SERVICE_ACCOUNT_PRIVATE_KEY_FILE_FLAG}: error reading key for service account token controller: ${(err as Error).message}`,
      { cause: err },
    );
  }
  return new TokensController(ctx, { signingKey, rootCA: rootCABundle(ctx) });
}
