import { formatTime, type Pod } from '@orch/api';
import { conditionUnchanged } from '../../client/restSchedulerClient';
import type { CycleState } from '../../framework/cycleState';
import { fitErrorMessage, NO_NODES_AVAILABLE } from '../../framework/fitError';
import type { FrameworkHandle, PostFilterPlugin, PostFilterResult } from '../../framework/interfaces';
import type { NodeInfo } from '../../framework/nodeInfo';
import { Code, Status } from '../../framework/status';
import { podPriority } from '../prioritysort/prioritySort';
import {
  calculateNumCandidates,
  validateDefaultPreemptionArgs,
  type DefaultPreemptionArgs,
} from './defaultPreemptionArgs';
import { pickOneNodeForPreemption, type Candidate } from './pickOneNodeForPreemption';
import { selectVictimsOnNode } from './selectVictimsOnNode';

export const DEFAULT_PREEMPTION = 'DefaultPreemption';
/** The feature gate under which victims get the DisruptionTarget condition before deletion. */
export const POD_DISRUPTION_CONDITIONS = 'PodDisruptionConditions';
/** The feature gate under which a pod's preemptionPolicy Never keeps it from preempting. */
export const NON_PREEMPTING_PRIORITY = 'NonPreemptingPriority';
/** Kubernetes' reason for nodes the filters found unresolvable. */
export const ERR_PREEMPTION_NOT_HELPFUL = 'Preemption is not helpful for scheduling';
export const ERR_NOT_ELIGIBLE_NEVER = 'not eligible due to preemptionPolicy=Never.';
export const ERR_NOT_ELIGIBLE_TERMINATING = 'not eligible due to a terminating pod on the nominated node.';
export const REASON_PREEMPTION_BY_SCHEDULER = 'PreemptionByScheduler';

/** The DisruptionTarget condition a victim gets (when PodDisruptionConditions is on). */
export function preemptionCondition(preemptor: Pod): {
  type: string;
  status: string;
  reason: string;
  message: string;
} {
  return {
    type: 'DisruptionTarget',
    status: 'True',
    reason: REASON_PREEMPTION_BY_SCHEDULER,
    message: `${preemptor.spec?.schedulerName || 'default-scheduler'}: preempting to accommodate a higher priority pod`,
  };
}

/**
 * A pod being deleted because of preemption: with PodDisruptionConditions on, only one that carries
 * the scheduler's DisruptionTarget condition; otherwise any pod being deleted.
 */
export function podTerminatingByPreemption(pod: Pod, disruptionConditions: boolean): boolean {
  if (!pod.metadata?.deletionTimestamp) return false;
  if (!disruptionConditions) return true;
  const c = pod.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
  return c?.status === 'True' && c.reason === REASON_PREEMPTION_BY_SCHEDULER;
}

interface PreemptOutcome {
  status: Status;
  nominatedNodeName?: string;
}

/**
 * Kubernetes' DefaultPreemption PostFilter plugin: when a pod fits no node, find nodes where
 * evicting lower-priority pods makes it fit, pick the one where preemption hurts least, evict its
 * victims and nominate the node for the pod, which is retried once they are gone.
 */
export class DefaultPreemption implements PostFilterPlugin {
  readonly name = DEFAULT_PREEMPTION;
  readonly args: Required<DefaultPreemptionArgs>;

  constructor(
    args: unknown,
    private readonly handle: FrameworkHandle,
    private readonly random: () => number = Math.random,
  ) {
    this.args = validateDefaultPreemptionArgs(args, `${DEFAULT_PREEMPTION} args`);
  }

  async postFilter(
    state: CycleState,
    pod: Pod,
    filteredNodeStatuses: ReadonlyMap<string, Status>,
  ): Promise<PostFilterResult> {
    try {
      const r = await this.preempt(state, pod, filteredNodeStatuses);
      const message = r.status.message();
      return message ? { ...r, status: new Status(r.status.code, [`preemption: ${message}`]) } : r;
    } finally {
      this.handle.metrics.preemptionAttempted();
    }
  }

  private async preempt(
    state: CycleState,
    podIn: Pod,
    statuses: ReadonlyMap<string, Status>,
  ): Promise<PreemptOutcome> {
    // The latest version of the pod (its nomination may have changed).
    const pod = this.handle.getPod(podIn.metadata?.namespace ?? '', podIn.metadata?.name ?? '') ?? podIn;
    const nominated = pod.status?.nominatedNodeName ?? '';
    const ineligible = this.podEligibleToPreemptOthers(pod, statuses.get(nominated));
    if (ineligible) return { status: Status.unschedulable(ineligible) };

    const allNodes = this.handle.nodeInfos();
    if (allNodes.length === 0) return { status: Status.error(NO_NODES_AVAILABLE) };
    const nodeStatuses = new Map<string, Status>();
    const potential: NodeInfo[] = [];
    for (const info of allNodes) {
      if (statuses.get(info.name)?.code === Code.UnschedulableAndUnresolvable)
        nodeStatuses.set(info.name, Status.unresolvable(ERR_PREEMPTION_NOT_HELPFUL));
      else potential.push(info);
    }
    let candidates: Candidate[] = [];
    if (potential.length === 0) await this.clearNominatedNodeName(pod);
    else candidates = this.dryRunPreemption(state, pod, potential, nodeStatuses);
    if (candidates.length === 0)
      // '' clears the pod's nomination.
      return {
        status: Status.unschedulable(fitErrorMessage(nodeStatuses.size, nodeStatuses)),
        nominatedNodeName: '',
      };
    const best = pickOneNodeForPreemption(candidates);
    if (!best) return { status: Status.unschedulable('no candidate node for preemption') };
    const prepared = await this.prepareCandidate(best, pod);
    if (!prepared.isSuccess()) return { status: prepared };
    return { status: Status.success(), nominatedNodeName: best.name };
  }

