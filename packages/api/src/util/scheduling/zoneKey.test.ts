import type { Node } from '../../kinds/core/node';
import { nodeZoneKey } from './zoneKey';

const withLabels = (labels?: Record<string, string>): Node =>
  ({ metadata: { name: 'n', ...(labels ? { labels } : {}) } }) as Node;

describe('nodeZoneKey', () => {
  it.each<[string, Record<string, string> | undefined, string]>([
    ['no labels', undefined, ''],
    [
      'stable labels',
      { 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': 'z' },
      'r:\x00:z',
    ],
    [
      'beta labels',
      { 'failure-domain.beta.kubernetes.io/region': 'r', 'failure-domain.beta.kubernetes.io/zone': 'z' },
      'r:\x00:z',
    ],
    ['a zone without a region', { 'topology.kubernetes.io/zone': 'z' }, ':\x00:z'],
    ['empty values', { 'topology.kubernetes.io/zone': '' }, ''],
  ])('%s', (_name, labels, key) => {
    expect(nodeZoneKey(withLabels(labels))).toBe(key);
  });
});
