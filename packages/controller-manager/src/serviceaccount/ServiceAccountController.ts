import { ServiceAccountKind, type Namespace, type ServiceAccount } from '@orch/api';
import {
  clientFor,
  isAlreadyExists,
  isForbidden,
  isNotFound,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { type ControllerContext, deletedObject, QueueController } from '@orch/component-base';
import { RESOURCES } from '../controller/resources';

/** The service accounts every namespace gets. */
export const DEFAULT_SERVICE_ACCOUNTS = ['default'];

/** Ensures a `default` ServiceAccount in every active namespace, recreating it when deleted. */
export class ServiceAccountController extends QueueController {
  private readonly nsLister: Lister<Namespace>;
  private readonly saLister: Lister<ServiceAccount>;
  private readonly serviceAccounts: TypedClient<ServiceAccount>;

  constructor(ctx: ControllerContext) {
    super('serviceaccount', ctx);
    const nsInformer = ctx.informers.informerFor<Namespace>(RESOURCES.namespaces);
    const saInformer = ctx.informers.informerFor<ServiceAccount>(RESOURCES.serviceaccounts);
    this.nsLister = nsInformer.lister();
    this.saLister = saInformer.lister();
    this.serviceAccounts = clientFor(ctx.client, ServiceAccountKind);
    nsInformer.addEventHandler({ onAdd: (ns) => this.enqueue(ns), onUpdate: (_o, ns) => this.enqueue(ns) });
    saInformer.addEventHandler({
      onDelete: (obj) => {
        const sa = deletedObject(obj);
        if (DEFAULT_SERVICE_ACCOUNTS.includes(sa.metadata?.name ?? ''))
          this.queue.add(sa.metadata?.namespace ?? '');
      },
    });
    this.run([nsInformer, saInformer] as SharedIndexInformer<KubeObject>[]);
  }

  protected async sync(namespace: string): Promise<void> {
    const ns = this.nsLister.get(namespace);
    if (!ns || ns.metadata?.deletionTimestamp || ns.status?.phase === 'Terminating') return;
    for (const name of DEFAULT_SERVICE_ACCOUNTS) {
      if (this.saLister.namespace(namespace).get(name)) continue;
      try {
        await this.serviceAccounts.create({
          apiVersion: 'v1',
          kind: 'ServiceAccount',
          metadata: { name, namespace },
        });
      } catch (err) {
        // Gone, terminating (Forbidden) or created meanwhile: nothing to do.
        if (isAlreadyExists(err) || isNotFound(err) || isForbidden(err)) continue;
        throw err;
      }
    }
  }
}
