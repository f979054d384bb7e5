import { isDeepStrictEqual } from 'node:util';
import {
  formatTime,
  HorizontalPodAutoscalerKind,
  parseLabelSelector,
  splitAPIVersion,
  type HorizontalPodAutoscaler,
  type HorizontalPodAutoscalerCondition,
  type Pod,
  type Scale,
} from '@orch/api';
import {
  clientFor,
  DiscoveryClient,
  metaNamespaceKeyFunc,
  splitMetaNamespaceKey,
  type DiscoveredResource,
  type KubeObject,
  FixedItemIntervalRateLimiter,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { type ControllerContext, errorMessage, QueueController } from '@orch/component-base';
import { discoverResources, resourceForKind, type ResourceDiscovery } from '../controller/discovery';
import { RESOURCES } from '../controller/resources';
import { withKind } from '../controller/withKind';
import { desiredReplicasWithRules } from './desiredReplicasWithRules';
import { type ConditionType, annotationsWithConditions, conditionsOf, setCondition } from './hpaConditions';
import { Recommendations } from './Recommendations';
import type { ResourceMetricsClient } from './ResourceMetricsClient';
import { RestMetricsClient } from './RestMetricsClient';
import { resourceReplicas, type ReplicaCalculatorConfig } from './resourceReplicas';

/** The defaults of the --horizontal-pod-autoscaler-* flags. */
export const HPA_DEFAULTS = {
  syncPeriodMs: 15_000,
  downscaleStabilizationMs: 5 * 60_000,
  tolerance: 0.1,
  cpuInitializationPeriodMs: 5 * 60_000,
  initialReadinessDelayMs: 30_000,
};

/** The CPU utilization target of an autoscaling/v1 autoscaler naming none (Kubernetes' DefaultCPUUtilization). */
export const DEFAULT_CPU_UTILIZATION = 80;

const CPU_METRIC = 'cpu resource utilization (percentage of request)';

export interface HorizontalControllerOptions {
  /** Where pod usage is read; the resource metrics API through the API server by default. */
  metrics?: ResourceMetricsClient;
  /** Where scale target kinds not declared in this build are looked up; the API server's discovery by default. */
  discovery?: ResourceDiscovery;
}

/** One sync's view of an autoscaler: a copy whose status and conditions it rewrites. */
interface Working {
  hpa: HorizontalPodAutoscaler;
  conditions: HorizontalPodAutoscalerCondition[];
  status: NonNullable<HorizontalPodAutoscaler['status']>;
}

/**
 * Scales the target of each autoscaling/v1 HorizontalPodAutoscaler through its scale subresource
 * (Kubernetes' horizontal pod autoscaler): to the bounds when the target is outside them, else to
 * what the pods' CPU utilization of their requests asks for, held by the tolerance, the downscale
 * stabilization window and the scale-up limit. Each autoscaler is looked at every sync period; the
 * conditions go to the autoscaling/v1 conditions annotation.
 */
export class HorizontalController extends QueueController {
  private readonly hpaLister: Lister<HorizontalPodAutoscaler>;
  private readonly podLister: Lister<Pod>;
  private readonly hpas: TypedClient<HorizontalPodAutoscaler>;
  private readonly metrics: ResourceMetricsClient;
  private readonly discovery: ResourceDiscovery;
  private discovered: DiscoveredResource[] = [];
  private readonly recommendations: Recommendations;
  private readonly calculator: ReplicaCalculatorConfig;

  constructor(ctx: ControllerContext, opts: HorizontalControllerOptions = {}) {
    const syncPeriodMs = ctx.syncPeriodMs || HPA_DEFAULTS.syncPeriodMs;
    super('horizontalpodautoscaling', ctx, new FixedItemIntervalRateLimiter<string>(syncPeriodMs));
    const duration = (name: string, fallback: number): number =>
      ctx.flags?.duration(`horizontal-pod-autoscaler-${name}`) ?? fallback;
    this.recommendations = new Recommendations(
      duration('downscale-stabilization', HPA_DEFAULTS.downscaleStabilizationMs),
    );
    this.calculator = {
      tolerance: ctx.flags?.number('horizontal-pod-autoscaler-tolerance') ?? HPA_DEFAULTS.tolerance,
      cpuInitializationPeriodMs: duration(
        'cpu-initialization-period',
        HPA_DEFAULTS.cpuInitializationPeriodMs,
      ),
      delayOfInitialReadinessStatusMs: duration(
        'initial-readiness-delay',
        HPA_DEFAULTS.initialReadinessDelayMs,
      ),
    };
    this.metrics = opts.metrics ?? new RestMetricsClient(ctx.client);
    this.discovery = opts.discovery ?? new DiscoveryClient(ctx.client);
    this.hpas = clientFor(ctx.client, HorizontalPodAutoscalerKind);
    const hpaInformer = ctx.informers.informerFor<HorizontalPodAutoscaler>(
      RESOURCES.horizontalpodautoscalers,
    );
    const podInformer = ctx.informers.informerFor<Pod>(RESOURCES.pods);
    this.hpaLister = hpaInformer.lister();
    this.podLister = podInformer.lister();
    // as Kubernetes: an added or changed autoscaler is looked at after the sync period
    hpaInformer.addEventHandler({
      onAdd: (hpa) => this.queue.addRateLimited(metaNamespaceKeyFunc(hpa)),
      onUpdate: (_old, hpa) => this.queue.addRateLimited(metaNamespaceKeyFunc(hpa)),
      onDelete: (obj) => this.queue.forget(metaNamespaceKeyFunc(obj)),
    });
    this.run([hpaInformer, podInformer] as SharedIndexInformer<KubeObject>[]);
  }

  protected async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const hpa = this.hpaLister.namespace(namespace).get(name);
    if (!hpa) {
      this.recommendations.forget(key);
      return;
    }
    try {
      await this.reconcile(hpa, key);
    } finally {
      // looked at again one sync period from now, whatever this sync did
      this.queue.addRateLimited(key);
    }
  }

  private now(): number {
    return this.ctx.now();
  }

  private event(w: Working, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.ctx.recorder.event(
      withKind(w.hpa, 'autoscaling/v1', 'HorizontalPodAutoscaler'),
      type,
      reason,
      message,
    );
  }

  private condition(
    w: Working,
    type: ConditionType,
    status: 'True' | 'False',
    reason: string,
    message: string,
  ): void {
    w.conditions = setCondition(w.conditions, type, status, reason, message, this.now());
  }

  /** The resource of the scale target: declared in this build, else from discovery (read again when unknown). */
  private async targetResource(apiVersion: string, kind: string): Promise<DiscoveredResource> {
    let resource = resourceForKind(apiVersion, kind, this.discovered);
    if (!resource) {
      const { all } = await discoverResources(this.discovery, []);
      if (all.length) this.discovered = all;
      resource = resourceForKind(apiVersion, kind, this.discovered);
    }
    if (!resource)
      throw new Error(`no matches for kind "${kind}" in group "${splitAPIVersion(apiVersion)[0]}"`);
    return resource;
  }

  private async reconcile(shared: HorizontalPodAutoscaler, key: string): Promise<void> {
    const hpa = structuredClone(shared);
    const w: Working = {
      hpa,
      conditions: conditionsOf(hpa),
      status: structuredClone(hpa.status) ?? emptyStatus(),
    };
    const original = { status: structuredClone(w.status), conditions: structuredClone(w.conditions) };
    const namespace = hpa.metadata?.namespace ?? '';
    const ref = hpa.spec?.scaleTargetRef ?? { kind: '', name: '' };
    const reference = `${ref.kind}/${namespace}/${ref.name}`;
    const failedGetScale = async (err: unknown, wrap: string): Promise<never> => {
      const message = errorMessage(err);
      this.event(w, 'Warning', 'FailedGetScale', message);
      this.condition(
        w,
        'AbleToScale',
        'False',
        'FailedGetScale',
        `the HPA controller was unable to get the target's current scale: ${message}`,
      );
      await this.updateStatusIfNeeded(w, original).catch(() => undefined);
      throw new Error(`${wrap}: ${message}`);
    };

    let scales: TypedClient<KubeObject>;
    try {
      scales = clientFor(this.ctx.client, await this.targetResource(ref.apiVersion ?? '', ref.kind));
    } catch (err) {
      return failedGetScale(err, 'unable to determine resource for scale target reference');
    }
    let scale: Scale;
    try {
      scale = await scales.getScale(ref.name, { namespace });
    } catch (err) {
      return failedGetScale(err, `failed to query scale subresource for ${reference}`);
    }
    this.condition(
      w,
      'AbleToScale',
      'True',
      'SucceededGetScale',
      "the HPA controller was able to get the target's current scale",
    );
    const currentReplicas = scale.spec?.replicas ?? 0;
    this.recommendations.recordInitial(key, currentReplicas, this.now());

    const minReplicas = hpa.spec?.minReplicas ?? 1;
    const maxReplicas = hpa.spec?.maxReplicas ?? 0;
    let desiredReplicas = 0;
    let rescaleReason = '';
    let rescale = true;
    let utilization: number | undefined;

    if (currentReplicas === 0 && minReplicas !== 0) {
      rescale = false;
      this.condition(
        w,
        'ScalingActive',
        'False',
        'ScalingDisabled',
        'scaling is disabled since the replica count of the target is zero',
      );
    } else if (currentReplicas > maxReplicas) {
      rescaleReason = 'Current number of replicas above Spec.MaxReplicas';
      desiredReplicas = maxReplicas;
    } else if (currentReplicas < minReplicas) {
      rescaleReason = 'Current number of replicas below Spec.MinReplicas';
      desiredReplicas = minReplicas;
    } else {
      let proposal: { replicas: number; utilization: number };
      try {
        proposal = await this.replicasForMetrics(w, scale, currentReplicas);
      } catch (err) {
        await this.keepStatusAfterFailure(w, currentReplicas, original);
        this.event(w, 'Warning', 'FailedComputeMetricsReplicas', errorMessage(err));
        throw new Error(
          `failed to compute desired number of replicas based on listed metrics for ${reference}: ${errorMessage(err)}`,
          { cause: err },
        );
      }
      utilization = proposal.utilization;
      desiredReplicas = proposal.replicas;
      if (desiredReplicas > currentReplicas) rescaleReason = `${CPU_METRIC} above target`;
      if (desiredReplicas < currentReplicas) rescaleReason = 'All metrics below target';
      desiredReplicas = this.normalizeDesiredReplicas(
        w,
        key,
        currentReplicas,
        desiredReplicas,
        minReplicas,
        maxReplicas,
      );
      rescale = desiredReplicas !== currentReplicas;
    }

    if (rescale) {
      try {
        await scales.updateScale(ref.name, { ...scale, spec: { ...scale.spec, replicas: desiredReplicas } });
      } catch (err) {
        const message = errorMessage(err);
        this.event(
          w,
          'Warning',
          'FailedRescale',
          `New size: ${desiredReplicas}; reason: ${rescaleReason}; error: ${message}`,
        );
        this.condition(
          w,
          'AbleToScale',
          'False',
          'FailedUpdateScale',
          `the HPA controller was unable to update the target scale: ${message}`,
        );
        await this.keepStatusAfterFailure(w, currentReplicas, original);
        throw new Error(`failed to rescale ${reference}: ${message}`, { cause: err });
      }
      this.condition(
        w,
        'AbleToScale',
        'True',
        'SucceededRescale',
        `the HPA controller was able to update the target scale to ${desiredReplicas}`,
      );
      this.event(w, 'Normal', 'SuccessfulRescale', `New size: ${desiredReplicas}; reason: ${rescaleReason}`);
      this.ctx.logger.info(
        `Successful rescale of ${hpa.metadata?.name}, old size: ${currentReplicas}, new size: ${desiredReplicas}, reason: ${rescaleReason}`,
      );
    } else {
      desiredReplicas = currentReplicas;
    }
    this.setStatus(w, currentReplicas, desiredReplicas, utilization, rescale);
    await this.updateStatusIfNeeded(w, original);
  }

  /**
   * The replicas the CPU utilization target asks for (Kubernetes' computeReplicasForMetrics for the
   * one metric of autoscaling/v1), setting ScalingActive; throws with Kubernetes' reasons.
   */
  private async replicasForMetrics(
    w: Working,
    scale: Scale,
    currentReplicas: number,
  ): Promise<{ replicas: number; utilization: number }> {
    const selectorText = scale.status?.selector ?? '';
    if (!selectorText) {
      this.event(w, 'Warning', 'SelectorRequired', 'selector is required');
      this.condition(
        w,
        'ScalingActive',
        'False',
        'InvalidSelector',
        "the HPA target's scale is missing a selector",
      );
      throw new Error('selector is required');
    }
    let selector;
    try {
      selector = parseLabelSelector(selectorText);
    } catch (err) {
      const message = `couldn't convert selector into a corresponding internal selector object: ${errorMessage(err)}`;
      this.event(w, 'Warning', 'InvalidSelector', message);
      this.condition(w, 'ScalingActive', 'False', 'InvalidSelector', message);
      throw new Error(message, { cause: err });
    }
    const namespace = w.hpa.metadata?.namespace ?? '';
    const target = w.hpa.spec?.targetCPUUtilizationPercentage ?? DEFAULT_CPU_UTILIZATION;
    let proposal;
    try {
      let fetched;
      try {
        fetched = await this.metrics.getResourceMetric('cpu', namespace, selectorText);
      } catch (err) {
        throw new Error(`unable to get metrics for resource cpu: ${errorMessage(err)}`, { cause: err });
      }
      proposal = resourceReplicas({
        currentReplicas,
        targetUtilization: target,
        resource: 'cpu',
        pods: this.podLister.namespace(namespace).list(selector),
        metrics: fetched.metrics,
        config: this.calculator,
        now: this.now(),
      });
    } catch (err) {
      const message = `failed to get cpu utilization: ${errorMessage(err)}`;
      this.event(w, 'Warning', 'FailedGetResourceMetric', message);
      this.condition(
        w,
        'ScalingActive',
        'False',
        'FailedGetResourceMetric',
        `the HPA was unable to compute the replica count: ${message}`,
      );
      throw new Error(
        `invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: ${message}`,
        { cause: err },
      );
    }
    this.condition(
      w,
      'ScalingActive',
      'True',
      'ValidMetricFound',
      `the HPA was able to successfully calculate a replica count from ${CPU_METRIC}`,
    );
    return { replicas: proposal.replicas, utilization: proposal.utilization };
  }

  /**
   * The recommendation stabilized over the downscale window and held within the bounds (Kubernetes'
   * normalizeDesiredReplicas), setting AbleToScale and ScalingLimited.
   */
  private normalizeDesiredReplicas(
    w: Working,
    key: string,
    currentReplicas: number,
    recommended: number,
    minReplicas: number,
    maxReplicas: number,
  ): number {
    const stabilized = this.recommendations.stabilize(key, recommended, this.now());
    if (stabilized !== recommended) {
      this.condition(
        w,
        'AbleToScale',
        'True',
        'ScaleDownStabilized',
        'recent recommendations were higher than current one, applying the highest recent recommendation',
      );
    } else {
      this.condition(w, 'AbleToScale', 'True', 'ReadyForNewScale', 'recommended size matches current size');
    }
    const limited = desiredReplicasWithRules(currentReplicas, stabilized, minReplicas, maxReplicas);
    this.condition(
      w,
      'ScalingLimited',
      limited.replicas === stabilized ? 'False' : 'True',
      limited.reason,
      limited.message,
    );
    return limited.replicas;
  }

  private setStatus(
    w: Working,
    currentReplicas: number,
    desiredReplicas: number,
    utilization: number | undefined,
    rescale: boolean,
  ): void {
    const lastScaleTime = rescale ? formatTime(this.now()) : w.status.lastScaleTime;
    w.status = {
      ...(w.hpa.metadata?.generation !== undefined ? { observedGeneration: w.hpa.metadata.generation } : {}),
      ...(lastScaleTime ? { lastScaleTime } : {}),
      currentReplicas,
      desiredReplicas,
      ...(utilization !== undefined ? { currentCPUUtilizationPercentage: utilization } : {}),
    };
  }

  /** Writes the status and conditions when they changed (Kubernetes' updateStatusIfNeeded). */
  /** After a failed attempt: the current count observed, the last desired count kept, no scale time. */
  private async keepStatusAfterFailure(
    w: Working,
    currentReplicas: number,
    original: { status: Working['status']; conditions: HorizontalPodAutoscalerCondition[] },
  ): Promise<void> {
    this.setStatus(
      w,
      currentReplicas,
      w.status.desiredReplicas,
      w.status.currentCPUUtilizationPercentage,
      false,
    );
    await this.updateStatusIfNeeded(w, original).catch((e) => this.ctx.logger.error(errorMessage(e)));
  }

  private async updateStatusIfNeeded(
    w: Working,
    original: { status: Working['status']; conditions: HorizontalPodAutoscalerCondition[] },
  ): Promise<void> {
    if (isDeepStrictEqual(original.status, w.status) && isDeepStrictEqual(original.conditions, w.conditions))
      return;
    try {
      await this.hpas.updateStatus({
        ...w.hpa,
        metadata: { ...w.hpa.metadata, annotations: annotationsWithConditions(w.hpa, w.conditions) },
        status: w.status,
      });
    } catch (err) {
      this.event(w, 'Warning', 'FailedUpdateStatus', errorMessage(err));
      throw new Error(`failed to update status for ${w.hpa.metadata?.name}: ${errorMessage(err)}`, {
        cause: err,
      });
    }
  }
}

const emptyStatus = (): Working['status'] => ({ currentReplicas: 0, desiredReplicas: 0 });
