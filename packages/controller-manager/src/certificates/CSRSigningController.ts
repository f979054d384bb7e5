import { CertificateSigningRequestKind, formatTime, type CertificateSigningRequest } from '@orch/api';
import {
  clientFor,
  isNotFound,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import {
  parseCertificateRequest,
  QueueController,
  signCertificateRequest,
  type ControllerContext,
  type PemPair,
} from '@orch/component-base';
import { RESOURCES } from '../controller/resources';
import { signerVerdict } from './signerPolicy';

/** How far back a certificate's validity starts, for clocks a little behind the signer's. */
const BACKDATE_MS = 5 * 60 * 1000;
/** Certificates shorter-lived than this keep their whole validity after now. */
const SHORT_MS = 8 * 60 * 60 * 1000;

const hasCondition = (csr: CertificateSigningRequest, type: string): boolean =>
  (csr.status?.conditions ?? []).some((c) => c.type === type);

/**
 * Kubernetes' csrsigning controller: signs the approved, not denied or failed CertificateSigningRequests
 * of the well-known signers (kube-apiserver-client, kube-apiserver-client-kubelet, kubelet-serving,
 * legacy-unknown) with the cluster's signing CA, writing the certificate to status.certificate; a
 * request its signer refuses gets a Failed condition instead. Validity is the requested
 * expirationSeconds, at least 10 minutes, at most `certTTLMs`, and never past the CA's own.
 */
export class CSRSigningController extends QueueController {
  private readonly lister: Lister<CertificateSigningRequest>;
  private readonly csrs: TypedClient<CertificateSigningRequest>;

  constructor(
    ctx: ControllerContext,
    private readonly ca: PemPair,
    private readonly certTTLMs: number,
  ) {
    super('csrsigning', ctx);
    const informer = ctx.informers.informerFor<CertificateSigningRequest>(
      RESOURCES.certificatesigningrequests,
    );
    this.lister = informer.lister();
    this.csrs = clientFor(ctx.client, CertificateSigningRequestKind);
    informer.addEventHandler({ onAdd: (c) => this.enqueue(c), onUpdate: (_o, c) => this.enqueue(c) });
    this.run([informer] as unknown as SharedIndexInformer<KubeObject>[]);
  }

  /** The requested validity within the controller's bounds (Kubernetes' signer.duration). */
  private validityMs(expirationSeconds: number | undefined): number {
    if (expirationSeconds === undefined) return this.certTTLMs;
    return Math.min(this.certTTLMs, Math.max(2 * BACKDATE_MS, expirationSeconds * 1000));
  }

  protected async sync(name: string): Promise<void> {
    const csr = this.lister.get(name);
    if (!csr || csr.status?.certificate) return;
    if (!hasCondition(csr, 'Approved') || hasCondition(csr, 'Denied') || hasCondition(csr, 'Failed')) return;
    const request = parseCertificateRequest(Buffer.from(csr.spec.request, 'base64'));
    const usages = csr.spec.usages ?? [];
    const verdict = signerVerdict(csr.spec.signerName, request, usages);
    if (!verdict.recognized) return;
    const status = { ...csr.status };
    if (verdict.error) {
      status.conditions = [
        ...(status.conditions ?? []),
        {
          type: 'Failed',
          status: 'True',
          reason: 'SignerValidationFailure',
          message: verdict.error,
          lastUpdateTime: formatTime(this.ctx.now()),
        },
      ];
    } else {
      const now = this.ctx.now();
      const ttl = this.validityMs(csr.spec.expirationSeconds);
      const pem = signCertificateRequest(request, this.ca, {
        usages,
        notBefore: new Date(now - BACKDATE_MS),
        notAfter: new Date(now + (ttl < SHORT_MS ? ttl : ttl - BACKDATE_MS)),
      });
      status.certificate = Buffer.from(pem).toString('base64');
    }
    try {
      await this.csrs.updateStatus({ ...csr, status });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
