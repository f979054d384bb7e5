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

/** What the cycle worked out once: the pod's image names, on how many nodes each is, of how many. */
interface Spread {
  names: string[];
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
    const sizes = imageSizes(nodeInfo);
    if (sizes.size === 0) return imageLocalityPriority(0, containers.length);
    const spread = this.spread(state, containers);
    let sum = 0;
    for (const name of spread.names) {
      const size = sizes.get(name);
      if (size === undefined) continue;
      sum += Math.trunc(size * ((spread.numNodes.get(name) ?? 0) / spread.totalNodes));
    }
    return imageLocalityPriority(sum, containers.length);
  }

  /** The spread of the pod's images over the cluster's nodes, counted once per cycle. */
  private spread(state: CycleState, containers: readonly Container[]): Spread {
    const cached = state.read<Spread>(STATE_KEY);
    if (cached) return cached;
    const names = containers.map((c) => normalizedImageName(c.image ?? ''));
    const infos = this.handle.nodeInfos();
    const distinct = [...new Set(names)];
    const numNodes = new Map<string, number>();
    for (const info of infos) {
      const sizes = imageSizes(info);
      if (sizes.size === 0) continue;
      for (const name of distinct) {
        if (sizes.has(name)) numNodes.set(name, (numNodes.get(name) ?? 0) + 1);
      }
    }
    const spread: Spread = { names, numNodes, totalNodes: infos.length };
    state.write(STATE_KEY, spread);
    return spread;
  }
}

/** Each node's image sizes, worked out once per version of the node (an update replaces the object). */
const sizesOfNode = new WeakMap<object, Map<string, number>>();
const NO_IMAGES: Map<string, number> = new Map();

/** The size of each image name the node reports (the first entry naming it). */
function imageSizes(nodeInfo: NodeInfo): Map<string, number> {
  const node = nodeInfo.node;
  if (!node?.status?.images?.length) return NO_IMAGES;
  let sizes = sizesOfNode.get(node);
  if (!sizes) {
    sizes = new Map();
    for (const image of node.status.images) {
      for (const name of image.names ?? []) {
        if (!sizes.has(name)) sizes.set(name, Number(image.sizeBytes ?? 0));
      }
    }
    sizesOfNode.set(node, sizes);
  }
  return sizes;
}