  /**
   * Why the pod may not preempt (preemptionPolicy Never, with the NonPreemptingPriority gate on; its
   * nominated node is being cleared), else undefined.
   */
  podEligibleToPreemptOthers(pod: Pod, nominatedNodeStatus: Status | undefined): string | undefined {
    if (pod.spec?.preemptionPolicy === 'Never' && this.handle.featureEnabled(NON_PREEMPTING_PRIORITY))
      return ERR_NOT_ELIGIBLE_NEVER;
    const nominated = pod.status?.nominatedNodeName;
    if (!nominated) return undefined;
    // The filters say the nominated node cannot take the pod at all: preempt elsewhere.
    if (nominatedNodeStatus?.code === Code.UnschedulableAndUnresolvable) return undefined;
    const info = this.handle.nodeInfos().find((n) => n.name === nominated);
    if (!info) return undefined;
    const priority = podPriority(pod);
    const conditions = this.handle.featureEnabled(POD_DISRUPTION_CONDITIONS);
    for (const p of info.pods.values())
      if (podPriority(p) < priority && podTerminatingByPreemption(p, conditions))
        return ERR_NOT_ELIGIBLE_TERMINATING;
    return undefined;
  }

  /**
   * Dry-runs preemption on copies of the nodes, starting at a random node, until enough candidates
   * were found (at least one without PodDisruptionBudget violations); records why the others fail.
   */
  private dryRunPreemption(
    state: CycleState,
    pod: Pod,
    potential: readonly NodeInfo[],
    nodeStatuses: Map<string, Status>,
  ): Candidate[] {
    const pdbs = this.handle.podDisruptionBudgets();
    const offset = Math.floor(this.random() * potential.length);
    const numCandidates = calculateNumCandidates(this.args, potential.length);
    const nonViolating: Candidate[] = [];
    const violating: Candidate[] = [];
    for (let i = 0; i < potential.length; i++) {
      const info = potential[(offset + i) % potential.length]!.clone();
      const { victims, status } = selectVictimsOnNode(this.handle, state.clone(), pod, info, pdbs);
      if (status.isSuccess() && victims && victims.pods.length > 0) {
        (victims.numPDBViolations === 0 ? nonViolating : violating).push({ name: info.name, victims });
        if (nonViolating.length > 0 && nonViolating.length + violating.length >= numCandidates) break;
        continue;
      }
      nodeStatuses.set(
        info.name,
        status.isSuccess() ? Status.error(`expected at least one victim pod on node "${info.name}"`) : status,
      );
    }
    return [...nonViolating, ...violating];
  }

  /**
   * Evicts the victims (rejecting those waiting at Permit instead), each with a Preempted event,
   * and clears the nomination of lower-priority pods nominated to the node, which may no longer fit.
   */
  private async prepareCandidate(c: Candidate, pod: Pod): Promise<Status> {
    const conditions = this.handle.featureEnabled(POD_DISRUPTION_CONDITIONS);
    const condition = preemptionCondition(pod);
    const errors: string[] = [];
    await Promise.all(
      c.victims.pods.map(async (victim) => {
        const waiting = this.handle.getWaitingPod(victim.metadata?.uid ?? '');
        try {
          if (waiting) waiting.reject('preempted');
          else {
            if (conditions && !conditionUnchanged(victim, condition))
              await this.handle.client.patchPodStatus(victim, {
                conditions: [
                  { ...condition, lastProbeTime: null, lastTransitionTime: formatTime(Date.now()) },
                ],
              });
            await this.handle.client.deletePod(victim);
          }
        } catch (err) {
          errors.push(err instanceof Error ? err.message : String(err));
          return;
        }
        this.handle.client.event(
          victim,
          'Normal',
          'Preempted',
          'Preempting',
          `Preempted by pod ${pod.metadata?.uid ?? ''} on node ${c.name}`,
        );
      }),
    );
    if (errors.length > 0) return Status.error(errors[0]!);
    this.handle.metrics.preemptionVictims(c.victims.pods.length);
    const priority = podPriority(pod);
    const lower = this.handle.nominatedPodsForNode(c.name).filter((p) => podPriority(p) < priority);
    await Promise.all(lower.map((p) => this.clearNominatedNodeName(p)));
    return Status.success();
  }

  /** Drops status.nominatedNodeName of a pod that has one (failures are not critical). */
  private async clearNominatedNodeName(pod: Pod): Promise<void> {
    if (!pod.status?.nominatedNodeName) return;
    await this.handle.client.patchPodStatus(pod, { nominatedNodeName: null }).catch(() => undefined);
  }
}
