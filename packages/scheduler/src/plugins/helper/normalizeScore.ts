import { MAX_NODE_SCORE } from '../../framework/interfaces';

/**
 * Kubernetes' DefaultNormalizeScore: scales scores to [0, maxPriority] by the highest one; with
 * `reverse`, a higher raw score becomes a lower final score. All zero raw scores give maxPriority
 * when reversed and stay zero otherwise.
 */
export function defaultNormalizeScore(
  scores: Float64Array,
  reverse: boolean,
  maxPriority = MAX_NODE_SCORE,
): void {
  let max = 0;
  for (let i = 0; i < scores.length; i++) if (scores[i]! > max) max = scores[i]!;
  if (max === 0) {
    if (reverse) scores.fill(maxPriority);
    return;
  }
  for (let i = 0; i < scores.length; i++) {
    const s = Math.trunc((maxPriority * scores[i]!) / max);
    scores[i] = reverse ? maxPriority - s : s;
  }
}
