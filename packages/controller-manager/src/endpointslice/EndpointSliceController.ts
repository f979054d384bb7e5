import {
  EndpointSliceKind,
  selectorFromSet,
  type EndpointSlice,
  type Node,
  type Pod,
  type Service,
} from '@orch/api';
import {
  clientFor,
  hasStatusCause,
  isNotFound,
  splitMetaNamespaceKey,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { type ControllerContext, deletedObject, errorMessage, QueueController } from '@orch/component-base';
import { RESOURCES } from '../controller/resources';
import { enqueueServicesOfPods, podSelector } from '../controller/servicePods';
import {
  CONTROLLER_NAME,
  MANAGED_BY_LABEL,
  managedSliceLabels,
  reconcileSlices,
  SERVICE_NAME_LABEL,
} from './sliceReconciler';

export const MAX_ENDPOINTS_PER_SLICE_FLAG = 'max-endpoints-per-slice';
const DEFAULT_MAX_ENDPOINTS_PER_SLICE = 100;
/** How long after a change of one of its slices by someone else a service is synced again. */
const SLICE_CHANGE_DELAY_MS = 1000;
/** How long the controller waits for its informer to show its own writes before it works from what it has. */
const EXPECTATION_TIMEOUT_MS = 10_000;
const STALE_RETRY_MS = 100;

const isManaged = (slice: EndpointSlice): boolean =>
  slice.metadata?.labels?.[MANAGED_BY_LABEL] === CONTROLLER_NAME;

/**
 * The writes of one sync the informer has yet to show, for one service: created slices not seen yet,
 * updated slices not seen at the written resourceVersion, deleted slices still seen.
 */
class Expectations {
  readonly created = new Set<string>();
  readonly updated = new Map<string, string>();
  readonly deleted = new Set<string>();
  constructor(readonly deadline: number) {}

  /** The informer showed the slice (or its deletion). */
  observe(slice: EndpointSlice, deleted: boolean): void {
    const name = slice.metadata?.name ?? '';
    this.created.delete(name);
    if (deleted || this.updated.get(name) === slice.metadata?.resourceVersion) this.updated.delete(name);
    if (deleted) this.deleted.delete(name);
  }

  /** Drops what `slices` (the informer's) already show; whether anything is left to wait for. */
  pending(slices: readonly EndpointSlice[]): boolean {
    for (const slice of slices) this.observe(slice, false);
    const names = new Set(slices.map((s) => s.metadata?.name ?? ''));
    for (const name of this.deleted) if (!names.has(name)) this.deleted.delete(name);
    return this.created.size > 0 || this.updated.size > 0 || this.deleted.size > 0;
  }
}

/**
 * Kubernetes' EndpointSlice controller: keeps EndpointSlices (labelled with the service name and
 * managed by endpointslice-controller.k8s.io, owned by the service) over the pods every Service with
 * a selector picks, at most --max-endpoints-per-slice endpoints to a slice. Services without a
 * selector are left alone; the slices of a deleted service go.
 */
export class EndpointSliceController extends QueueController {
  private readonly serviceLister: Lister<Service>;
  private readonly podLister: Lister<Pod>;
  private readonly nodeLister: Lister<Node>;
  private readonly sliceLister: Lister<EndpointSlice>;
  private readonly slices: TypedClient<EndpointSlice>;
  private readonly maxEndpointsPerSlice: number;
  /** resourceVersion of each slice (by uid) as this controller last wrote it. */
  private readonly ownWrites = new Map<string, string>();
  /** uids of the slices this controller deleted. */
  private readonly ownDeletes = new Set<string>();
  private readonly expectations = new Map<string, Expectations>();

  constructor(ctx: ControllerContext) {
    super('endpointslice', ctx);
    this.maxEndpointsPerSlice =
      ctx.flags?.number(MAX_ENDPOINTS_PER_SLICE_FLAG) ?? DEFAULT_MAX_ENDPOINTS_PER_SLICE;
    const serviceInformer = ctx.informers.informerFor<Service>(RESOURCES.services);
    const podInformer = ctx.informers.informerFor<Pod>(RESOURCES.pods);
    const nodeInformer = ctx.informers.informerFor<Node>(RESOURCES.nodes);
    const sliceInformer = ctx.informers.informerFor<EndpointSlice>(RESOURCES.endpointslices);
    this.serviceLister = serviceInformer.lister();
    this.podLister = podInformer.lister();
    this.nodeLister = nodeInformer.lister();
    this.sliceLister = sliceInformer.lister();
    this.slices = clientFor(ctx.client, EndpointSliceKind);
    serviceInformer.addEventHandler({
      onAdd: (svc) => this.enqueue(svc),
      onUpdate: (_old, svc) => this.enqueue(svc),
      onDelete: (obj) => this.enqueue(obj),
    });
    enqueueServicesOfPods(podInformer, this.serviceLister, (key) =>
      this.enqueueAfter(key, this.ctx.batchPeriodMs ?? 0),
    );
    sliceInformer.addEventHandler({
      onAdd: (slice) => this.onSliceChange(slice),
      onUpdate: (old, slice) => {
        // a slice moved to another service concerns both
        if (old.metadata?.labels?.[SERVICE_NAME_LABEL] !== slice.metadata?.labels?.[SERVICE_NAME_LABEL]) {
          this.enqueueServiceOf(old, 0);
          this.enqueueServiceOf(slice, 0);
          return;
        }
        this.onSliceChange(slice);
      },
      onDelete: (obj) => {
        const slice = deletedObject(obj);
        const uid = slice.metadata?.uid ?? '';
        this.ownWrites.delete(uid);
        if (isManaged(slice)) this.observe(slice, true);
        if (this.ownDeletes.delete(uid)) return;
        if (isManaged(slice)) this.enqueueServiceOf(slice, SLICE_CHANGE_DELAY_MS);
      },
    });
    this.run([
      serviceInformer,
      podInformer,
      nodeInformer,
      sliceInformer,
    ] as SharedIndexInformer<KubeObject>[]);
  }

  /** Notes that the informer shows a slice (or its deletion) this controller may be waiting for. */
  private observe(slice: EndpointSlice, deleted: boolean): void {
    const service = slice.metadata?.labels?.[SERVICE_NAME_LABEL] ?? '';
    this.expectations.get(`${slice.metadata?.namespace ?? ''}/${service}`)?.observe(slice, deleted);
  }

  /** A managed slice changed by someone else (not as this controller last wrote it): its service is synced again. */
  private onSliceChange(slice: EndpointSlice): void {
    if (!isManaged(slice)) return;
    this.observe(slice, false);
    if (this.ownWrites.get(slice.metadata?.uid ?? '') === slice.metadata?.resourceVersion) return;
    this.enqueueServiceOf(slice, SLICE_CHANGE_DELAY_MS);
  }

  private enqueueServiceOf(slice: EndpointSlice, delayMs: number): void {
    const service = slice.metadata?.labels?.[SERVICE_NAME_LABEL];
    if (service) this.enqueueAfter(`${slice.metadata?.namespace ?? ''}/${service}`, delayMs);
  }

  /** Whether the informer has yet to show writes of the last sync of the service. */
  private stale(key: string, slices: readonly EndpointSlice[]): boolean {
    const expected = this.expectations.get(key);
    if (expected && this.ctx.now() <= expected.deadline && expected.pending(slices)) return true;
    this.expectations.delete(key);
    return false;
  }

  protected async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const managed = this.sliceLister
      .namespace(namespace)
      .list(selectorFromSet(managedSliceLabels(name)))
      .filter((s) => !s.metadata?.deletionTimestamp);
    if (this.stale(key, managed)) {
      this.enqueueAfter(key, STALE_RETRY_MS);
      return;
    }
    const service = this.serviceLister.namespace(namespace).get(name);
    if (!service) {
      // the service is gone: so are its slices (the garbage collector removes them too)
      await this.write(key, namespace, { create: [], update: [], delete: managed });
      return;
    }
    // a service without a selector has slices made by others
    const selector = podSelector(service);
    if (!selector) return;
    const pods = this.podLister.namespace(namespace).list(selector);
    const plan = reconcileSlices(service, pods, managed, {
      maxEndpointsPerSlice: this.maxEndpointsPerSlice,
      node: (nodeName) => this.nodeLister.get(nodeName),
    });
    try {
      await this.write(key, namespace, plan);
    } catch (err) {
      this.ctx.recorder.event(
        service,
        'Warning',
        'FailedToUpdateEndpointSlices',
        `Error updating Endpoint Slices for Service ${namespace}/${name}: ${errorMessage(err)}`,
      );
      throw err;
    }
  }

  /** Applies a plan: creates, then updates, then deletes; the first error is thrown after all were tried. */
  private async write(
    key: string,
    namespace: string,
    plan: { create: EndpointSlice[]; update: EndpointSlice[]; delete: EndpointSlice[] },
  ): Promise<void> {
    if (!plan.create.length && !plan.update.length && !plan.delete.length) return;
    const expected = new Expectations(this.ctx.now() + EXPECTATION_TIMEOUT_MS);
    this.expectations.set(key, expected);
    const seen = (name: string): EndpointSlice | undefined => this.sliceLister.namespace(namespace).get(name);
    const errors: unknown[] = [];
    const wrote = (slice: EndpointSlice): string => {
      this.ownWrites.set(slice.metadata?.uid ?? '', slice.metadata?.resourceVersion ?? '');
      return slice.metadata?.name ?? '';
    };
    for (const slice of plan.create) {
      try {
        const name = wrote(await this.slices.create(slice, { namespace }));
        if (!seen(name)) expected.created.add(name);
      } catch (err) {
        // creates in a terminating namespace keep failing: the service goes with it
        if (hasStatusCause(err, 'NamespaceTerminating')) break;
        errors.push(err);
      }
    }
    for (const slice of plan.update) {
      try {
        const updated = await this.slices.update(slice, { namespace });
        const name = wrote(updated);
        const resourceVersion = updated.metadata?.resourceVersion ?? '';
        if (seen(name)?.metadata?.resourceVersion !== resourceVersion)
          expected.updated.set(name, resourceVersion);
      } catch (err) {
        errors.push(err);
      }
    }
    for (const slice of plan.delete) {
      const uid = slice.metadata?.uid ?? '';
      try {
        this.ownDeletes.add(uid);
        await this.slices.delete(slice.metadata?.name ?? '', {
          namespace,
          ...(uid ? { preconditions: { uid } } : {}),
        });
        if (seen(slice.metadata?.name ?? '')) expected.deleted.add(slice.metadata?.name ?? '');
      } catch (err) {
        this.ownDeletes.delete(uid);
        if (!isNotFound(err)) errors.push(err);
      }
    }
    if (errors.length) throw errors[0];
  }
}
