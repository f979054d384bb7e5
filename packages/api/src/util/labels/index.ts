export { LabelSelectorError } from './errors';
export {
  LABEL_OPERATORS,
  LabelRequirement,
  newRequirement,
  validateLabelKey,
  type LabelOperator,
  type LabelSet,
} from './requirement';
export { everythingLabels, nothingLabels, selectorFromRequirements, type LabelsSelector } from './selector';
export { parseLabelSelector } from './parser';
export * from './labelSelector';
