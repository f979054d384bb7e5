import {
  BOOTSTRAP_TOKEN_NAMESPACE,
  bootstrapTokenForSigning,
  CLUSTER_INFO_CONFIG_MAP,
  CLUSTER_INFO_NAMESPACE,
  ConfigMapKind,
  isBootstrapTokenSecret,
  type Secret,
} from '@orch/api';
import {
  clientFor,
  isConflict,
  isNotFound,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { deletedObject, QueueController, type ControllerContext } from '@orch/component-base';
import { RESOURCES } from '../controller/resources';
import { signedClusterInfo, type ConfigMap, type SigningToken } from './clusterInfoSignatures';

const CLUSTER_INFO_KEY = `${CLUSTER_INFO_NAMESPACE}/${CLUSTER_INFO_CONFIG_MAP}`;

/**
 * Kubernetes' bootstrap signer: keeps the cluster-info ConfigMap of orch-public signed by every
 * bootstrap token of orch-system that may sign (bootstrapTokenForSigning), one
 * `jws-kubeconfig-<token-id>` detached JWS of its kubeconfig each, and drops the signatures of
 * tokens gone or no longer valid. Any change to cluster-info or to a token Secret syncs the one key;
 * the ConfigMap is written only when its signatures change. A token that expires is dropped when it
 * does.
 */
export class BootstrapSigner extends QueueController {
  private readonly cmLister: Lister<ConfigMap>;
  private readonly secretLister: Lister<Secret>;
  private readonly configMaps: TypedClient<ConfigMap>;

  constructor(ctx: ControllerContext) {
    super('bootstrapsigner', ctx);
    const cmInformer = ctx.informers.informerFor<ConfigMap>(RESOURCES.configmaps);
    const secretInformer = ctx.informers.informerFor<Secret>(RESOURCES.secrets);
    this.cmLister = cmInformer.lister();
    this.secretLister = secretInformer.lister();
    this.configMaps = clientFor(ctx.client, ConfigMapKind);
    const poke = (): void => this.queue.add(CLUSTER_INFO_KEY);
    const configMapChanged = (cm: ConfigMap): void => {
      if (cm.metadata?.namespace === CLUSTER_INFO_NAMESPACE && cm.metadata.name === CLUSTER_INFO_CONFIG_MAP)
        poke();
    };
    cmInformer.addEventHandler({ onAdd: configMapChanged, onUpdate: (_old, cm) => configMapChanged(cm) });
    const secretChanged = (secret: Secret): void => {
      if (isBootstrapTokenSecret(secret)) poke();
    };
    secretInformer.addEventHandler({
      onAdd: secretChanged,
      onUpdate: (_old, secret) => secretChanged(secret),
      onDelete: (obj) => secretChanged(deletedObject(obj)),
    });
    this.run([cmInformer, secretInformer] as SharedIndexInformer<KubeObject>[]);
  }

  protected async sync(): Promise<void> {
    const cm = this.cmLister.namespace(CLUSTER_INFO_NAMESPACE).get(CLUSTER_INFO_CONFIG_MAP);
    if (!cm) return;
    const signed = signedClusterInfo(cm, this.signingTokens());
    if (!signed) return;
    try {
      await this.configMaps.update(signed);
    } catch (err) {
      // a newer ConfigMap, or its deletion, is on its way to the cache and syncs again
      if (isConflict(err) || isNotFound(err)) return;
      throw err;
    }
  }

  /** The tokens that may sign now, by id (the first Secret of an id wins); syncs again when the first expires. */
  private signingTokens(): SigningToken[] {
    const now = this.ctx.now();
    const tokens = new Map<string, SigningToken>();
    let nextExpiry: number | undefined;
    const secrets = this.secretLister
      .namespace(BOOTSTRAP_TOKEN_NAMESPACE)
      .list()
      .filter(isBootstrapTokenSecret)
      .sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
    for (const secret of secrets) {
      const token = bootstrapTokenForSigning(secret, now);
      if (!token) continue;
      if (tokens.has(token.id)) {
        this.ctx.logger.warning(
          `bootstrapsigner: duplicate bootstrap token id ${token.id}, ignoring ${BOOTSTRAP_TOKEN_NAMESPACE}/${secret.metadata?.name}`,
        );
        continue;
      }
      tokens.set(token.id, { id: token.id, secret: token.secret });
      if (token.remainingMs !== undefined) nextExpiry = Math.min(nextExpiry ?? Infinity, token.remainingMs);
    }
    if (nextExpiry !== undefined) this.enqueueAfter(CLUSTER_INFO_KEY, nextExpiry);
    return [...tokens.values()];
  }
}
