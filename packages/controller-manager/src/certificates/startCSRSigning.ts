import { existsSync } from 'node:fs';
import { loadSigningCA, type ControllerContext, type RunningController } from '@orch/component-base';
import { CSRSigningController } from './CSRSigningController';

const certFlag = 'cluster-signing-cert-file';
const keyFlag = 'cluster-signing-key-file';
const durationFlag = 'experimental-cluster-signing-duration';

/**
 * Starts the CSR signer with the CA of --cluster-signing-cert-file and --cluster-signing-key-file.
 * Without either flag, and with the default files missing, there is no CA to sign with: the signer
 * is skipped, as Kubernetes does; a CA given on the command line was checked with the flags.
 */
export function startCSRSigning(ctx: ControllerContext): RunningController | undefined {
  const flags = ctx.flags;
  const certFile = flags?.string(certFlag);
  const keyFile = flags?.string(keyFlag);
  const given = Boolean(flags?.given(certFlag) || flags?.given(keyFlag));
  if (!certFile || !keyFile || (!given && !(existsSync(certFile) && existsSync(keyFile)))) {
    ctx.logger.info(
      `"csrsigning": skipping the CSR signer: no --${certFlag} and --${keyFlag} were given and the default files are missing`,
    );
    return undefined;
  }
  return new CSRSigningController(
    ctx,
    loadSigningCA(certFile, keyFile),
    flags?.duration(durationFlag) ?? 365 * 24 * 60 * 60 * 1000,
  );
}
