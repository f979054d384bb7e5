import { createHash } from 'node:crypto';
import type { Node } from '@orch/api';
import { simulatedImageID } from './podTimeline';

export type ContainerImage = NonNullable<NonNullable<Node['status']>['images']>[number];

/** The kubelet's --node-status-max-images: the largest images a node status lists. */
export const NODE_STATUS_MAX_IMAGES = 50;

const MB = 1024 * 1024;

/** A simulated image's size: between 20 MB and 500 MB, the same for the same name on every node. */
export function simulatedImageSize(image: string): number {
  const n = createHash('sha256').update(`size:${image}`).digest().readUInt32BE(0);
  return 20 * MB + (n % (480 * MB));
}

/** The names the container runtime gives an image: its digest reference, and its tag (`latest` if none). */
function imageNames(image: string): string[] {
  const tagged =
    image.includes('@') || image.lastIndexOf(':') > image.lastIndexOf('/') ? image : `${image}:latest`;
  const digest = simulatedImageID(image).replace(/^docker-pullable:\/\//, '');
  return [digest.replace(/:[^/@]*@/, '@'), tagged];
}

/**
 * The images present on each simulated node: those its containers have started from. The node
 * reports them in status.images as the kubelet does, the largest first and at most
 * {@link NODE_STATUS_MAX_IMAGES}; the scheduler's ImageLocality reads them.
 */
export class NodeImages {
  private readonly byNode = new Map<string, Set<string>>();
  /** Each node's status.images as last computed; dropped when the node gains an image. */
  private readonly listed = new Map<string, readonly ContainerImage[]>();

  /** Notes that a container of `nodeName` started from `image`; true when the node did not have it. */
  add(nodeName: string, image: string): boolean {
    if (!image) return false;
    let images = this.byNode.get(nodeName);
    if (!images) this.byNode.set(nodeName, (images = new Set()));
    if (images.has(image)) return false;
    images.add(image);
    this.listed.delete(nodeName);
    return true;
  }

  /**
   * The node's images as status.images lists them. Computed once for each set of images: every
   * status the node computes asks again, and the list changes only when {@link add} says so.
   */
  list(nodeName: string): readonly ContainerImage[] {
    let listed = this.listed.get(nodeName);
    if (!listed) {
      listed = [...(this.byNode.get(nodeName) ?? [])]
        .map((image) => ({ image, size: simulatedImageSize(image) }))
        .sort((a, b) => b.size - a.size || a.image.localeCompare(b.image))
        .slice(0, NODE_STATUS_MAX_IMAGES)
        .map(({ image, size }) => ({ names: imageNames(image), sizeBytes: size }));
      this.listed.set(nodeName, listed);
    }
    return listed;
  }
}
