import { isPodPhaseTerminal, setCondition, nowTime as metaNow, type KindDeclaration } from '@orch/api';
import { statusErrors } from '../../errors/status-error';
import type { SubresourceHandler } from '../custom-handlers';
import { clone, type ApiObject } from '../object';
import { Strategy } from '../strategy';
import { evictPod } from './pod-eviction';
import { podConnectHandler } from './pod-connect';
import { podLogHandler, type KubeletClientConfig } from './pod-log';
import { proxyHandler } from './proxy';
import { podLocation } from './proxy-location';

interface PodSpecLike {
  nodeName?: string;
  terminationGracePeriodSeconds?: number;
  containers?: { resources?: { requests?: Record<string, string>; limits?: Record<string, string> } }[];
  initContainers?: PodSpecLike['containers'];
  schedulingGates?: { name: string }[];
}

interface PodStatusLike {
  phase?: string;
  qosClass?: string;
  conditions?: {
    type: string;
    status: string;
    reason?: string;
    message?: string;
    lastTransitionTime?: string;
    lastProbeTime?: string | null;
  }[];
}

const computeResources = ['cpu', 'memory'];

/** Kubernetes' QoS class: Guaranteed when every container's requests equal its limits, BestEffort with none. */
export function qosClassOf(spec: PodSpecLike): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const containers = [...(spec.containers ?? []), ...(spec.initContainers ?? [])];
  let any = false;
  let guaranteed = true;
  const limitsSeen = new Set<string>();
  for (const c of containers) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    for (const r of computeResources) {
      if (req[r] !== undefined || lim[r] !== undefined) any = true;
      if (lim[r] !== undefined) limitsSeen.add(r);
      if (lim[r] === undefined || (req[r] !== undefined && req[r] !== lim[r])) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed && computeResources.every((r) => limitsSeen.has(r)) ? 'Guaranteed' : 'Burstable';
}

/**
 * Pods: Pending with a QoS class on create, graceful deletion, and the binding, eviction, log,
 * exec, attach, portforward and proxy subresources (the node agent's ones reached as `kubelet` says).
 */
export class PodStrategy extends Strategy {
  override returnDeletedObject = true;

  constructor(
    declaration: KindDeclaration<any>,
    private readonly kubelet: () => KubeletClientConfig | undefined = () => undefined,
  ) {
    super(declaration);
  }

  override prepareForCreate(obj: ApiObject, now: Date): void {
    super.prepareForCreate(obj, now);
    const spec = (obj.spec ?? {}) as PodSpecLike;
    const status: PodStatusLike = { phase: 'Pending', qosClass: qosClassOf(spec) };
    // a gated pod says why it is not scheduled yet (kubectl shows SchedulingGated)
    if (spec.schedulingGates?.length) {
      status.conditions = setCondition(
        [],
        {
          type: 'PodScheduled',
          status: 'False',
          reason: 'SchedulingGated',
          message: 'Scheduling is blocked due to non-empty scheduling gates',
        },
        () => now.getTime(),
      );
    }
    obj.status = status;
  }

  /**
   * A pod bound to a node gets its grace period (the request's, else the pod's
   * terminationGracePeriodSeconds, else 30 s) for its node agent to stop it; a pod that never ran or has
   * finished goes at once.
   */
  override gracePeriod(obj: ApiObject, requested: number | undefined): number | undefined {
    const spec = (obj.spec ?? {}) as PodSpecLike;
    const status = (obj.status ?? {}) as PodStatusLike;
    if (!spec.nodeName) return 0;
    if (isPodPhaseTerminal(status.phase)) return 0;
    return requested ?? spec.terminationGracePeriodSeconds ?? 30;
  }

  override readonly connectSubresources = ['proxy'];

  override readonly subresources: Record<string, SubresourceHandler> = {
    eviction: evictPod,
    log: (store, request) => podLogHandler(this.kubelet)(store, request),
    exec: (store, request) => podConnectHandler('exec', this.kubelet)(store, request),
    attach: (store, request) => podConnectHandler('attach', this.kubelet)(store, request),
    portforward: (store, request) => podConnectHandler('portforward', this.kubelet)(store, request),
    proxy: proxyHandler('pod', podLocation),
    binding: async (store, request) => {
      if (request.verb !== 'create')
        throw statusErrors.methodNotAllowed(
          'the server does not allow this method on the requested resource',
        );
      const binding = request.body ?? ({} as ApiObject);
      const target = binding.target as { kind?: string; name?: string } | undefined;
      // the pod bound is the URL's: a Binding naming another (or none) is refused (BindingREST.Create)
      const name = request.name;
      if ((binding.metadata?.name ?? '') !== name)
        throw statusErrors.badRequest('name in URL does not match name in Binding object');
      if (!target?.name) {
        throw statusErrors.invalid(
          'Binding',
          '',
          name,
          `Binding "${name}" is invalid: target.name: Required value`,
          [{ reason: 'FieldValueRequired', message: 'Required value', field: 'target.name' }],
        );
      }
      if (target.kind && target.kind !== 'Node') {
        throw statusErrors.invalid(
          'Binding',
          '',
          name,
          `Binding "${name}" is invalid: target.kind: Unsupported value: "${target.kind}": supported values: "Node"`,
          [
            {
              reason: 'FieldValueNotSupported',
              message: `Unsupported value: "${target.kind}": supported values: "Node"`,
              field: 'target.kind',
            },
          ],
        );
      }
      await store.update(
        request.scope,
        name,
        (current) => {
          if (!current) throw statusErrors.notFound({ group: '', resource: 'pods' }, name);
          const pod = clone(current);
          if (pod.metadata.deletionTimestamp) {
            throw statusErrors.conflict(
              { group: '', resource: 'pods' },
              name,
              'pod is being deleted, cannot be assigned to a host',
            );
          }
          const spec = (pod.spec ?? {}) as PodSpecLike;
          if (spec.nodeName) {
            throw statusErrors.conflict(
              { group: '', resource: 'pods' },
              name,
              `pod ${name} is already assigned to node "${spec.nodeName}"`,
            );
          }
          spec.nodeName = target.name;
          pod.spec = spec;
          const annotations = binding.metadata?.annotations;
          if (annotations) pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), ...annotations };
          const status = (pod.status ?? {}) as PodStatusLike;
          status.conditions = setCondition(status.conditions ?? [], {
            type: 'PodScheduled',
            status: 'True',
            lastProbeTime: null,
            lastTransitionTime: metaNow(),
          }) as PodStatusLike['conditions'];
          pod.status = status;
          delete pod.metadata.resourceVersion;
          return pod;
        },
        request.options,
        'binding',
      );
      return {
        code: 201,
        object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 },
      };
    },
  };
}
