import { NODE_STATUS_MAX_IMAGES, NodeImages, simulatedImageSize } from './nodeImages';

const MB = 1024 * 1024;

describe('NodeImages', () => {
  test('a node lists the images its containers started from, with their digest and tag names', () => {
    const images = new NodeImages();
    expect(images.add('n0', 'nginx')).toBe(true);
    expect(images.add('n0', 'nginx')).toBe(false);
    expect(images.add('n0', 'registry.local:5000/app:1.2')).toBe(true);
    expect(images.add('n0', '')).toBe(false);
    expect(images.list('n1')).toEqual([]);
    const listed = images.list('n0');
    expect(listed.map((i) => i.names?.[1]).sort()).toEqual(['nginx:latest', 'registry.local:5000/app:1.2']);
    const app = listed.find((i) => i.names?.[1] === 'registry.local:5000/app:1.2')!;
    expect(app.names?.[0]).toMatch(/^registry\.local:5000\/app@sha256:[0-9a-f]{64}$/);
    expect(listed.find((i) => i.names?.[1] === 'nginx:latest')!.names?.[0]).toMatch(
      /^nginx@sha256:[0-9a-f]{64}$/,
    );
  });

  test('the list is computed once for each set of images, and again after an image is added', () => {
    const images = new NodeImages();
    images.add('n0', 'nginx');
    const first = images.list('n0');
    expect(images.list('n0')).toBe(first);
    images.add('n0', 'nginx');
    expect(images.list('n0')).toBe(first);
    images.add('n1', 'redis');
    expect(images.list('n0')).toBe(first);
    images.add('n0', 'redis');
    const second = images.list('n0');
    expect(second).not.toBe(first);
    expect(second.map((i) => i.names?.[1]).sort()).toEqual(['nginx:latest', 'redis:latest']);
  });

  test('sizes are the same for the same name, between 20 and 500 MB; the largest come first, 50 at most', () => {
    expect(simulatedImageSize('nginx')).toBe(simulatedImageSize('nginx'));
    const images = new NodeImages();
    for (let i = 0; i < 60; i++) images.add('n0', `img-${i}:v1`);
    const listed = images.list('n0');
    expect(listed).toHaveLength(NODE_STATUS_MAX_IMAGES);
    const sizes = listed.map((i) => i.sizeBytes ?? 0);
    expect([...sizes].sort((a, b) => b - a)).toEqual(sizes);
    for (const size of sizes) {
      expect(size).toBeGreaterThanOrEqual(20 * MB);
      expect(size).toBeLessThan(500 * MB);
    }
  });
});
