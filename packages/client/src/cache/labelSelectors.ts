import type { LabelSelectorLike } from '../types';

/** Matches every object. */
export const everything: LabelSelectorLike = {
  matches: () => true,
  toString: () => '',
};

/** Matches objects carrying all the given labels with the given values. */
export function selectorFromSet(set: Record<string, string>): LabelSelectorLike {
  const entries = Object.entries(set).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    matches: (labels) => entries.every(([k, v]) => labels[k] === v),
    toString: () => entries.map(([k, v]) => `${k}=${v}`).join(','),
  };
}
