import type { PersistentVolumeClaim, Pod } from '@orch/api';
import type { CycleState } from '../../framework/cycleState';
import type {
  FilterPlugin,
  FrameworkHandle,
  PreBindPlugin,
  PreFilterPlugin,
  ReservePlugin,
} from '../../framework/interfaces';
import type { NodeInfo } from '../../framework/nodeInfo';
import { Code, Status } from '../../framework/status';
import { VolumeBinder, type PodVolumes } from './volumeBinder';

export const VOLUME_BINDING = 'VolumeBinding';
/** Kubernetes' DefaultBindTimeoutSeconds: how long PreBind waits for the claims to be bound. */
export const DEFAULT_BIND_TIMEOUT_SECONDS = 600;
export const ERR_UNBOUND_IMMEDIATE_PVC = 'pod has unbound immediate PersistentVolumeClaims';
const STATE_KEY = VOLUME_BINDING;

/** The plugin's arguments (KubeSchedulerConfiguration's VolumeBindingArgs). */
export interface VolumeBindingArgs {
  bindTimeoutSeconds?: number;
}

/** Checks VolumeBindingArgs; throws naming the problem. */
export function validateVolumeBindingArgs(args: unknown, path = 'args'): VolumeBindingArgs {
  if (args === undefined || args === null) return {};
  if (typeof args !== 'object' || Array.isArray(args)) throw new Error(`${path}: must be a mapping`);
  const timeout = (args as Record<string, unknown>).bindTimeoutSeconds;
  if (timeout === undefined) return {};
  if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout <= 0)
    throw new Error(`invalid BindTimeoutSeconds: ${String(timeout)}, must be positive integer`);
  return { bindTimeoutSeconds: timeout };
}

interface StateData {
  /** The pod has no claims: nothing to check or bind. */
  skip: boolean;
  boundClaims: PersistentVolumeClaim[];
  claimsToBind: PersistentVolumeClaim[];
  /** Set by Reserve: every claim was bound already. */
  allBound: boolean;
  /** What binding takes on each node that passed Filter. */
  podVolumesByNode: Map<string, PodVolumes>;
}

export interface VolumeBindingOptions {
  /** How often PreBind checks whether the claims are bound (ms, Kubernetes: 1 s). */
  pollIntervalMs?: number;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Kubernetes' VolumeBinding: a pod's PersistentVolumeClaims must exist; those of Immediate classes
 * must be bound; a node fits when the volumes of the bound claims may be used there and every
 * WaitForFirstConsumer claim gets an available volume that suits the node, or can be provisioned
 * for it. Reserve assumes the choice so no other pod takes the same volume; PreBind writes it and
 * waits for the PV controller to finish binding.
 */
export class VolumeBinding implements PreFilterPlugin, FilterPlugin, ReservePlugin, PreBindPlugin {
  readonly name = VOLUME_BINDING;
  readonly binder: VolumeBinder;

  constructor(
    args: VolumeBindingArgs | undefined,
    private readonly handle: FrameworkHandle,
    opts: VolumeBindingOptions = {},
  ) {
    const { bindTimeoutSeconds = DEFAULT_BIND_TIMEOUT_SECONDS } = validateVolumeBindingArgs(args);
    this.binder = new VolumeBinder({
      listers: handle.volumeListers,
      client: handle.client,
      node: (name) => handle.nodeInfos().find((n) => n.name === name)?.node,
      bindTimeoutMs: bindTimeoutSeconds * 1000,
      ...(opts.pollIntervalMs !== undefined ? { pollIntervalMs: opts.pollIntervalMs } : {}),
    });
  }

  /**
   * Whether the pod uses claims; throws when one is missing or being deleted (with the messages of
   * Kubernetes' podHasPVCs).
   */
  private podHasClaims(pod: Pod): boolean {
    let has = false;
    const namespace = pod.metadata?.namespace ?? '';
    for (const v of pod.spec?.volumes ?? []) {
      const name = v.persistentVolumeClaim?.claimName;
      if (name === undefined) continue;
      has = true;
      const claim = this.handle.volumeListers.claim(namespace, name);
      if (!claim) throw new Error(`persistentvolumeclaim "${name}" not found`);
      if (claim.metadata?.deletionTimestamp)
        throw new Error(`persistentvolumeclaim "${name}" is being deleted`);
    }
    return has;
  }

  preFilter(state: CycleState, pod: Pod): Status | undefined {
    let has: boolean;
    try {
      has = this.podHasClaims(pod);
    } catch (err) {
      return Status.unresolvable(errorText(err));
    }
    if (!has) {
      state.write(STATE_KEY, skipState());
      return new Status(Code.Skip);
    }
    let claims;
    try {
      claims = this.binder.podClaims(pod);
    } catch (err) {
      return Status.error(errorText(err));
    }
    // Unschedulable until the PV controller binds them; a claim event moves the pod back.
    if (claims.unboundImmediate.length > 0) return Status.unresolvable(ERR_UNBOUND_IMMEDIATE_PVC);
    state.write(STATE_KEY, {
      skip: false,
      boundClaims: claims.bound,
      claimsToBind: claims.toBind,
      allBound: false,
      podVolumesByNode: new Map(),
    } satisfies StateData);
    return undefined;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const node = nodeInfo.node;
    if (!node) return Status.error('node not found');
    if (!state.read<StateData>(STATE_KEY)) {
      // run without PreFilter: its checks first
      const pre = this.preFilter(state, pod);
      if (pre && pre.code !== Code.Skip) return pre;
    }
    const s = state.read<StateData>(STATE_KEY)!;
    if (s.skip) return undefined;
    let found;
    try {
      found = this.binder.findPodVolumes(s.boundClaims, s.claimsToBind, node);
    } catch (err) {
      return Status.error(errorText(err));
    }
    if (found.reasons.length > 0) return Status.unresolvable(...found.reasons);
    s.podVolumesByNode.set(nodeInfo.name, found.podVolumes);
    return undefined;
  }

  reserve(state: CycleState, pod: Pod, nodeName: string): Status | undefined {
    const s = state.read<StateData>(STATE_KEY);
    if (!s) return Status.error(`error reading "${STATE_KEY}" from cycleState: not found`);
    const podVolumes = s.podVolumesByNode.get(nodeName);
    if (!podVolumes) {
      // the pod uses no claims
      s.allBound = true;
      return undefined;
    }
    try {
      s.allBound = this.binder.assumePodVolumes(pod, nodeName, podVolumes);
    } catch (err) {
      return Status.error(errorText(err));
    }
    return undefined;
  }

  unreserve(state: CycleState, _pod: Pod, nodeName: string): void {
    const podVolumes = state.read<StateData>(STATE_KEY)?.podVolumesByNode.get(nodeName);
    if (podVolumes) this.binder.revertAssumedPodVolumes(podVolumes);
  }

  async preBind(state: CycleState, pod: Pod, nodeName: string): Promise<Status | undefined> {
    const s = state.read<StateData>(STATE_KEY);
    if (!s) return Status.error(`error reading "${STATE_KEY}" from cycleState: not found`);
    if (s.allBound) return undefined;
    const podVolumes = s.podVolumesByNode.get(nodeName);
    if (!podVolumes) return Status.error(`no pod volumes found for node "${nodeName}"`);
    try {
      await this.binder.bindPodVolumes(pod, podVolumes);
    } catch (err) {
      return Status.error(errorText(err));
    }
    return undefined;
  }
}

function skipState(): StateData {
  return { skip: true, boundClaims: [], claimsToBind: [], allBound: true, podVolumesByNode: new Map() };
}
