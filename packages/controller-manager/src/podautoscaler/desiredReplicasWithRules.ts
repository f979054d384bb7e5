/** Factor and floor of the largest scale-up of one sync (Kubernetes' scaleUpLimitFactor and scaleUpLimitMinimum). */
const SCALE_UP_LIMIT_FACTOR = 2;
const SCALE_UP_LIMIT_MINIMUM = 4;

/** The most replicas one sync scales `currentReplicas` up to: twice as many, at least 4. */
export function scaleUpLimit(currentReplicas: number): number {
  return Math.max(SCALE_UP_LIMIT_FACTOR * currentReplicas, SCALE_UP_LIMIT_MINIMUM);
}

/**
 * A recommendation held within the bounds (Kubernetes' convertDesiredReplicasWithRules): at least
 * minReplicas, at most maxReplicas and the scale-up limit, with the ScalingLimited reason and message.
 */
export function desiredReplicasWithRules(
  currentReplicas: number,
  desiredReplicas: number,
  minReplicas: number,
  maxReplicas: number,
): { replicas: number; reason: string; message: string } {
  const limit = scaleUpLimit(currentReplicas);
  const minimum = minReplicas === 0 ? 1 : minReplicas;
  if (desiredReplicas < minimum) {
    return {
      replicas: minimum,
      reason: 'TooFewReplicas',
      message: 'the desired replica count is less than the minimum replica count',
    };
  }
  if (maxReplicas > limit) {
    if (desiredReplicas > limit) {
      return {
        replicas: limit,
        reason: 'ScaleUpLimit',
        message: 'the desired replica count is increasing faster than the maximum scale rate',
      };
    }
  } else if (desiredReplicas > maxReplicas) {
    return {
      replicas: maxReplicas,
      reason: 'TooManyReplicas',
      message: 'the desired replica count is more than the maximum replica count',
    };
  }
  return {
    replicas: desiredReplicas,
    reason: 'DesiredWithinRange',
    message: 'the desired count is within the acceptable range',
  };
}
