import { newFeatureGates } from '../featuregate/defaultFeatureGates';
import { featureEnabled } from './ControllerContext';

describe('featureEnabled', () => {
  it("reads a controller's gates, or the defaults when it has none", () => {
    expect(featureEnabled({}, 'TTLAfterFinished')).toBe(false);
    expect(featureEnabled({}, 'ServiceLoadBalancerFinalizer')).toBe(true);
    const featureGates = newFeatureGates({ TTLAfterFinished: true, ServiceLoadBalancerFinalizer: false });
    expect(featureEnabled({ featureGates }, 'TTLAfterFinished')).toBe(true);
    expect(featureEnabled({ featureGates }, 'ServiceLoadBalancerFinalizer')).toBe(false);
  });
});
