import type { Pod } from '../../kinds/core/pod';
import { usesClaims } from './pod-claims';

const withVolumes = (volumes: NonNullable<Pod['spec']>['volumes']): Pod =>
  ({ spec: { containers: [], volumes } }) as Pod;

test('a pod uses claims when it has a persistentVolumeClaim volume naming one', () => {
  expect(usesClaims(withVolumes([{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }]))).toBe(
    true,
  );
  expect(usesClaims(withVolumes([{ name: 'x', emptyDir: {} }]))).toBe(false);
  expect(usesClaims(withVolumes(undefined))).toBe(false);
});
