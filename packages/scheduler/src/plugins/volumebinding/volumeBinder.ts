import {
  ANN_BIND_COMPLETED,
  ANN_SELECTED_NODE,
  findMatchingVolume,
  storageClassOf,
  storageOf,
  volumeBoundToClaim,
  volumeNodeAffinityMatches,
  type Node,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
} from '@orch/api';
import type { SchedulerClient, VolumeListers } from '../../framework/interfaces';
import { AssumeCache } from './assumeCache';
import { matchTopologySelectorTerms } from './matchTopologySelectorTerms';

/** Kubernetes' ConflictReasons of volume binding. */
export const ERR_REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
export const ERR_REASON_NODE_CONFLICT = 'node(s) had volume node affinity conflict';
/** The provisioner of classes whose volumes are created by hand only. */
export const NOT_SUPPORTED_PROVISIONER = 'kubernetes.io/no-provisioner';

/** A volume (assumed bound) for one of the pod's claims. */
export interface BindingInfo {
  volume: PersistentVolume;
  claim: PersistentVolumeClaim;
}

/** What binding the pod's volumes on a node takes: volumes to bind and claims to provision. */
export interface PodVolumes {
  staticBindings: BindingInfo[];
  dynamicProvisions: PersistentVolumeClaim[];
}

/** A pod's claims: bound, to bind on a node (WaitForFirstConsumer), and unbound of Immediate classes. */
export interface PodClaims {
  bound: PersistentVolumeClaim[];
  toBind: PersistentVolumeClaim[];
  unboundImmediate: PersistentVolumeClaim[];
}

export interface VolumeBinderOptions {
  listers: VolumeListers;
  client: Pick<SchedulerClient, 'updatePersistentVolume' | 'updatePersistentVolumeClaim'>;
  /** The node a pod was assumed on (from the scheduler cache). */
  node: (name: string) => Node | undefined;
  /** How long PreBind waits for the claims to be bound. */
  bindTimeoutMs: number;
  /** How often PreBind checks the claims (Kubernetes: every second). */
  pollIntervalMs?: number;
}

const claimKeyOf = (claim: PersistentVolumeClaim): string =>
  `${claim.metadata?.namespace ?? ''}/${claim.metadata?.name ?? ''}`;
const volumeKeyOf = (volume: PersistentVolume): string => volume.metadata?.name ?? '';

function resourceVersion(obj: { metadata?: { resourceVersion?: string } }): bigint {
  try {
    return BigInt(obj.metadata?.resourceVersion ?? '0');
  } catch {
    return 0n;
  }
}

