import type { KeyObject } from 'node:crypto';
import { SecretKind, ServiceAccountKind, type Secret, type ServiceAccount } from '@orch/api';
import {
  clientFor,
  isConflict,
  isNotFound,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import {
  type ControllerContext,
  deletedObject,
  QueueController,
  signLegacyServiceAccountToken,
} from '@orch/component-base';
import { RESOURCES } from '../controller/resources';
import {
  isServiceAccountToken,
  needsUpdate,
  populatedTokenSecret,
  SERVICE_ACCOUNT_TOKEN_TYPE,
  tokenSecretAccount,
  tokenSecretNeeds,
} from './tokenSecret';

/** A queued service account: namespace, name and the UID it had when queued. */
type AccountKey = ['serviceaccount', string, string, string];
/** A queued token secret: namespace, name, UID, and the service account name and UID it named. */
type SecretKey = ['secret', string, string, string, string, string];

export interface TokensControllerOptions {
  /** The key tokens are signed with (--service-account-private-key-file). */
  signingKey: KeyObject;
  /** The CA bundle put in every token secret as ca.crt; empty for none. */
  rootCA: string;
}

/**
 * Kubernetes' tokens controller: fills every secret of type kubernetes.io/service-account-token
 * whose service account exists with a signed non-expiring token, the CA bundle and the namespace,
 * and deletes the token secrets of a service account that is gone (or whose UID is not the one the
 * secret names); a deleted token secret is removed from its service account's secrets.
 */
export class TokensController extends QueueController {
  private readonly saLister: Lister<ServiceAccount>;
  private readonly secretLister: Lister<Secret>;
  private readonly serviceAccounts: TypedClient<ServiceAccount>;
  private readonly secrets: TypedClient<Secret>;

  constructor(
    ctx: ControllerContext,
    private readonly options: TokensControllerOptions,
  ) {
    super('serviceaccount-token', ctx);
    const saInformer = ctx.informers.informerFor<ServiceAccount>(RESOURCES.serviceaccounts);
    const secretInformer = ctx.informers.informerFor<Secret>(RESOURCES.secrets);
    this.saLister = saInformer.lister();
    this.secretLister = secretInformer.lister();
    this.serviceAccounts = clientFor(ctx.client, ServiceAccountKind);
    this.secrets = clientFor(ctx.client, SecretKind);
    const queueAccount = (sa: ServiceAccount): void =>
      this.queue.add(
        JSON.stringify([
          'serviceaccount',
          sa.metadata?.namespace ?? '',
          sa.metadata?.name ?? '',
          sa.metadata?.uid ?? '',
        ] satisfies AccountKey),
      );
    saInformer.addEventHandler({
      onUpdate: (_old, sa) => queueAccount(sa),
      onDelete: (obj) => queueAccount(deletedObject(obj)),
    });
    const queueSecret = (secret: Secret): void => {
      if (secret.type !== SERVICE_ACCOUNT_TOKEN_TYPE) return;
      const account = tokenSecretAccount(secret);
      this.queue.add(
        JSON.stringify([
          'secret',
          secret.metadata?.namespace ?? '',
          secret.metadata?.name ?? '',
          secret.metadata?.uid ?? '',
          account.name,
          account.uid,
        ] satisfies SecretKey),
      );
    };
    secretInformer.addEventHandler({
      onAdd: queueSecret,
      onUpdate: (_old, secret) => queueSecret(secret),
      onDelete: (obj) => queueSecret(deletedObject(obj)),
    });
    this.run([saInformer, secretInformer] as SharedIndexInformer<KubeObject>[]);
  }

  protected async sync(key: string): Promise<void> {
    const parsed = JSON.parse(key) as AccountKey | SecretKey;
    if (parsed[0] === 'serviceaccount') await this.syncServiceAccount(parsed);
    else await this.syncSecret(parsed);
  }

  /** A service account gone (or replaced): its token secrets go too. */
  private async syncServiceAccount([, namespace, name, uid]: AccountKey): Promise<void> {
    if (await this.getServiceAccount(namespace, name, uid, false)) return;
    const tokens = this.secretLister
      .namespace(namespace)
      .list()
      .filter((s) => isServiceAccountToken(s, { name, uid }));
    for (const secret of tokens)
      await this.deleteToken(namespace, secret.metadata?.name ?? '', secret.metadata?.uid ?? '');
  }

  private async syncSecret([, namespace, name, uid, saName, saUID]: SecretKey): Promise<void> {
    const secret = this.getSecret(namespace, name, uid);
    if (!secret) {
      // gone: the service account no longer lists it
      if (await this.getServiceAccount(namespace, saName, saUID, false))
        await this.removeSecretReference(namespace, saName, saUID, name);
      return;
    }
    // the cache may not have seen a service account created just before its secret
    const account = await this.getServiceAccount(namespace, saName, saUID, true);
    if (!account) {
      this.ctx.logger.info(
        `serviceaccount-token: service account ${namespace}/${saName} does not exist, deleting token secret ${namespace}/${name}`,
      );
      await this.deleteToken(namespace, name, uid);
      return;
    }
    await this.generateTokenIfNeeded(account, secret);
  }

  /** Fills what the secret lacks on its live copy, unless the cache is behind it. */
  private async generateTokenIfNeeded(account: ServiceAccount, cached: Secret): Promise<void> {
    if (!needsUpdate(tokenSecretNeeds(cached, this.options.rootCA))) return;
    let live: Secret;
    try {
      live = await this.secrets.get(cached.metadata?.name ?? '', { namespace: cached.metadata?.namespace });
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    // a newer version is on its way to the cache and queues the secret again
    if (live.metadata?.resourceVersion !== cached.metadata?.resourceVersion) return;
    const needs = tokenSecretNeeds(live, this.options.rootCA);
    if (!needsUpdate(needs)) return;
    const token = needs.token
      ? await signLegacyServiceAccountToken(this.options.signingKey, {
          namespace: live.metadata?.namespace ?? '',
          name: account.metadata?.name ?? '',
          uid: account.metadata?.uid ?? '',
          secretName: live.metadata?.name ?? '',
        })
      : '';
    try {
      await this.secrets.update(
        populatedTokenSecret(live, account, needs, { rootCA: this.options.rootCA, token }),
      );
    } catch (err) {
      // changed meanwhile (its update queues it again) or deleted: nothing to fill
      if (isConflict(err) || isNotFound(err)) return;
      throw err;
    }
  }

  private async removeSecretReference(
    namespace: string,
    saName: string,
    saUID: string,
    secretName: string,
  ): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      let sa: ServiceAccount;
      try {
        sa = await this.serviceAccounts.get(saName, { namespace });
      } catch (err) {
        if (isNotFound(err)) return;
        throw err;
      }
      if (saUID && sa.metadata?.uid !== saUID) return;
      const secrets = sa.secrets ?? [];
      if (!secrets.some((r) => r.name === secretName)) return;
      try {
        await this.serviceAccounts.update({ ...sa, secrets: secrets.filter((r) => r.name !== secretName) });
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (!isConflict(err) || attempt >= 4) throw err;
      }
    }
  }

  /** Deletes a token secret, if it is still the one with that UID. */
  private async deleteToken(namespace: string, name: string, uid: string): Promise<void> {
    try {
      await this.secrets.delete(name, { namespace, ...(uid ? { preconditions: { uid } } : {}) });
    } catch (err) {
      // gone already, or replaced by another secret of the same name
      if (isNotFound(err) || isConflict(err)) return;
      throw err;
    }
  }

  /** The service account from the cache (or, when asked, the apiserver), if it has the UID given. */
  private async getServiceAccount(
    namespace: string,
    name: string,
    uid: string,
    fetchOnCacheMiss: boolean,
  ): Promise<ServiceAccount | undefined> {
    if (!name) return undefined;
    let sa = this.saLister.namespace(namespace).get(name);
    if (!sa && fetchOnCacheMiss) {
      try {
        sa = await this.serviceAccounts.get(name, { namespace });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    return sa && (!uid || sa.metadata?.uid === uid) ? sa : undefined;
  }

  /** The secret from the cache, if it has the UID given. */
  private getSecret(namespace: string, name: string, uid: string): Secret | undefined {
    const secret = this.secretLister.namespace(namespace).get(name);
    return secret && (!uid || secret.metadata?.uid === uid) ? secret : undefined;
  }
}
