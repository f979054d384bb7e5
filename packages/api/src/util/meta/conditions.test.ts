import { ConditionLike, getCondition, isConditionTrue, removeCondition, setCondition } from './conditions';

const T0 = '2024-01-01T00:00:00Z';
const T1 = '2024-01-02T00:00:00Z';
const NOW_MS = Date.UTC(2024, 0, 3);
const NOW = '2024-01-03T00:00:00Z';
const now = () => NOW_MS;

interface DeploymentCondition extends ConditionLike {
  lastUpdateTime?: string;
}

describe('getCondition / isConditionTrue', () => {
  const conds: ConditionLike[] = [
    { type: 'Available', status: 'True' },
    { type: 'Progressing', status: 'False' },
  ];
  it.each<[string, string | undefined, boolean]>([
    ['Available', 'True', true],
    ['Progressing', 'False', false],
    ['Missing', undefined, false],
  ])('%s', (type, status, isTrue) => {
    expect(getCondition(conds, type)?.status).toBe(status);
    expect(isConditionTrue(conds, type)).toBe(isTrue);
  });

  it('handles missing lists', () => {
    expect(getCondition(undefined, 'A')).toBeUndefined();
    expect(getCondition(null, 'A')).toBeUndefined();
  });
});

describe('setCondition', () => {
  const base: ConditionLike[] = [
    { type: 'A', status: 'True', reason: 'R', message: 'm', lastTransitionTime: T0 },
    { type: 'B', status: 'False', lastTransitionTime: T0 },
  ];

  it.each<[string, ConditionLike, ConditionLike[]]>([
    [
      'appends a new type with now as transition time',
      { type: 'C', status: 'True' },
      [...base, { type: 'C', status: 'True', lastTransitionTime: NOW }],
    ],
    [
      'appends a new type keeping a given transition time',
      { type: 'C', status: 'True', lastTransitionTime: T1 },
      [...base, { type: 'C', status: 'True', lastTransitionTime: T1 }],
    ],
    [
      'keeps the transition time when the status did not change',
      { type: 'A', status: 'True', reason: 'R2', message: 'm2', lastTransitionTime: T1 },
      [{ type: 'A', status: 'True', reason: 'R2', message: 'm2', lastTransitionTime: T0 }, base[1]!],
    ],
    [
      'takes now when the status changed without a time',
      { type: 'A', status: 'False', reason: 'R' },
      [{ type: 'A', status: 'False', reason: 'R', lastTransitionTime: NOW }, base[1]!],
    ],
    [
      'takes the given time when the status changed',
      { type: 'B', status: 'True', lastTransitionTime: T1 },
      [base[0]!, { type: 'B', status: 'True', lastTransitionTime: T1 }],
    ],
    [
      'updates observedGeneration',
      { type: 'B', status: 'False', observedGeneration: 3 },
      [base[0]!, { type: 'B', status: 'False', observedGeneration: 3, lastTransitionTime: T0 }],
    ],
  ])('%s', (_name, cond, expected) => {
    const before = JSON.stringify(base);
    expect(setCondition(base, cond, now)).toEqual(expected);
    // The input is not modified.
    expect(JSON.stringify(base)).toBe(before);
  });

  it('returns the same array when nothing changed', () => {
    expect(setCondition(base, { type: 'A', status: 'True', reason: 'R', message: 'm' }, now)).toBe(base);
    expect(setCondition(base, { type: 'B', status: 'False', lastTransitionTime: T1 }, now)).toBe(base);
  });

  it('starts a list from nothing', () => {
    expect(setCondition(undefined, { type: 'A', status: 'Unknown' }, now)).toEqual([
      { type: 'A', status: 'Unknown', lastTransitionTime: NOW },
    ]);
  });

  it('keeps kind-specific fields', () => {
    const conds: DeploymentCondition[] = [
      { type: 'Progressing', status: 'True', lastTransitionTime: T0, lastUpdateTime: T0 },
    ];
    const out = setCondition(conds, {
      type: 'Progressing',
      status: 'True',
      reason: 'NewReplicaSetAvailable',
      lastUpdateTime: T1,
    });
    expect(out).toEqual([
      {
        type: 'Progressing',
        status: 'True',
        reason: 'NewReplicaSetAvailable',
        lastTransitionTime: T0,
        lastUpdateTime: T1,
      },
    ]);
  });
});

describe('removeCondition', () => {
  const conds: ConditionLike[] = [
    { type: 'A', status: 'True' },
    { type: 'B', status: 'True' },
  ];
  it('removes the type', () => {
    expect(removeCondition(conds, 'A')).toEqual([{ type: 'B', status: 'True' }]);
    expect(conds).toHaveLength(2);
  });
  it('returns the same array when absent', () => {
    expect(removeCondition(conds, 'C')).toBe(conds);
    expect(removeCondition(undefined, 'C')).toEqual([]);
  });
});
