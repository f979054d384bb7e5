import { CertificateSigningRequestKind, type CertificateSigningRequest } from '@orch/api';
import { clientFor, isNotFound, waitForCacheSync, type Lister, type TypedClient } from '@orch/client';
import { errorMessage, type ControllerContext, type RunningController } from '@orch/component-base';
import { RESOURCES } from '../controller/resources';
import { CSR_CLEANER_INTERVAL_MS, csrCleanupReason } from './csrCleanup';

/**
 * Kubernetes' csrcleaner: once its cache has synced, and then every `intervalMs` (an hour unless a
 * test says), deletes the CertificateSigningRequests csrCleanupReason gives a reason for.
 */
export class CSRCleanerController implements RunningController {
  private readonly lister: Lister<CertificateSigningRequest>;
  private readonly csrs: TypedClient<CertificateSigningRequest>;
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: ControllerContext,
    intervalMs = CSR_CLEANER_INTERVAL_MS,
  ) {
    const informer = ctx.informers.informerFor<CertificateSigningRequest>(
      RESOURCES.certificatesigningrequests,
    );
    this.lister = informer.lister();
    this.csrs = clientFor(ctx.client, CertificateSigningRequestKind);
    void waitForCacheSync([() => informer.hasSynced()], { signal: this.abort.signal }).then((synced) => {
      if (!synced) return;
      const tick = (): void => {
        this.running = this.clean().finally(() => {
          if (this.abort.signal.aborted) return;
          this.timer = setTimeout(tick, Math.max(10, intervalMs));
          this.timer.unref();
        });
      };
      tick();
    });
  }

  /** One pass over every request in the cache. */
  async clean(): Promise<void> {
    for (const csr of this.lister.list()) {
      if (this.abort.signal.aborted) return;
      const name = csr.metadata?.name ?? '';
      const reason = csrCleanupReason(csr, this.ctx.now());
      if (!reason) continue;
      try {
        await this.csrs.delete(name);
        this.ctx.logger.info(`csrcleaner: deleted csr "${name}": ${reason}`);
      } catch (err) {
        if (!isNotFound(err))
          this.ctx.logger.error(`csrcleaner: unable to delete csr "${name}": ${errorMessage(err)}`);
      }
    }
  }

  async stop(): Promise<void> {
    this.abort.abort();
    clearTimeout(this.timer);
    await this.running;
  }
}
