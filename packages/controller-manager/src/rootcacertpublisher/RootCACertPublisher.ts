import { ConfigMapKind, type Namespace } from '@orch/api';
import {
  clientFor,
  hasStatusCause,
  isNotFound,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { type ControllerContext, deletedObject, QueueController } from '@orch/component-base';
import { RESOURCES } from '../controller/resources';
import {
  newRootCAConfigMap,
  restoredRootCAConfigMap,
  ROOT_CA_CONFIG_MAP_NAME,
  type ConfigMap,
} from './rootCAConfigMap';

/**
 * Publishes the cluster's CA bundle as the ConfigMap kube-root-ca.crt in every namespace
 * (Kubernetes' root CA certificate publisher): created when a namespace is added or updated, and
 * when the ConfigMap is deleted; put back when it is changed. Namespaces being deleted are left
 * alone.
 */
export class RootCACertPublisher extends QueueController {
  private readonly cmLister: Lister<ConfigMap>;
  private readonly nsLister: Lister<Namespace>;
  private readonly configMaps: TypedClient<ConfigMap>;

  constructor(
    ctx: ControllerContext,
    /** The PEM bundle published. */
    readonly rootCA: string,
  ) {
    super('root-ca-cert-publisher', ctx);
    const nsInformer = ctx.informers.informerFor<Namespace>(RESOURCES.namespaces);
    const cmInformer = ctx.informers.informerFor<ConfigMap>(RESOURCES.configmaps);
    this.cmLister = cmInformer.lister();
    this.nsLister = nsInformer.lister();
    this.configMaps = clientFor(ctx.client, ConfigMapKind);
    nsInformer.addEventHandler({
      onAdd: (ns) => this.queue.add(ns.metadata?.name ?? ''),
      onUpdate: (_old, ns) => {
        if (ns.status?.phase === 'Active') this.queue.add(ns.metadata?.name ?? '');
      },
    });
    const configMapChanged = (cm: ConfigMap): void => {
      if (cm.metadata?.name === ROOT_CA_CONFIG_MAP_NAME) this.queue.add(cm.metadata.namespace ?? '');
    };
    cmInformer.addEventHandler({
      onUpdate: (_old, cm) => configMapChanged(cm),
      onDelete: (obj) => configMapChanged(deletedObject(obj)),
    });
    this.run([nsInformer, cmInformer] as SharedIndexInformer<KubeObject>[]);
  }

  protected async sync(namespace: string): Promise<void> {
    // a namespace that is gone or being deleted has nothing to publish into
    const ns = this.nsLister.get(namespace);
    if (!ns || ns.metadata?.deletionTimestamp) return;
    const cm = this.cmLister.namespace(namespace).get(ROOT_CA_CONFIG_MAP_NAME);
    if (!cm) {
      try {
        await this.configMaps.create(newRootCAConfigMap(namespace, this.rootCA));
      } catch (err) {
        // the namespace went or began to go since the cache saw it
        if (isNotFound(err) || hasStatusCause(err, 'NamespaceTerminating')) return;
        throw err;
      }
      return;
    }
    const restored = restoredRootCAConfigMap(cm, this.rootCA);
    if (restored) await this.configMaps.update(restored);
  }
}
