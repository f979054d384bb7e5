import { formatTime, type Pod } from '@orch/api';
import { podNotReadyCondition, TAINT_MANAGER_DISRUPTION_CONDITION, withPodCondition } from './podConditions';

const T0 = Date.parse('2024-05-01T10:00:00Z');
const pod = (conditions: object[]): Pod => ({ metadata: { name: 'p' }, status: { conditions } }) as Pod;

describe('podNotReadyCondition', () => {
  test('Ready True → False with a new transition time, the rest kept', () => {
    const p = pod([
      { type: 'Ready', status: 'True', lastTransitionTime: 'then', lastProbeTime: null },
      { type: 'PodScheduled', status: 'True' },
    ]);
    expect(podNotReadyCondition(p, T0)).toEqual({
      type: 'Ready',
      status: 'False',
      lastTransitionTime: formatTime(T0),
      lastProbeTime: null,
    });
  });

  test('nothing when already False or without a Ready condition', () => {
    expect(
      podNotReadyCondition(pod([{ type: 'Ready', status: 'False', lastTransitionTime: 'then' }]), T0),
    ).toBeUndefined();
    expect(podNotReadyCondition(pod([{ type: 'PodScheduled', status: 'True' }]), T0)).toBeUndefined();
    expect(podNotReadyCondition({} as Pod, T0)).toBeUndefined();
  });
});

describe('withPodCondition', () => {
  test('DisruptionTarget added once', () => {
    const added = withPodCondition(pod([]), TAINT_MANAGER_DISRUPTION_CONDITION, T0);
    expect(added).toEqual({
      type: 'DisruptionTarget',
      status: 'True',
      reason: 'DeletionByTaintManager',
      message: 'Taint manager: deleting due to NoExecute taint',
      lastTransitionTime: formatTime(T0),
    });
    expect(withPodCondition(pod([added!]), TAINT_MANAGER_DISRUPTION_CONDITION, T0 + 1_000)).toBeUndefined();
  });
});
