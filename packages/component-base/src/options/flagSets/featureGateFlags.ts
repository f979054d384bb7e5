import { DEFAULT_FEATURE_GATES } from '../../featuregate/defaultFeatureGates';
import { FeatureGate } from '../../featuregate/featureGate';
import { flag, type FlagSpec } from '../flagSpec';

/** `--feature-gates`, whose help lists every known gate. */
export function featureGateFlags(): FlagSpec[] {
  const known = new FeatureGate(DEFAULT_FEATURE_GATES).knownFeatures();
  return [
    flag({
      name: 'feature-gates',
      type: 'mapStringBool',
      help: `A set of key=value pairs that describe feature gates for alpha/experimental features. Options are:\n${known.join('\n')}`,
    }),
  ];
}
