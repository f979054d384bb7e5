import { HPA_CONDITIONS_ANNOTATION, type HorizontalPodAutoscaler } from '@orch/api';
import { annotationsWithConditions, conditionsOf, setCondition } from './hpaConditions';

const hpa = (annotations?: Record<string, string>): HorizontalPodAutoscaler =>
  ({ metadata: { name: 'web', annotations } }) as HorizontalPodAutoscaler;

describe('the autoscaling/v1 conditions annotation', () => {
  test('a condition is appended, and its transition time moves only when its status changes', () => {
    let list = setCondition([], 'AbleToScale', 'True', 'SucceededGetScale', 'got it', 0);
    list = setCondition(list, 'ScalingActive', 'False', 'FailedGetResourceMetric', 'no metrics', 0);
    list = setCondition(list, 'AbleToScale', 'True', 'SucceededRescale', 'scaled', 60_000);
    expect(list).toEqual([
      {
        type: 'AbleToScale',
        status: 'True',
        lastTransitionTime: '1970-01-01T00:00:00Z',
        reason: 'SucceededRescale',
        message: 'scaled',
      },
      {
        type: 'ScalingActive',
        status: 'False',
        lastTransitionTime: '1970-01-01T00:00:00Z',
        reason: 'FailedGetResourceMetric',
        message: 'no metrics',
      },
    ]);
    list = setCondition(list, 'ScalingActive', 'True', 'ValidMetricFound', 'ok', 60_000);
    expect(list[1]?.lastTransitionTime).toBe('1970-01-01T00:01:00Z');
  });

  test('is read back from the annotations it is written to, and unreadable as none', () => {
    const list = setCondition([], 'ScalingLimited', 'False', 'DesiredWithinRange', 'fine', 0);
    const annotations = annotationsWithConditions(hpa({ other: 'x' }), list);
    expect(annotations.other).toBe('x');
    expect(conditionsOf(hpa(annotations))).toEqual(list);
    expect(conditionsOf(hpa({ [HPA_CONDITIONS_ANNOTATION]: 'not json' }))).toEqual([]);
    expect(conditionsOf(hpa())).toEqual([]);
  });
});
