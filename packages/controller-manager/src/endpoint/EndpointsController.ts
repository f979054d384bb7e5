import { isDeepStrictEqual } from 'node:util';
import { EndpointsKind, type Endpoints, type ObjectMeta, type Pod, type Service } from '@orch/api';
import {
  clientFor,
  isNotFound,
  splitMetaNamespaceKey,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { type ControllerContext, deletedObject, QueueController } from '@orch/component-base';
import { RESOURCES } from '../controller/resources';
import { enqueueServicesOfPods, podSelector } from '../controller/servicePods';
import {
  endpointSubsets,
  HEADLESS_LABEL,
  OVER_CAPACITY_ANNOTATION,
  truncateSubsets,
} from './endpointSubsets';

/**
 * Keeps an Endpoints object beside every Service with a selector (Kubernetes' endpoints controller):
 * the addresses and ports of the pods the selector picks, ready or not, under the service's name and
 * labels. Services without a selector (their Endpoints are someone else's) and ExternalName services
 * are left alone; a deleted service's Endpoints are deleted; a deleted Endpoints object comes back.
 */
export class EndpointsController extends QueueController {
  private readonly serviceLister: Lister<Service>;
  private readonly podLister: Lister<Pod>;
  private readonly endpointsLister: Lister<Endpoints>;
  private readonly endpoints: TypedClient<Endpoints>;

  constructor(ctx: ControllerContext) {
    super('endpoint', ctx);
    const serviceInformer = ctx.informers.informerFor<Service>(RESOURCES.services);
    const podInformer = ctx.informers.informerFor<Pod>(RESOURCES.pods);
    const endpointsInformer = ctx.informers.informerFor<Endpoints>(RESOURCES.endpoints);
    this.serviceLister = serviceInformer.lister();
    this.podLister = podInformer.lister();
    this.endpointsLister = endpointsInformer.lister();
    this.endpoints = clientFor(ctx.client, EndpointsKind);
    serviceInformer.addEventHandler({
      onAdd: (svc) => this.enqueue(svc),
      onUpdate: (_old, svc) => this.enqueue(svc),
      onDelete: (obj) => this.enqueue(obj),
    });
    enqueueServicesOfPods(podInformer, this.serviceLister, (key) =>
      this.enqueueAfter(key, this.ctx.batchPeriodMs ?? 0),
    );
    endpointsInformer.addEventHandler({
      // Endpoints deleted under a service that should have them are made again
      onDelete: (obj) => {
        const ep = deletedObject(obj);
        if (this.serviceLister.namespace(ep.metadata?.namespace ?? '').get(ep.metadata?.name ?? ''))
          this.enqueue(ep);
      },
    });
    this.run([serviceInformer, podInformer, endpointsInformer] as SharedIndexInformer<KubeObject>[]);
  }

  protected async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const service = this.serviceLister.namespace(namespace).get(name);
    if (!service) {
      // the service is gone: so are its Endpoints
      try {
        await this.endpoints.delete(name, { namespace });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      return;
    }
    const selector = podSelector(service);
    if (!selector || service.spec?.type === 'ExternalName') return;
    const pods = this.podLister.namespace(namespace).list(selector);
    const { subsets, truncated } = truncateSubsets(endpointSubsets(service, pods));

    const current = this.endpointsLister.namespace(namespace).get(name);
    const labels: Record<string, string> = { ...(service.metadata?.labels ?? {}) };
    if (service.spec?.clusterIP === 'None') labels[HEADLESS_LABEL] = '';
    const annotations: Record<string, string> = { ...(current?.metadata?.annotations ?? {}) };
    if (truncated) annotations[OVER_CAPACITY_ANNOTATION] = 'truncated';
    else delete annotations[OVER_CAPACITY_ANNOTATION];
    if (
      current &&
      isDeepStrictEqual(current.subsets ?? [], subsets) &&
      isDeepStrictEqual(current.metadata?.labels ?? {}, labels) &&
      isDeepStrictEqual(current.metadata?.annotations ?? {}, annotations)
    )
      return;

    const metadata: ObjectMeta = { ...(current?.metadata ?? { name, namespace }), labels };
    if (Object.keys(annotations).length) metadata.annotations = annotations;
    else delete metadata.annotations;
    const desired: Endpoints = { apiVersion: 'v1', kind: 'Endpoints', metadata, subsets };
    // a create that lost to another writer or an update of a stale copy throws: the informer brings
    // the newer object and the retry works from it
    if (current) await this.endpoints.update(desired);
    else await this.endpoints.create(desired);
  }
}
