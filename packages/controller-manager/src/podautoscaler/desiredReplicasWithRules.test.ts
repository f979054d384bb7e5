import { desiredReplicasWithRules, scaleUpLimit } from './desiredReplicasWithRules';

describe('desiredReplicasWithRules', () => {
  test('the scale-up limit is twice the count, at least 4', () => {
    expect([1, 2, 3, 10].map(scaleUpLimit)).toEqual([4, 4, 6, 20]);
  });

  test.each([
    { current: 3, desired: 4, min: 1, max: 10, want: [4, 'DesiredWithinRange'] },
    { current: 3, desired: 1, min: 2, max: 10, want: [2, 'TooFewReplicas'] },
    { current: 3, desired: 12, min: 1, max: 5, want: [5, 'TooManyReplicas'] },
    { current: 3, desired: 12, min: 1, max: 20, want: [6, 'ScaleUpLimit'] },
    { current: 1, desired: 9, min: 1, max: 20, want: [4, 'ScaleUpLimit'] },
  ])('$current -> $desired within [$min, $max]', ({ current, desired, min, max, want }) => {
    const got = desiredReplicasWithRules(current, desired, min, max);
    expect([got.replicas, got.reason]).toEqual(want);
  });

  test('says why it limits', () => {
    expect(desiredReplicasWithRules(3, 12, 1, 5).message).toBe(
      'the desired replica count is more than the maximum replica count',
    );
    expect(desiredReplicasWithRules(3, 1, 2, 5).message).toBe(
      'the desired replica count is less than the minimum replica count',
    );
    expect(desiredReplicasWithRules(3, 12, 1, 20).message).toBe(
      'the desired replica count is increasing faster than the maximum scale rate',
    );
    expect(desiredReplicasWithRules(3, 3, 1, 5).message).toBe(
      'the desired count is within the acceptable range',
    );
  });
});
