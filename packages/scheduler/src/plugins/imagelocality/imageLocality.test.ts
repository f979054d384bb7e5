import type { Node, Pod } from '@orch/api';
import { CycleState } from '../../framework/cycleState';
import type { FrameworkHandle } from '../../framework/interfaces';
import { NodeInfo } from '../../framework/nodeInfo';
import { makeNode, makePod } from '../../testing/fixtures';
import { ImageLocality, imageLocalityPriority, normalizedImageName } from './imageLocality';

const MB = 1024 * 1024;

function withImages(name: string, images: [string[], number][]): Node {
  const node = makeNode(name);
  node.status!.images = images.map(([names, mb]) => ({ names, sizeBytes: mb * MB }));
  return node;
}

function podWith(images: string[], initImages: string[] = []): Pod {
  const pod = makePod('p');
  pod.spec!.containers = images.map((image, i) => ({ name: `c${i}`, image }));
  if (initImages.length > 0)
    pod.spec!.initContainers = initImages.map((image, i) => ({ name: `i${i}`, image }));
  return pod;
}

function scores(pod: Pod, nodes: Node[]): number[] {
  const infos = nodes.map((n) => new NodeInfo(n));
  const plugin = new ImageLocality({ nodeInfos: () => infos } as unknown as FrameworkHandle);
  const state = new CycleState();
  return infos.map((info) => plugin.score(state, pod, info));
}

describe('ImageLocality', () => {
  it('scores the image size, scaled by the share of nodes with it, between 23MB and 1000MB', () => {
    const nodes = [
      withImages('node-1', [[['gcr.io/app:latest', 'gcr.io/app:v1'], 500]]),
      withImages('node-2', []),
    ];
    // 500MB * 1/2 nodes = 250MB: 100 * (250 - 23) / (1000 - 23)
    expect(scores(podWith(['gcr.io/app']), nodes)).toEqual([23, 0]);
    // the same image anywhere else counts its whole size
    const both = [nodes[0]!, withImages('node-2', [[['gcr.io/app:latest'], 500]])];
    expect(scores(podWith(['gcr.io/app:latest']), both)).toEqual([48, 48]);
  });

  it('clamps to the thresholds', () => {
    const nodes = [
      withImages('node-1', [[['big:latest'], 3000]]),
      withImages('node-2', [[['small:latest'], 20]]),
    ];
    expect(scores(podWith(['big']), nodes.slice(0, 1))).toEqual([100]);
    expect(scores(podWith(['small']), nodes.slice(1))).toEqual([0]);
  });

  it('scales the upper threshold by the number of containers, ignoring init containers', () => {
    const node = withImages('node-1', [
      [['a:latest'], 1000],
      [['b:latest'], 1000],
      [['init:latest'], 1000],
    ]);
    expect(scores(podWith(['a', 'b']), [node])).toEqual([100]);
    // 1000MB of 2000MB: 100 * (1000 - 23) / (2000 - 23)
    expect(scores(podWith(['a', 'missing']), [node])).toEqual([49]);
    expect(scores(podWith(['missing'], ['init']), [node])).toEqual([0]);
  });

  it('matches names only up to the implicit latest tag, as Kubernetes 1.19 does', () => {
    const node = withImages('node-1', [[['docker.io/library/nginx:latest'], 500]]);
    expect(scores(podWith(['docker.io/library/nginx']), [node])).toEqual([48]);
    expect(scores(podWith(['nginx']), [node])).toEqual([0]);
  });

  it.each([
    ['nginx', 'nginx:latest'],
    ['nginx:1.19', 'nginx:1.19'],
    ['registry:5000/team/app', 'registry:5000/team/app:latest'],
    ['app@sha256:0123', 'app@sha256:0123'],
  ])('normalizes %s to %s', (name, normalized) => {
    expect(normalizedImageName(name)).toBe(normalized);
  });

  it('gives pods without containers 0', () => {
    expect(imageLocalityPriority(0, 0)).toBe(0);
  });
});
