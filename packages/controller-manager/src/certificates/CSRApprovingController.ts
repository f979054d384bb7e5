import {
  CertificateSigningRequestKind,
  SubjectAccessReviewKind,
  type CertificateSigningRequest,
  type SubjectAccessReview,
} from '@orch/api';
import {
  clientFor,
  isNotFound,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import {
  errorMessage,
  parseCertificateRequest,
  QueueController,
  type ControllerContext,
  type ParsedCertificateRequest,
} from '@orch/component-base';
import { RESOURCES } from '../controller/resources';
import { NODE_CLIENT_RECOGNIZERS, type NodeClientRecognizer } from './nodeClientRecognizers';

/** The reason of the Approved condition the controller adds. */
export const AUTO_APPROVED_REASON = 'AutoApproved';

const hasCondition = (csr: CertificateSigningRequest, type: string): boolean =>
  (csr.status?.conditions ?? []).some((c) => c.type === type);

/**
 * Kubernetes' csrapproving controller: approves node client certificate requests (see
 * NODE_CLIENT_RECOGNIZERS) whose requester a SubjectAccessReview allows to create
 * certificatesigningrequests/selfnodeclient (their own node's certificate) or
 * certificatesigningrequests/nodeclient (any node's), with an Approved condition of reason
 * AutoApproved written through the approval subresource. It never denies: a recognized request the
 * reviews do not allow stays pending and is looked at again with growing backoff.
 */
export class CSRApprovingController extends QueueController {
  private readonly lister: Lister<CertificateSigningRequest>;
  private readonly csrs: TypedClient<CertificateSigningRequest>;
  private readonly reviews: TypedClient<SubjectAccessReview>;

  constructor(ctx: ControllerContext) {
    super('csrapproving', ctx);
    const informer = ctx.informers.informerFor<CertificateSigningRequest>(
      RESOURCES.certificatesigningrequests,
    );
    this.lister = informer.lister();
    this.csrs = clientFor(ctx.client, CertificateSigningRequestKind);
    this.reviews = clientFor(ctx.client, SubjectAccessReviewKind);
    informer.addEventHandler({ onAdd: (c) => this.enqueue(c), onUpdate: (_o, c) => this.enqueue(c) });
    this.run([informer] as unknown as SharedIndexInformer<KubeObject>[]);
  }

  protected async sync(name: string): Promise<void | boolean> {
    const csr = this.lister.get(name);
    if (!csr || csr.status?.certificate) return;
    if (hasCondition(csr, 'Approved') || hasCondition(csr, 'Denied')) return;
    let request: ParsedCertificateRequest;
    try {
      request = parseCertificateRequest(Buffer.from(csr.spec.request, 'base64'));
    } catch (err) {
      throw new Error(`unable to parse csr "${name}": ${errorMessage(err)}`, { cause: err });
    }
    const tried: string[] = [];
    for (const recognizer of NODE_CLIENT_RECOGNIZERS) {
      if (!recognizer.recognize(csr, request)) continue;
      tried.push(recognizer.subresource);
      if (!(await this.allowed(csr, recognizer))) continue;
      await this.approve(csr, recognizer.message);
      return;
    }
    if (!tried.length) return;
    // Recognized but not allowed: the requester may be granted the right later.
    this.ctx.logger.info(
      `csrapproving: recognized csr "${name}" as [${tried.join(' ')}] but subject access review was not approved`,
    );
    this.queue.addRateLimited(name);
    return false;
  }

  /** Whether the requester may create certificatesigningrequests/<subresource>. */
  private async allowed(csr: CertificateSigningRequest, recognizer: NodeClientRecognizer): Promise<boolean> {
    const { username, uid, groups, extra } = csr.spec;
    const review = await this.reviews.create({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      metadata: {},
      spec: {
        ...(username ? { user: username } : {}),
        ...(uid ? { uid } : {}),
        ...(groups ? { groups } : {}),
        ...(extra ? { extra } : {}),
        resourceAttributes: {
          group: 'certificates.k8s.io',
          version: '*',
          resource: 'certificatesigningrequests',
          subresource: recognizer.subresource,
          verb: 'create',
        },
      },
    } as SubjectAccessReview);
    return review.status?.allowed === true;
  }

  private async approve(csr: CertificateSigningRequest, message: string): Promise<void> {
    const approved: CertificateSigningRequest = {
      ...csr,
      status: {
        ...csr.status,
        conditions: [
          ...(csr.status?.conditions ?? []),
          { type: 'Approved', status: 'True', reason: AUTO_APPROVED_REASON, message },
        ],
      },
    };
    try {
      await this.csrs.updateSubresource(csr.metadata?.name ?? '', 'approval', approved);
    } catch (err) {
      if (isNotFound(err)) return;
      throw new Error(`error updating approval for csr: ${errorMessage(err)}`, { cause: err });
    }
  }
}
