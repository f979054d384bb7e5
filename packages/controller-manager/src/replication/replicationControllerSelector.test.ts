import { labelSelectorAsSelector, type ReplicationController } from '@orch/api';
import { replicationControllerSelector } from './replicationControllerSelector';

const rc = (selector: Record<string, string> | undefined): ReplicationController => ({
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas: 2, ...(selector ? { selector } : {}) },
});

describe('replicationControllerSelector', () => {
  test('the label map becomes matchLabels, selecting pods carrying every label', () => {
    const ls = replicationControllerSelector(rc({ app: 'web', tier: 'front' }));
    expect(ls).toEqual({ matchLabels: { app: 'web', tier: 'front' } });
    const selector = labelSelectorAsSelector(ls);
    expect(selector.matches({ app: 'web', tier: 'front', extra: 'x' })).toBe(true);
    expect(selector.matches({ app: 'web' })).toBe(false);
    expect(selector.matches({ app: 'db', tier: 'front' })).toBe(false);
  });

  test('no selector selects nothing; an empty map selects everything, as a ReplicaSet would', () => {
    expect(replicationControllerSelector(rc(undefined))).toBeUndefined();
    expect(
      labelSelectorAsSelector(replicationControllerSelector(rc(undefined))).matches({ app: 'web' }),
    ).toBe(false);
    expect(labelSelectorAsSelector(replicationControllerSelector(rc({}))).empty()).toBe(true);
  });

  test('the selector is a copy', () => {
    const obj = rc({ app: 'web' });
    const ls = replicationControllerSelector(obj)!;
    (ls.matchLabels as Record<string, string>).app = 'changed';
    expect(obj.spec?.selector).toEqual({ app: 'web' });
  });
});
