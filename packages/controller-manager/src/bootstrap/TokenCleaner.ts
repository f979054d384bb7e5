import { bootstrapTokenExpiration, isBootstrapTokenSecret, SecretKind, type Secret } from '@orch/api';
import {
  clientFor,
  isConflict,
  isNotFound,
  splitMetaNamespaceKey,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { QueueController, type ControllerContext } from '@orch/component-base';
import { RESOURCES } from '../controller/resources';

/**
 * Kubernetes' token cleaner: deletes the bootstrap token Secrets of orch-system once their
 * expiration has passed (or does not parse). A token not expired yet is looked at again when it
 * expires; the delete is conditioned on the UID seen, so that a Secret made again under the name
 * is left alone.
 */
export class TokenCleaner extends QueueController {
  private readonly secretLister: Lister<Secret>;
  private readonly secrets: TypedClient<Secret>;

  constructor(ctx: ControllerContext) {
    super('tokencleaner', ctx);
    const secretInformer = ctx.informers.informerFor<Secret>(RESOURCES.secrets);
    this.secretLister = secretInformer.lister();
    this.secrets = clientFor(ctx.client, SecretKind);
    const consider = (secret: Secret): void => {
      if (isBootstrapTokenSecret(secret)) this.enqueue(secret);
    };
    secretInformer.addEventHandler({ onAdd: consider, onUpdate: (_old, secret) => consider(secret) });
    this.run([secretInformer] as SharedIndexInformer<KubeObject>[]);
  }

  protected async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const secret = this.secretLister.namespace(namespace).get(name);
    if (!secret || !isBootstrapTokenSecret(secret)) return;
    const { expired, remainingMs } = bootstrapTokenExpiration(secret, this.ctx.now());
    if (!expired) {
      if (remainingMs !== undefined) this.enqueueAfter(key, remainingMs);
      return;
    }
    const uid = secret.metadata?.uid;
    try {
      await this.secrets.delete(name, { namespace, ...(uid ? { preconditions: { uid } } : {}) });
    } catch (err) {
      // gone already, or another Secret of that name (the UID precondition failed)
      if (isNotFound(err) || isConflict(err)) return;
      throw err;
    }
    this.ctx.logger.info(`tokencleaner: deleted expired bootstrap token secret ${key}`);
  }
}
