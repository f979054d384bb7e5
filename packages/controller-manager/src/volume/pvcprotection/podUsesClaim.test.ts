import type { Pod } from '@orch/api';
import { claim } from '../../testing/volumes';
import { podClaimNames, podUsesClaim } from './podUsesClaim';

const pod = (nodeName: string | undefined, claimName: string, extra: Partial<Pod['metadata']> = {}): Pod =>
  ({
    metadata: { name: 'p', namespace: 'ns', ...extra },
    spec: {
      nodeName,
      containers: [{ name: 'c', image: 'i' }],
      volumes: [
        { name: 'cfg', configMap: { name: 'x' } },
        { name: 'data', persistentVolumeClaim: { claimName } },
      ],
    },
  }) as Pod;

test('a scheduled pod naming the claim uses it, whatever its phase; an unscheduled one does not', () => {
  const c = claim('data', '1Gi');
  expect(podUsesClaim(pod('n1', 'data'), c)).toBe(true);
  const finished = pod('n1', 'data');
  finished.status = { phase: 'Succeeded' };
  expect(podUsesClaim(finished, c)).toBe(true);
  expect(podUsesClaim(pod(undefined, 'data'), c)).toBe(false);
  expect(podUsesClaim(pod('n1', 'other'), c)).toBe(false);
  expect(podUsesClaim(pod('n1', 'data', { namespace: 'elsewhere' }), c)).toBe(false);
  expect(podClaimNames(pod('n1', 'data'))).toEqual(['data']);
});
