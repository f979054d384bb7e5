import type { Taint, Toleration } from '../../kinds';
import { toleratesTaint } from './taints';

describe('toleratesTaint', () => {
  const taint: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
  it.each<[string, Toleration, boolean]>([
    [
      'Equal with same key, value and effect',
      { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
      true,
    ],
    ['empty operator means Equal', { key: 'dedicated', value: 'gpu' }, true],
    ['Equal with another value', { key: 'dedicated', operator: 'Equal', value: 'cpu' }, false],
    ['Exists on the key', { key: 'dedicated', operator: 'Exists' }, true],
    ['Exists with empty key matches every taint', { operator: 'Exists' }, true],
    ['another effect', { key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }, false],
    ['another key', { key: 'other', operator: 'Exists' }, false],
    [
      'empty effect matches all effects',
      { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: '' },
      true,
    ],
  ])('%s', (_name, toleration, want) => {
    expect(toleratesTaint(toleration, taint)).toBe(want);
  });
});
