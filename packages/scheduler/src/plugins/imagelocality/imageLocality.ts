import type { Container, Pod } from '@orch/api';
import type { CycleState } from '../../framework/cycleState';
import { MAX_NODE_SCORE, type FrameworkHandle, type ScorePlugin } from '../../framework/interfaces';
import type { NodeInfo } from '../../framework/nodeInfo';

export const IMAGE_LOCALITY = 'ImageLocality';

const MB = 1024 * 1024;
/** Below this, images on a node add nothing to its score. */
export const MIN_THRESHOLD = 23 * MB;
/** The image size per container at which a node scores the most. */
export const MAX_CONTAINER_THRESHOLD = 1000 * MB;

const STATE_KEY = IMAGE_LOCALITY;

/** What the cycle counted once: on how many nodes each image name is, and how many nodes there are. */
interface Spread {
  numNodes: Map<string, number>;
  totalNodes: number;
}

/** An image name as nodes report it: with the `latest` tag when it names none (nor a digest). */
export function normalizedImageName(name: string): string {
  return name.lastIndexOf(':') <= name.lastIndexOf('/') ? `${name}:latest` : name;
}

/**
 * MAX scaled by where the sum of the image scores falls between MIN_THRESHOLD and
 * MAX_CONTAINER_THRESHOLD times the number of containers (clamped).
 */
export function imageLocalityPriority(sumScores: number, numContainers: number): number {
  const maxThreshold = MAX_CONTAINER_THRESHOLD * numContainers;
  const sum = Math.min(Math.max(sumScores, MIN_THRESHOLD), Math.max(maxThreshold, MIN_THRESHOLD));
  if (maxThreshold <= MIN_THRESHOLD) return 0;
  return Math.trunc((MAX_NODE_SCORE * (sum - MIN_THRESHOLD)) / (maxThreshold - MIN_THRESHOLD));
}

/**
 * Favours nodes that already have the images of the pod's containers (Kubernetes' ImageLocality):
 * each present image counts its size scaled by the share of nodes that have it, so that images
 * everywhere do not pile pods onto the same few nodes. Init containers do not count.
 */
export class ImageLocality implements ScorePlugin {
  readonly name = IMAGE_LOCALITY;

  constructor(private readonly handle: FrameworkHandle) {}

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    const containers: readonly Container[] = pod.spec?.containers ?? [];
    const spread = this.spread(state);
    const sizes = imageSizes(nodeInfo);
    let sum = 0;
    for (const c of containers) {
      const name = normalizedImageName(c.image ?? '');
      const size = sizes.get(name);
      if (size === undefined) continue;
      sum += Math.trunc(size * ((spread.numNodes.get(name) ?? 0) / spread.totalNodes));
    }
    return imageLocalityPriority(sum, containers.length);
  }

  /** The image spread over the cluster's nodes, counted once per cycle. */
  private spread(state: CycleState): Spread {
    const cached = state.read<Spread>(STATE_KEY);
    if (cached) return cached;
    const infos = this.handle.nodeInfos();
    const numNodes = new Map<string, number>();
    for (const info of infos) {
      for (const name of imageSizes(info).keys()) numNodes.set(name, (numNodes.get(name) ?? 0) + 1);
    }
    const spread: Spread = { numNodes, totalNodes: infos.length };
    state.write(STATE_KEY, spread);
    return spread;
  }
}

/** The size of each image name the node reports (the first entry naming it). */
function imageSizes(nodeInfo: NodeInfo): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const image of nodeInfo.node?.status?.images ?? []) {
    for (const name of image.names ?? []) {
      if (!sizes.has(name)) sizes.set(name, Number(image.sizeBytes ?? 0));
    }
  }
  return sizes;
}