/** A claim is fully bound once it names its volume and the binder marked the binding complete. */
function isClaimFullyBound(claim: PersistentVolumeClaim): boolean {
  return !!claim.spec?.volumeName && claim.metadata?.annotations?.[ANN_BIND_COMPLETED] !== undefined;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Kubernetes' SchedulerVolumeBinder: sorts a pod's claims, finds volumes (or provisioning) for them
 * on a node, assumes its choice in PV and PVC assume caches, and binds through the API, waiting for
 * the PV controller to finish the binding.
 */
export class VolumeBinder {
  readonly volumeCache: AssumeCache<PersistentVolume>;
  readonly claimCache: AssumeCache<PersistentVolumeClaim>;
  private readonly pollIntervalMs: number;

  constructor(private readonly opts: VolumeBinderOptions) {
    this.volumeCache = new AssumeCache('v1.PersistentVolume', (name) => opts.listers.volume(name));
    this.claimCache = new AssumeCache('v1.PersistentVolumeClaim', (key) => {
      const slash = key.indexOf('/');
      return opts.listers.claim(key.slice(0, slash), key.slice(slash + 1));
    });
    this.pollIntervalMs = opts.pollIntervalMs ?? 1000;
  }

  private claim(key: string): PersistentVolumeClaim {
    const claim = this.claimCache.get(key);
    if (!claim)
      throw new Error(`error getting PVC "${key}": could not find v1.PersistentVolumeClaim "${key}"`);
    return claim;
  }

  /** Whether the claim's class binds only once a pod using it is scheduled. */
  private isDelayBinding(claim: PersistentVolumeClaim): boolean {
    const className = storageClassOf(claim);
    if (!className) return false;
    return this.opts.listers.storageClass(className)?.volumeBindingMode === 'WaitForFirstConsumer';
  }

  /** The pod's claims by state (Kubernetes' GetPodVolumes); throws when a claim is missing. */
  podClaims(pod: Pod): PodClaims {
    const result: PodClaims = { bound: [], toBind: [], unboundImmediate: [] };
    const namespace = pod.metadata?.namespace ?? '';
    for (const v of pod.spec?.volumes ?? []) {
      const name = v.persistentVolumeClaim?.claimName;
      if (name === undefined) continue;
      const claim = this.claim(`${namespace}/${name}`);
      if (isClaimFullyBound(claim)) result.bound.push(claim);
      // a claim naming its volume (pre-bound) is the PV controller's to bind
      else if (this.isDelayBinding(claim) && !claim.spec?.volumeName) result.toBind.push(claim);
      else result.unboundImmediate.push(claim);
    }
    return result;
  }

  /** Whether every claim of the pod is fully bound. */
  private arePodVolumesBound(pod: Pod): boolean {
    const namespace = pod.metadata?.namespace ?? '';
    return (pod.spec?.volumes ?? []).every((v) => {
      const name = v.persistentVolumeClaim?.claimName;
      if (name === undefined) return true;
      const claim = this.claimCache.get(`${namespace}/${name}`);
      return claim !== undefined && isClaimFullyBound(claim);
    });
  }

  /**
   * What it takes to bind the pod's volumes on `node` (Kubernetes' FindPodVolumes), with the
   * reasons the node cannot have them; throws on missing objects.
   */
  findPodVolumes(
    bound: readonly PersistentVolumeClaim[],
    toBind: readonly PersistentVolumeClaim[],
    node: Node,
  ): { podVolumes: PodVolumes; reasons: string[] } {
    const podVolumes: PodVolumes = { staticBindings: [], dynamicProvisions: [] };
    const reasons: string[] = [];
    if (!this.boundClaimsSatisfied(bound, node)) reasons.push(ERR_REASON_NODE_CONFLICT);
    if (toBind.length > 0) {
      const toProvision: PersistentVolumeClaim[] = [];
      const toMatch: PersistentVolumeClaim[] = [];
      let satisfied = true;
      for (const claim of toBind) {
        const selected = claim.metadata?.annotations?.[ANN_SELECTED_NODE];
        if (selected === undefined) toMatch.push(claim);
        else if (selected !== node.metadata?.name) satisfied = false;
        else toProvision.push(claim);
      }
      if (satisfied) {
        const unmatched = this.findMatchingVolumes(toMatch, node, podVolumes.staticBindings);
        toProvision.push(...unmatched);
        if (unmatched.length > 0) satisfied = false;
        if (toProvision.length > 0) {
          const provisions = this.checkVolumeProvisions(toProvision, node);
          satisfied = provisions !== undefined;
          podVolumes.dynamicProvisions = provisions ?? [];
        }
      }
      if (!satisfied) reasons.push(ERR_REASON_BIND_CONFLICT);
    }
    return { podVolumes, reasons };
  }

  /** Whether the volumes of the bound claims can be used from the node. */
  private boundClaimsSatisfied(claims: readonly PersistentVolumeClaim[], node: Node): boolean {
    for (const claim of claims) {
      const name = claim.spec?.volumeName ?? '';
      const volume = this.volumeCache.get(name);
      if (!volume) throw new Error(`could not find v1.PersistentVolume "${name}"`);
      if (!volumeNodeAffinityMatches(volume, node.metadata?.labels)) return false;
    }
    return true;
  }

  /**
   * Finds volumes for the claims, smallest request first, each volume for one claim; adds them to
   * `bindings` and returns the claims left without one.
   */
  private findMatchingVolumes(
    claims: readonly PersistentVolumeClaim[],
    node: Node,
    bindings: BindingInfo[],
  ): PersistentVolumeClaim[] {
    const sorted = [...claims].sort((a, b) =>
      storageOf(a.spec?.resources?.requests).cmp(storageOf(b.spec?.resources?.requests)),
    );
    const volumes = this.volumeCache.latest(this.opts.listers.volumes(), volumeKeyOf);
    const chosen = new Set<string>();
    const unmatched: PersistentVolumeClaim[] = [];
    for (const claim of sorted) {
      const className = storageClassOf(claim);
      const ofClass = volumes.filter((v) => storageClassOf(v) === className);
      const volume = findMatchingVolume(claim, ofClass, true, { node, excluded: chosen });
      if (!volume) {
        unmatched.push(claim);
        continue;
      }
      chosen.add(volumeKeyOf(volume));
      bindings.push({ volume, claim });
    }
    return unmatched;
  }

  /**
   * The claims to provision when their classes can provision for the node (a provisioner, and the
   * node within allowedTopologies), else undefined; throws for a claim without a known class.
   */
  private checkVolumeProvisions(
    claims: readonly PersistentVolumeClaim[],
    node: Node,
  ): PersistentVolumeClaim[] | undefined {
    for (const claim of claims) {
      const className = storageClassOf(claim);
      if (!className) throw new Error(`no class for claim "${claimKeyOf(claim)}"`);
      const sc = this.opts.listers.storageClass(className);
      if (!sc) throw new Error(`failed to find storage class "${className}"`);
      if (!sc.provisioner || sc.provisioner === NOT_SUPPORTED_PROVISIONER) return undefined;
      if (!matchTopologySelectorTerms(sc.allowedTopologies, node.metadata?.labels ?? {})) return undefined;
    }
    return [...claims];
  }

  /**
   * Assumes the volumes bound and the claims' selected node in the caches (Kubernetes'
   * AssumePodVolumes); true when the pod's claims are all bound already. `podVolumes` then holds
   * the assumed objects.
   */
  assumePodVolumes(pod: Pod, nodeName: string, podVolumes: PodVolumes): boolean {
    if (this.arePodVolumesBound(pod)) return true;
    const bindings: BindingInfo[] = [];
    const provisions: PersistentVolumeClaim[] = [];
    try {
      for (const b of podVolumes.staticBindings) {
        const volume = volumeBoundToClaim(b.volume, b.claim);
        if (volume) this.volumeCache.assume(volumeKeyOf(volume), volume);
        bindings.push({ volume: volume ?? b.volume, claim: b.claim });
      }
      for (const claim of podVolumes.dynamicProvisions) {
        const annotated = {
          ...claim,
          metadata: {
            ...claim.metadata,
            annotations: { ...claim.metadata?.annotations, [ANN_SELECTED_NODE]: nodeName },
          },
        } as PersistentVolumeClaim;
        this.claimCache.assume(claimKeyOf(annotated), annotated);
        provisions.push(annotated);
      }
    } catch (err) {
      this.revertAssumedPodVolumes({ staticBindings: bindings, dynamicProvisions: provisions });
      throw err;
    }
    podVolumes.staticBindings = bindings;
    podVolumes.dynamicProvisions = provisions;
    return false;
  }

  /** Drops what assumePodVolumes assumed. */
  revertAssumedPodVolumes(podVolumes: PodVolumes): void {
    for (const b of podVolumes.staticBindings) this.volumeCache.restore(volumeKeyOf(b.volume));
    for (const c of podVolumes.dynamicProvisions) this.claimCache.restore(claimKeyOf(c));
  }

  /**
   * Writes the bindings (the volumes' claimRef) and the claims to provision (their selected node),
   * then waits until the PV controller bound every claim (Kubernetes' BindPodVolumes); throws when a
   * write fails, the binding is undone or provisioning fails, or after the bind timeout.
   */
  async bindPodVolumes(pod: Pod, podVolumes: PodVolumes): Promise<void> {
    await this.bindAPIUpdate(podVolumes);
    const deadline = Date.now() + this.opts.bindTimeoutMs;
    for (;;) {
      await sleep(this.pollIntervalMs);
      let done: boolean;
      try {
        done = this.checkBindings(pod, podVolumes);
      } catch (err) {
        throw new Error(`binding volumes: ${err instanceof Error ? err.message : String(err)}`, {
          cause: err,
        });
      }
      if (done) return;
      if (Date.now() >= deadline) throw new Error('binding volumes: timed out waiting for the condition');
    }
  }

  /** The API writes; what was not written is reverted in the caches. */
  private async bindAPIUpdate(podVolumes: PodVolumes): Promise<void> {
    const { staticBindings: bindings, dynamicProvisions: claims } = podVolumes;
    let boundCount = 0;
    let provisionedCount = 0;
    try {
      for (const b of bindings) {
        b.volume = await this.opts.client.updatePersistentVolume(b.volume);
        boundCount++;
      }
      for (let i = 0; i < claims.length; i++) {
        claims[i] = await this.opts.client.updatePersistentVolumeClaim(claims[i]!);
        provisionedCount++;
      }
    } finally {
      this.revertAssumedPodVolumes({
        staticBindings: bindings.slice(boundCount),
        dynamicProvisions: claims.slice(provisionedCount),
      });
    }
  }

  /**
   * Whether the PV controller has bound every claim, judged on the informers' objects (not the
   * assumed ones); throws when binding must be retried.
   */
  private checkBindings(pod: Pod, podVolumes: PodVolumes): boolean {
    const nodeName = pod.spec?.nodeName ?? '';
    const node = this.opts.node(nodeName);
    if (!node) throw new Error(`failed to get node "${nodeName}": node "${nodeName}" not found`);
    const labels = node.metadata?.labels;
    const affinityError = (volume: PersistentVolume): Error =>
      new Error(
        `pv "${volume.metadata?.name}" node affinity doesn't match node "${nodeName}": no matching NodeSelectorTerms`,
      );
    for (const b of podVolumes.staticBindings) {
      const name = volumeKeyOf(b.volume);
      const volume = this.volumeCache.getAPIObject(name);
      if (!volume) throw new Error(`failed to check binding: could not find v1.PersistentVolume "${name}"`);
      const key = claimKeyOf(b.claim);
      const claim = this.claimCache.getAPIObject(key);
      if (!claim)
        throw new Error(`failed to check binding: could not find v1.PersistentVolumeClaim "${key}"`);
      // the informer has not seen our write yet
      if (resourceVersion(b.volume) > resourceVersion(volume)) return false;
      if (!volumeNodeAffinityMatches(volume, labels)) throw affinityError(volume);
      if (!volume.spec?.claimRef?.uid) throw new Error(`ClaimRef got reset for pv "${name}"`);
      if (!isClaimFullyBound(claim)) return false;
    }
    for (const c of podVolumes.dynamicProvisions) {
      const key = claimKeyOf(c);
      const claim = this.claimCache.getAPIObject(key);
      if (!claim)
        throw new Error(`failed to check provisioning pvc: could not find v1.PersistentVolumeClaim "${key}"`);
      if (resourceVersion(c) > resourceVersion(claim)) return false;
      const annotations = claim.metadata?.annotations;
      if (!annotations) throw new Error(`selectedNode annotation reset for PVC "${claim.metadata?.name}"`);
      // the provisioner drops the annotation when provisioning fails
      if (annotations[ANN_SELECTED_NODE] !== nodeName)
        throw new Error(`provisioning failed for PVC "${claim.metadata?.name}"`);
      const volumeName = claim.spec?.volumeName;
      if (volumeName) {
        const volume = this.volumeCache.getAPIObject(volumeName);
        // not seen yet, or deleted (the claim will be unbound then)
        if (!volume) return false;
        if (!volumeNodeAffinityMatches(volume, labels)) throw affinityError(volume);
      }
      if (!isClaimFullyBound(claim)) return false;
    }
    return true;
  }
}
