import { podEvaluator, quotaEvaluatorFor, serviceEvaluator } from '@orch/api';
import { quotaNeedsSync, quotaTracks } from './quotaSync';

describe('quota sync triggers', () => {
  it('a quota needs a sync until status.hard is spec.hard and every limited resource has usage', () => {
    expect(quotaNeedsSync({ spec: { hard: { pods: '2' } } })).toBe(true);
    expect(
      quotaNeedsSync({ spec: { hard: { pods: '2' } }, status: { hard: { pods: '1' }, used: { pods: '0' } } }),
    ).toBe(true);
    expect(
      quotaNeedsSync({
        spec: { hard: { pods: '2', secrets: '1' } },
        status: { hard: { pods: '2', secrets: '1' }, used: { pods: '0' } },
      }),
    ).toBe(true);
    expect(
      quotaNeedsSync({
        spec: { hard: { cpu: '1' } },
        status: { hard: { cpu: '1000m' }, used: { cpu: '0' } },
      }),
    ).toBe(false);
  });

  it('a quota tracks the evaluators measuring what it limits', () => {
    const q = { spec: { hard: { 'requests.cpu': '1', 'count/deployments.apps': '2' } } };
    expect(quotaTracks(q, podEvaluator)).toBe(true);
    expect(quotaTracks(q, serviceEvaluator)).toBe(false);
    expect(quotaTracks(q, quotaEvaluatorFor('apps', 'deployments'))).toBe(true);
  });
});
